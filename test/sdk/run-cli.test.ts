/** runCli as a real program: the fixture is bundled by `krmfn build` and run as a subprocess. */
import { spawnSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/node/cli.ts';

let tmp: string;
let bin: string;
const run = (args: string[], input = ''): { status: number | null; stdout: string; stderr: string } => {
  const r = spawnSync(bin, args, { input, encoding: 'utf8', cwd: tmp });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};

beforeAll(async () => {
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'krmfn-runcli-'));
  bin = path.join(tmp, 'noisy.mjs');
  const code = await main({
    argv: ['build', path.join(import.meta.dirname, 'fixtures/noisy/fn.ts'), '-o', bin],
    stdin: Readable.from([]),
    stdout: new PassThrough(),
    stderr: new PassThrough(),
    env: {},
    cwd: tmp,
  });
  expect(code).toBe(0);
  await fsp.writeFile(path.join(tmp, 'cm.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a # keep\n');
  await fsp.writeFile(
    path.join(tmp, 'config.yaml'),
    'apiVersion: fn.kpt.dev/v1alpha1\nkind: Noisy\nmetadata:\n  name: n\nnote: from-file\n',
  );
});
afterAll(async () => {
  await fsp.rm(tmp, { recursive: true, force: true });
});

const LIST = `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: a
functionConfig:
  apiVersion: v1
  kind: ConfigMap
  metadata:
    name: function-input
  data:
    note: hi
`;

describe('runCli', () => {
  it('ResourceList mode: only the list on stdout, console and logs on stderr', () => {
    const r = run([], LIST);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('      example.com/note: hi\n');
    expect(r.stdout.startsWith('apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n')).toBe(true);
    expect(r.stderr).toBe('starting\nannotated 1\n');
  });

  it('-d builds a function-input ConfigMap, overriding the input config', () => {
    const r = run(['-d', 'note=cli'], LIST);
    expect(r.stdout).toContain('example.com/note: cli');
    expect(r.stdout).toContain('data:\n    note: cli');
  });

  it('standalone mode: config file and resource files in, plain stream out, results on stderr', () => {
    const r = run(['-f', 'config.yaml', 'cm.yaml']);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a # keep\n  annotations:\n    config.kubernetes.io/path: cm.yaml\n    config.kubernetes.io/index: "0"\n    example.com/note: from-file\n',
    );
  });

  it('writes the list before failing: config error exit 1, crash exit 2 with the stack', () => {
    const typo = run([], LIST.replace('note: hi', 'other: x'));
    expect(typo.status).toBe(1);
    expect(typo.stdout).toContain('- message: unknown key "other" in the ConfigMap data of functionConfig');
    const missing = run([], LIST.replace('note: hi', 'crash: "false"'));
    expect(missing.status).toBe(1);
    expect(missing.stdout).toContain("- message: 'functionConfig is invalid: note: is required'\n  severity: error\n");
    expect(missing.stdout).toContain('  field:\n    path: data.note\n');
    const crash = run(['-d', 'note=x', '-d', 'crash=true'], LIST);
    expect(crash.status).toBe(2);
    expect(crash.stdout).toContain('message: crashed on purpose');
    expect(crash.stderr).toMatch(/^starting\nError: crashed on purpose\n {4}at /);
  });

  it('--help, --definition and --json', () => {
    expect(run(['--help']).stdout).toContain('  note (required): string');
    const def = run(['--definition']).stdout;
    expect(def).toContain('kind: KRMFunctionDefinition');
    expect(def).toContain('      openAPIV3Schema:');
    const json = JSON.parse(run(['--json'], LIST).stdout) as {
      items: { metadata: { annotations: Record<string, string> } }[];
    };
    expect(json.items[0].metadata.annotations['example.com/note']).toBe('hi');
    expect(run(['--bogus']).status).toBe(1);
  });
});
