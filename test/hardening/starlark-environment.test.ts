// Starlark's `ctx.environment` under the real CLI (bin/krmfn.mjs over dist/), run with a secret in
// its own environment: a *render* (Kptfile pipeline) gives the script an empty environment, and
// `fn eval` gives it exactly what `--env` passes (kpt's `--env` semantics, docs/starlark.md), never
// the rest of the host environment. test/builtins/starlark-env.test.ts covers `--env` in detail.
import { spawnSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ensureBuilt } from '../harness/built-cli.ts';

const repo = path.resolve(import.meta.dirname, '../..');
const bin = path.join(repo, 'bin/krmfn.mjs');
const SECRET = { SECRET_TEST_VAR: 'must-not-leak' };
let tmp = '';

const STARLARK_RUN = [
  'apiVersion: fn.kpt.dev/v1alpha1',
  'kind: StarlarkRun',
  'metadata:',
  '  name: show-env',
  'source: |',
  '  env = ctx.environment',
  '  for r in ctx.resource_list["items"]:',
  '    if r["kind"] == "ConfigMap":',
  '      r["data"]["seen"] = ",".join(sorted([k + "=" + env[k] for k in env]))',
  '',
].join('\n');

beforeAll(async () => {
  ensureBuilt();
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'krmfn-star-env-'));
});
afterAll(async () => {
  if (tmp) await fsp.rm(tmp, { recursive: true, force: true });
});

async function pkg(name: string, pipeline: boolean): Promise<string> {
  const dir = path.join(tmp, name);
  await fsp.mkdir(dir);
  const kptfile = `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: ${name}\n`;
  const mutators = 'pipeline:\n  mutators:\n    - image: gcr.io/kpt-fn/starlark:v0.4.3\n      configPath: fn.yaml\n';
  await fsp.writeFile(path.join(dir, 'Kptfile'), kptfile + (pipeline ? mutators : ''));
  await fsp.writeFile(path.join(dir, 'fn.yaml'), STARLARK_RUN);
  await fsp.writeFile(
    path.join(dir, 'cm.yaml'),
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  k: v\n',
  );
  return dir;
}

/** Runs the CLI with the secret added to its environment; returns what the script saw. */
async function seen(dir: string, args: string[]): Promise<string> {
  const r = spawnSync(process.execPath, [bin, ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, ...SECRET },
  });
  expect(r.stderr).not.toMatch(/error/i);
  expect(r.status).toBe(0);
  const text = await fsp.readFile(path.join(dir, 'cm.yaml'), 'utf8');
  const m = /^ {2}seen: ?(.*)$/m.exec(text);
  if (!m) throw new Error(`the script did not run:\n${text}`);
  return m[1].replace(/^["']|["']$/g, '');
}

test('a render gives the Starlark script an empty ctx.environment', async () => {
  expect(await seen(await pkg('render', true), ['fn', 'render', '.'])).toBe('');
});

test('fn eval gives the script exactly the --env variables, never the rest of the host environment', async () => {
  const dir = await pkg('eval', false);
  const image = ['fn', 'eval', '.', '--image', 'gcr.io/kpt-fn/starlark:v0.4.3', '--fn-config', 'fn.yaml'];
  expect(await seen(dir, image)).toBe('');
  expect(await seen(dir, [...image, '--env', 'STAGE=prod', '--env', 'SECRET_TEST_VAR'])).toBe(
    'SECRET_TEST_VAR=must-not-leak,STAGE=prod',
  );
});
