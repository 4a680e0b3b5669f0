// Errors a user sees name a real place or none: never an empty path, never `line 0` (or `:0:0`),
// never V8's own words ("Invalid string length", "Maximum call stack size exceeded", a stack
// trace). The real CLI (bin/krmfn.mjs over dist/) on hostile packages, scripts and streams; the
// position formatters on positions that are unknown.
import { spawnSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { formatErrorLocation } from '../../src/core/errors.ts';
import { formatStarlarkPosition } from '../../src/starlark/index.ts';
import { ensureBuilt } from '../harness/built-cli.ts';

const repo = path.resolve(import.meta.dirname, '../..');
const bin = path.join(repo, 'bin/krmfn.mjs');
let tmp = '';

/** What no error text may hold. */
const HOST_TEXT =
  /\bline 0\b|:0:0\b|^\s+at |RangeError|TypeError|Invalid (string|array|typed array) length|Maximum call stack|Error: :|open :|""\s*:/m;

beforeAll(async () => {
  ensureBuilt();
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'krmfn-error-text-'));
});
afterAll(async () => {
  if (tmp) await fsp.rm(tmp, { recursive: true, force: true });
});

const KPTFILE = (name: string, mutator = ''): string =>
  `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: ${name}\n` +
  (mutator ? `pipeline:\n  mutators:\n    - ${mutator}\n` : '');
const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  k: v\n';

async function pkg(name: string, files: Record<string, string>): Promise<string> {
  const dir = path.join(tmp, name);
  await fsp.mkdir(dir);
  for (const [file, text] of Object.entries(files)) await fsp.writeFile(path.join(dir, file), text);
  return dir;
}

/** A StarlarkRun config whose source is `source`. */
const starlarkRun = (source: string): string =>
  'apiVersion: fn.kpt.dev/v1alpha1\nkind: StarlarkRun\nmetadata:\n  name: script\nsource: |\n' +
  source
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n') +
  '\n';

function cli(args: string[], cwd: string, stdin?: string): { status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd, input: stdin ?? '', encoding: 'utf8' });
  return { status: r.status, stderr: r.stderr };
}

describe('the real CLI on hostile input', () => {
  test('a Starlark program nested past the parser stack: the script named, no line 0', async () => {
    const deep = 'x = ' + '('.repeat(50_000) + '1' + ')'.repeat(50_000);
    const dir = await pkg('deep-star', {
      Kptfile: KPTFILE('deep-star', 'image: gcr.io/kpt-fn/starlark:v0.4.3\n      configPath: fn.yaml'),
      'fn.yaml': starlarkRun(deep),
      'cm.yaml': CM,
    });
    const r = cli(['fn', 'render', '.'], dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('[error]: script: program too deeply nested\n');
    expect(r.stderr).not.toMatch(HOST_TEXT);
  });

  test('a Starlark string past the longest string V8 holds: a Starlark error, not V8 text', async () => {
    const dir = await pkg('long-string', { Kptfile: KPTFILE('long-string'), 'cm.yaml': CM });
    await fsp.writeFile(
      path.join(tmp, 'grow.yaml'),
      starlarkRun('def grow():\n  s = "a" * 1048576\n  for i in range(12):\n    s = s + s\n  return len(s)\ngrow()'),
    );
    const r = cli(
      ['fn', 'eval', '.', '--image', 'gcr.io/kpt-fn/starlark:v0.4.3', '--fn-config', path.join(tmp, 'grow.yaml')],
      dir,
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('result too large');
    expect(r.stderr).not.toMatch(HOST_TEXT);
  });

  test.each([
    ['nested far past the depth limit (YAML)', 'deep.yaml', 'a: ' + '['.repeat(2_000_000) + '\n'],
    ['nested far past the depth limit (JSON)', 'deep.json', '{"a":'.repeat(200_000) + '1' + '}'.repeat(200_000)],
    ['malformed on its first line', 'bad.yaml', 'a: [\n'],
    ['a tab where indentation belongs', 'tab.yaml', 'a:\n\t- b\n'],
  ])('a package file %s: the file named, no line 0', async (_why, file, text) => {
    const name = file.replace('.', '-');
    const dir = await pkg(name, { Kptfile: KPTFILE(name), [file]: text });
    const r = cli(['fn', 'render', '.'], dir);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(path.join(dir, file));
    expect(r.stderr).not.toMatch(HOST_TEXT);
  });

  test.each([
    ['malformed YAML', 'a: [\n'],
    ['deep nesting', '['.repeat(2_000_000)],
    ['items not a list', 'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: 3\n'],
  ])('%s on stdin: a clear error with no empty path', (_why, stdin) => {
    const r = cli(['fn', 'eval', '-', '--image', 'gcr.io/kpt-fn/set-labels:v0.2.0', '--', 'a=b'], tmp, stdin);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^error: \S/);
    expect(r.stderr).not.toMatch(HOST_TEXT);
  });
});

describe('position formatters leave out what is unknown', () => {
  test('formatErrorLocation: no file, no line', () => {
    expect(formatErrorLocation({ file: '', line: 0, message: 'm' })).toBe('m');
    expect(formatErrorLocation({ line: 0, column: 0, message: 'm' })).toBe('m');
    expect(formatErrorLocation({ file: 'a.yaml', line: 0, message: 'm' })).toBe('a.yaml: m');
    expect(formatErrorLocation({ file: 'a.yaml', line: 3, column: 2, message: 'm' })).toBe('a.yaml:3:2: m');
  });

  test('formatStarlarkPosition: a file alone when the line is unknown (starlark-go Position.String)', () => {
    expect(formatStarlarkPosition({ file: 'fn', line: 0, col: 0 })).toBe('fn');
    expect(formatStarlarkPosition({ file: 'fn', line: 4, col: 7 })).toBe('fn:4:7');
  });
});
