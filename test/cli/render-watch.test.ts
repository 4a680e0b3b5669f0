/**
 * `krmfn render --watch` on real files in a subprocess (src/node/commands/render-watch.ts): each
 * save re-renders and prints the run's diff, the files a run writes do not trigger another run,
 * `.krmignore`d files never trigger one, SIGINT ends it with status 0. And `render --diff
 * --exit-code` fails when the package is not rendered. Assertions are on output, not on time.
 */
import { spawn } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { runCli } from '../harness/golden.ts';

const BIN = path.resolve(import.meta.dirname, '../../bin/krmfn.mjs');
const KPTFILE = `apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: pkg
pipeline:
  mutators:
  - image: gcr.io/kpt-fn/set-namespace:v0.4.1
    configMap:
      namespace: prod
`;
const cm = (name: string): string => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\n`;

let tmp: string;
let pkg: string;
beforeEach(async () => {
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'krmfn-watch-'));
  pkg = path.join(tmp, 'pkg');
  await fsp.mkdir(pkg);
  await fsp.writeFile(path.join(pkg, 'Kptfile'), KPTFILE);
  await fsp.writeFile(path.join(pkg, 'a.yaml'), cm('a'));
});
afterEach(() => fsp.rm(tmp, { recursive: true, force: true }));

const WATCHING = 'watching pkg for changes (Ctrl-C to stop)\n';
const count = (s: string, part: string): number => s.split(part).length - 1;

describe('render --watch', () => {
  test('re-renders on save, prints each diff, ignores its own writes and .krmignored files', async () => {
    const child = spawn(process.execPath, [BIN, 'render', '--watch', 'pkg'], {
      cwd: tmp,
      env: { ...process.env, NO_COLOR: '1' },
    });
    let out = '';
    let err = '';
    const waiters: (() => void)[] = [];
    const wake = (): void => waiters.splice(0).forEach((w) => w());
    child.stdout.on('data', (d: Buffer) => ((out += d.toString()), wake()));
    child.stderr.on('data', (d: Buffer) => ((err += d.toString()), wake()));
    const until = async (ok: () => boolean): Promise<void> => {
      while (!ok()) await new Promise<void>((r) => waiters.push(r));
    };

    await until(() => count(err, WATCHING) === 1);
    expect(out).toContain('+++ b/pkg/a.yaml\n');
    expect(out).toContain('+  namespace: prod\n');

    await fsp.writeFile(path.join(pkg, 'b.yaml'), cm('b'));
    await until(() => count(err, WATCHING) === 2);
    expect(out).toContain('--- a/pkg/b.yaml\n+++ b/pkg/b.yaml\n');
    expect(await fsp.readFile(path.join(pkg, 'b.yaml'), 'utf8')).toContain('namespace: prod');

    await fsp.writeFile(path.join(pkg, '.krmignore'), 'scratch.yaml\n');
    await until(() => count(err, WATCHING) === 3);
    await fsp.writeFile(path.join(pkg, 'scratch.yaml'), cm('scratch'));
    await fsp.writeFile(path.join(pkg, 'c.yaml'), cm('c'));
    await until(() => out.includes('+++ b/pkg/c.yaml\n') && count(err, WATCHING) === 4);

    const code = new Promise<number | null>((r) => child.on('close', r));
    child.kill('SIGINT');
    expect(await code).toBe(0);
    expect(count(err, WATCHING)).toBe(4);
    expect(count(err, 'Successfully executed 1 function(s) in 1 package(s).')).toBe(4);
    expect(out).not.toContain('scratch');
    expect(await fsp.readFile(path.join(pkg, 'scratch.yaml'), 'utf8')).toBe(cm('scratch'));
  }, 60_000);

  test('--watch is in place only', async () => {
    const r = await runCli(['render', '--watch', '--diff', 'pkg'], { cwd: tmp });
    expect(r).toMatchObject({
      exitCode: 1,
      stderr: 'error: --watch renders in place: it cannot be used with --diff or --output\n',
    });
  });
});

describe('render --diff --exit-code', () => {
  test('exit 1 while the package is not rendered, 0 once it is; nothing written', async () => {
    const before = await runCli(['render', '--diff', '--exit-code', 'pkg'], { cwd: tmp });
    expect(before.exitCode).toBe(1);
    expect(before.stdout).toContain('+  namespace: prod\n');
    expect(await fsp.readFile(path.join(pkg, 'a.yaml'), 'utf8')).toBe(cm('a'));
    expect((await runCli(['render', '--diff', 'pkg'], { cwd: tmp })).exitCode).toBe(0);
    expect((await runCli(['render', 'pkg'], { cwd: tmp })).exitCode).toBe(0);
    const after = await runCli(['render', '--diff', '--exit-code', 'pkg'], { cwd: tmp });
    expect(after).toMatchObject({ exitCode: 0, stdout: '' });
  });

  test('--exit-code needs --diff', async () => {
    const r = await runCli(['render', '--exit-code', 'pkg'], { cwd: tmp });
    expect(r).toMatchObject({ exitCode: 1, stderr: 'error: --exit-code needs --diff\n' });
  });
});
