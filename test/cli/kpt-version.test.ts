// Choosing the kpt level on the command line: `krmfn version`, --kpt-version, KRMFN_KPT_VERSION,
// and the flags that exist only at 1.0.0-beta.67.
import { describe, expect, test } from 'vitest';
import { E2E_DIR, runCli } from '../harness/golden.ts';

const run = (argv: string[], env: Record<string, string> = {}) => runCli(argv, { cwd: E2E_DIR, env });

describe('kpt levels on the CLI', () => {
  test('version lists the levels and the default', async () => {
    const r = await run(['version']);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(
      /^krmfn \S+\nkpt versions: 1\.0\.0-beta\.56, 1\.0\.0-beta\.67 \(default\)\nbuilt-in functions/,
    );
  });
  test('with no level chosen, render and eval behave as 1.0.0-beta.67', async () => {
    const unset = { KRMFN_KPT_VERSION: '' };
    const argv = ['render', 'cases/config-map/pkg', '--allow-exec', '--image-prefix', 'x.io/fns', '-o', 'stdout'];
    const prefix = await run(argv, unset);
    expect(prefix.stderr).toMatch(/^Package: "pkg"\n/);
    expect(prefix.exitCode).toBe(0);
    const stdin = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n';
    const tag = await runCli(['eval', '-', '-i', 'set-namespace', '--tag', '~0.4', '--', 'namespace=n'], {
      cwd: E2E_DIR,
      env: unset,
      stdin,
    });
    expect([tag.exitCode, tag.stdout]).toEqual([0, expect.stringContaining('namespace: n\n')]);
  });
  test('an unknown level is a usage error naming the levels (flag and environment)', async () => {
    const want =
      'error: unknown kpt version "1.0.0-beta.1": krmfn implements 1.0.0-beta.56, 1.0.0-beta.67 (default 1.0.0-beta.67)\n';
    const flag = await run(['render', 'cases/config-map/pkg', '--kpt-version', '1.0.0-beta.1']);
    expect([flag.exitCode, flag.stderr]).toEqual([1, want]);
    const env = await run(['eval', '-', '-i', 'set-namespace:v0.4.1'], { KRMFN_KPT_VERSION: '1.0.0-beta.1' });
    expect([env.exitCode, env.stderr]).toEqual([1, want]);
  });
  test('--image-prefix and --tag exist only at 1.0.0-beta.67', async () => {
    const prefix = await run(['render', 'cases/config-map/pkg', '--image-prefix', 'x.io/fns']);
    expect([prefix.exitCode, prefix.stderr]).toEqual([1, 'error: unknown flag: --image-prefix\n']);
    const tag = await run(['eval', '-', '-i', 'set-namespace', '--tag', '~0.4']);
    expect([tag.exitCode, tag.stderr]).toEqual([1, 'error: unknown flag: --tag\n']);
    const bad = await run([
      'render',
      'cases/config-map/pkg',
      '--kpt-version=1.0.0-beta.67',
      '--image-prefix',
      'x.io/a?b',
    ]);
    expect([bad.exitCode, bad.stderr]).toEqual([
      1,
      `error: invalid image prefix "x.io/a?b": must not contain '?' or '#'\n`,
    ]);
  });
  test('fn source and fn sink take the level too: checked, and the same bytes at every level', async () => {
    const want =
      'error: unknown kpt version "1.0.0-beta.1": krmfn implements 1.0.0-beta.56, 1.0.0-beta.67 (default 1.0.0-beta.67)\n';
    const bad = await run(['source', 'cases/config-map/pkg', '--kpt-version', '1.0.0-beta.1']);
    expect([bad.exitCode, bad.stderr]).toEqual([1, want]);
    const badSink = await run(['fn', 'sink', 'never-made', '--kpt-version=1.0.0-beta.1']);
    expect([badSink.exitCode, badSink.stderr]).toEqual([1, want]);
    const old = await run(['fn', 'source', 'cases/config-map/pkg', '--kpt-version', '1.0.0-beta.56']);
    const now = await run(['fn', 'source', 'cases/config-map/pkg', '--kpt-version', '1.0.0-beta.67']);
    expect(old.exitCode).toBe(0);
    expect(old.stdout).toContain('kind: ResourceList\n');
    expect(now).toEqual(old);
  });
});
