/**
 * The krmfn CLI with WASM functions, as kpt spells it: `fn render --allow-alpha-wasm` (exec: needs
 * --allow-exec too) and `fn eval --exec fn.wasm --allow-alpha-wasm`, on real temp packages.
 */
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../harness/golden.ts';
import { TESTDATA } from './fixtures.ts';

const tmp = mkdtempSync(join(tmpdir(), 'krmfn-wasm-cli-'));
mkdirSync(join(tmp, 'fns'));
for (const f of ['annotate-yaml', 'echo', 'spin', 'fail', 'flood'])
  cpSync(`${TESTDATA}${f}.wasm`, join(tmp, 'fns', `${f}.wasm`));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings # keep me\ndata:\n  mode: fast\n';

function pkg(name: string, fn: string): string {
  const dir = join(tmp, name);
  mkdirSync(dir);
  writeFileSync(
    join(dir, 'Kptfile'),
    `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: ${name}\npipeline:\n  mutators:\n  - image: gcr.io/kpt-fn/set-namespace:v0.4.1\n    configMap:\n      namespace: prod\n  - exec: ${fn}\n`,
  );
  writeFileSync(join(dir, 'cm.yaml'), CM);
  return dir;
}

const tree = (dir: string): Record<string, string> =>
  Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f), 'utf8')]));

describe('krmfn fn render with WASM', () => {
  it('renders a pipeline mixing a built-in and a WASI module', async () => {
    const dir = pkg('ok', 'fns/annotate-yaml.wasm');
    const r = await runCli(['fn', 'render', dir, '--allow-alpha-wasm', '--allow-exec'], { cwd: tmp });
    expect(r.stderr).toContain('[PASS] "fns/annotate-yaml.wasm"');
    expect(r.exitCode).toBe(0);
    expect(readFileSync(join(dir, 'cm.yaml'), 'utf8')).toBe(
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings # keep me\n  annotations:\n    wasm.krmfn.dev/touched: "true"\n  namespace: prod\ndata:\n  mode: fast\n',
    );
  });

  it('stops a module that never returns at --timeout and leaves the package untouched', async () => {
    const dir = pkg('spin', 'fns/spin.wasm');
    const before = tree(dir);
    const r = await runCli(['fn', 'render', dir, '--allow-alpha-wasm', '--allow-exec', '--timeout', '1s'], {
      cwd: tmp,
    });
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).toMatch(/timed out after \d+ ms|did not finish within 1s/);
    expect(tree(dir)).toEqual(before);
  });

  it('stops a module writing 100 MB to stdout at the output cap and leaves the package untouched', async () => {
    const dir = pkg('flood', 'fns/flood.wasm');
    const before = tree(dir);
    const r = await runCli(['fn', 'render', dir, '--allow-alpha-wasm', '--allow-exec'], { cwd: tmp });
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).toContain('function output exceeded the limit of 67108864 bytes');
    expect(tree(dir)).toEqual(before);
  });

  it("reports a failing module's exit code and stderr, and writes nothing", async () => {
    const dir = pkg('fail', 'fns/fail.wasm');
    const before = tree(dir);
    const r = await runCli(['fn', 'render', dir, '--allow-alpha-wasm', '--allow-exec'], { cwd: tmp });
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).toContain('fail: something went wrong');
    expect(tree(dir)).toEqual(before);
  });

  it('with --allow-alpha-wasm, still runs a non-WASM exec as a process (deliberate deviation: kpt treats every exec as WASM)', async () => {
    writeFileSync(join(tmp, 'fns', 'not-wasm.sh'), '#!/bin/sh\ncat\n', { mode: 0o755 });
    const dir = pkg('not-wasm', 'fns/not-wasm.sh');
    const r = await runCli(['fn', 'render', dir, '--allow-alpha-wasm', '--allow-exec'], { cwd: tmp });
    expect(r.stderr).toContain('[PASS] "fns/not-wasm.sh"');
    expect(r.exitCode).toBe(0);
  });
});

describe('krmfn fn eval with WASM', () => {
  it('runs --exec fn.wasm with --allow-alpha-wasm', async () => {
    const dir = join(tmp, 'eval-pkg');
    mkdirSync(dir);
    writeFileSync(join(dir, 'cm.yaml'), CM);
    const r = await runCli(['fn', 'eval', dir, '--exec', 'fns/annotate-yaml.wasm', '--allow-alpha-wasm'], { cwd: tmp });
    expect(r.exitCode).toBe(0);
    expect(readFileSync(join(dir, 'cm.yaml'), 'utf8')).toContain('    wasm.krmfn.dev/touched: "true"\n');
  });
});
