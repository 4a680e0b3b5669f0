// The CLI entry on real temp directories: help texts, kpt spellings, flag errors, --json.
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { E2E_DIR, runCli } from '../harness/golden.ts';

let tmp: string;
beforeAll(async () => {
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'krmfn-cli-'));
  await fsp.mkdir(path.join(tmp, 'app'));
  await fsp.writeFile(
    path.join(tmp, 'app', 'Kptfile'),
    'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: app\npipeline:\n  mutators:\n  - image: gcr.io/kpt-fn/set-namespace:v0.4.1\n    configMap:\n      namespace: prod\n',
  );
  await fsp.writeFile(path.join(tmp, 'app', 'cm.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n');
});
afterAll(() => fsp.rm(tmp, { recursive: true, force: true }));

describe('krmfn CLI', () => {
  test('top-level help lists render and eval', async () => {
    const r = await runCli(['--help'], { cwd: tmp });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/\n {2}eval +Run one function/);
    expect(r.stdout).toMatch(/\n {2}render +Render a package/);
  });

  for (const argv of [
    ['render', '--help'],
    ['fn', 'render', '-h'],
    ['eval', '--help'],
    ['fn', 'eval', '--help'],
  ]) {
    test(`${argv.join(' ')} prints the command's flags`, async () => {
      const r = await runCli(argv, { cwd: tmp });
      expect(r.exitCode).toBe(0);
      expect(r.stdout).toContain(`krmfn fn ${argv.includes('eval') ? 'eval' : 'render'}`);
      expect(r.stdout).toContain('--results-dir');
      expect(r.stdout).toContain('--timeout');
    });
  }

  test('unknown flags are usage errors', async () => {
    const r = await runCli(['render', '--frobnicate'], { cwd: tmp });
    expect(r).toMatchObject({ exitCode: 1, stderr: 'error: unknown flag: --frobnicate\n' });
  });

  test('eval: a bare argument after the first is rejected like kpt', async () => {
    const r = await runCli(['eval', path.join(tmp, 'app'), '--exec', 'cat', '--', 'a=b', 'oops'], { cwd: tmp });
    expect(r).toMatchObject({ exitCode: 1, stderr: 'error: args must have keys and values separated by =\n' });
  });

  test('eval: container-only flags with --exec', async () => {
    const r = await runCli(['eval', '--exec', 'cat', '--network'], { cwd: tmp });
    expect(r.stderr).toBe(
      'error: --mount, --as-current-user, --network and --env can only be used with container functions\n',
    );
  });

  test('eval: --include-meta-resources is gone', async () => {
    const r = await runCli(['eval', '-m', '-i', 'x'], { cwd: tmp });
    expect(r.stderr).toBe(
      'error: --include-meta-resources is no longer necessary because meta resources are now included by default\n',
    );
  });

  test('fn render with --json: kpt text on stderr, the outcome on stdout', async () => {
    const r = await runCli(['fn', 'render', path.join(tmp, 'app'), '--json', '-o', 'unwrap'], { cwd: tmp });
    expect(r.exitCode).toBe(0);
    expect(r.stderr).toMatch(
      /^Package "app": \n\[RUNNING\] "gcr.io\/kpt-fn\/set-namespace:v0.4.1"\n\[PASS\] "gcr.io\/kpt-fn\/set-namespace:v0.4.1" in \S+\n/,
    );
    const data = JSON.parse(r.stdout);
    expect(data).toMatchObject({ ok: true, exitCode: 0, functionsRun: 1, packagesRun: 1 });
    expect(data.results.items[0]).toMatchObject({ image: 'gcr.io/kpt-fn/set-namespace:v0.4.1', exitCode: 0 });
    expect(data.output).toContain('namespace: prod');
  });

  test('a relative package path resolves against the working directory', async () => {
    const r = await runCli(['render', 'app', '-o', 'stdout'], { cwd: tmp });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('kind: ResourceList');
    expect(r.stdout).toContain('config.kubernetes.io/path: cm.yaml');
  });

  test('exec runs in the working directory with the ResourceList on stdin', async () => {
    const r = await runCli(
      ['eval', path.join(tmp, 'app'), '--exec', 'node fns/krm.mjs annotate via exec', '-o', 'unwrap'],
      { cwd: E2E_DIR },
    );
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('via: exec');
  });

  test('eval from stdin: the ResourceList on stdout feeds back byte-identically', async () => {
    const input = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a # keep\ndata:\n  k: v\n';
    const argv = ['eval', '-', '-i', 'set-namespace:v0.4.1', '--', 'namespace=dev'];
    const first = await runCli(argv, { cwd: tmp, stdin: input });
    expect(first.exitCode).toBe(0);
    expect(first.stdout).toContain('name: a # keep');
    expect(first.stdout).toContain("config.kubernetes.io/path: 'dev/configmap_a.yaml'"); // as kpt prints it
    const second = await runCli(argv, { cwd: tmp, stdin: first.stdout });
    expect(second.stdout).toBe(first.stdout);
  });

  test('render --diff writes nothing and prints the would-be changes as a unified diff', async () => {
    const before = await fsp.readFile(path.join(tmp, 'app', 'cm.yaml'), 'utf8');
    const r = await runCli(['render', 'app', '--diff'], { cwd: tmp });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(
      '--- a/app/cm.yaml\n+++ b/app/cm.yaml\n@@ -2,3 +2,4 @@\n kind: ConfigMap\n metadata:\n   name: c\n+  namespace: prod\n',
    );
    expect(await fsp.readFile(path.join(tmp, 'app', 'cm.yaml'), 'utf8')).toBe(before);
  });
});
