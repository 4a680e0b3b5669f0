/**
 * `kpt fn eval --env` reaches the Starlark function's `ctx.environment` and nothing else does
 * (src/runtimes/starlark/environment.ts): `KEY=VAL` sets a value, a bare `KEY` exports the host's
 * value when the host has it, the rest of the host environment never leaks into the script.
 */
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../harness/golden.ts';

let tmp = '';
beforeAll(async () => {
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'krmfn-starlark-env-'));
  await fsp.mkdir(path.join(tmp, 'pkg'));
  await fsp.writeFile(
    path.join(tmp, 'pkg', 'cm.yaml'),
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  a: "1"\n',
  );
  await fsp.writeFile(
    path.join(tmp, 'fn.yaml'),
    [
      'apiVersion: fn.kpt.dev/v1alpha1',
      'kind: StarlarkRun',
      'metadata:',
      '  name: show-env',
      'source: |',
      '  env = ctx.environment',
      '  for r in ctx.resource_list["items"]:',
      '    r["metadata"]["annotations"]["seen-env"] = ",".join(sorted([k + "=" + env[k] for k in env]))',
      '',
    ].join('\n'),
  );
});
afterAll(async () => {
  await fsp.rm(tmp, { recursive: true, force: true });
});

async function seenEnv(flags: string[], hostEnv: Record<string, string>): Promise<string> {
  const argv = ['fn', 'eval', 'pkg', '--image', 'gcr.io/kpt-fn/starlark:v0.4.3', '--fn-config', 'fn.yaml', ...flags];
  const r = await runCli(argv, { cwd: tmp, env: hostEnv });
  expect(r.stderr).not.toContain('error');
  expect(r.exitCode).toBe(0);
  const text = await fsp.readFile(path.join(tmp, 'pkg', 'cm.yaml'), 'utf8');
  return /seen-env: ?(.*)/.exec(text)?.[1]?.replace(/^["']|["']$/g, '') ?? '<none>';
}

describe('starlark ctx.environment from --env', () => {
  it('holds exactly the explicit values and the exported host keys', async () => {
    const seen = await seenEnv(['-e', 'STAGE=prod', '--env', 'FROM_HOST', '-e', 'NOT_SET', '-e', 'STAGE=dev'], {
      FROM_HOST: 'h1',
      SECRET_TOKEN: 'never',
    });
    expect(seen).toBe('FROM_HOST=h1,STAGE=dev');
  });

  it('is empty without --env, whatever the host holds', async () => {
    expect(await seenEnv([], { SECRET_TOKEN: 'never' })).toBe('');
  });
});
