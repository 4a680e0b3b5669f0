/**
 * `--runtimes LIST` (and `KRMFN_RUNTIMES` when the flag is absent) on `krmfn serve` and `krmfn
 * render`, through real processes: the server runs every request on the chosen chain, refuses at
 * start a list that cannot run (render's messages, plus `exec` without --allow-exec), and the
 * variable names itself in its messages while the flag wins over it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RenderResponseJson } from '../../src/node/serve/service.ts';
import { ensureBuilt, startServeProcess, type ServeProcess } from './serve-process.ts';

const repo = path.resolve(import.meta.dirname, '../..');

const KPTFILE = `apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: app
pipeline:
  mutators:
    - image: gcr.io/kpt-fn/set-namespace:v0.4.1
      configMap:
        namespace: prod
    - image: gcr.io/kpt-fn/starlark:v0.4.3
      configPath: star.yaml
`;
const STAR = `apiVersion: fn.kpt.dev/v1alpha1
kind: StarlarkRun
metadata:
  name: s
  annotations:
    config.kubernetes.io/local-config: "true"
source: |
  for r in ctx.resource_list["items"]:
    r["metadata"]["labels"] = {"tier": "web"}
`;
const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n';
const FILES = { Kptfile: KPTFILE, 'star.yaml': STAR, 'cm.yaml': CM };

interface Answer {
  status: number;
  body: RenderResponseJson;
}

async function render(url: string): Promise<Answer> {
  const res = await fetch(`${url}/v1/render`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ files: FILES }),
  });
  return { status: res.status, body: (await res.json()) as RenderResponseJson };
}

function krmfn(args: string[], env: Record<string, string> = {}): { status: number | null; stderr: string } {
  const r = spawnSync(process.execPath, ['bin/krmfn.mjs', ...args], {
    cwd: repo,
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: r.status, stderr: r.stderr };
}

describe('krmfn serve --runtimes', () => {
  let builtinOnly: ServeProcess;
  let both: ServeProcess;
  beforeAll(async () => {
    [builtinOnly, both] = await Promise.all([
      startServeProcess(['--workers', '1', '--runtimes', 'builtin']),
      startServeProcess(['--workers', '1', '--runtimes', 'starlark,builtin']),
    ]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([builtinOnly?.stop('SIGKILL'), both?.stop('SIGKILL')]);
  });

  it('runs every request on the chosen chain', async () => {
    const refused = await render(builtinOnly.url);
    expect(refused.body.error).toContain(
      'function "gcr.io/kpt-fn/starlark:v0.4.3" is not built into krmfn and no runtime can run it (tried: builtin)',
    );
    const ran = await render(both.url);
    expect(ran.status).toBe(200);
    expect(ran.body.files?.['cm.yaml']).toBe(
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: prod\n  labels:\n    tier: web\n',
    );
  });

  it("refuses at start a list that cannot run, with render's messages", () => {
    ensureBuilt();
    const exec = krmfn(['serve', '-p', '0', '--runtimes', 'builtin,exec']);
    expect(exec.stderr).toBe('error: --runtimes names exec, which runs only with --allow-exec\n');
    expect(exec.status).toBe(1);
    const unknown = krmfn(['serve', '-p', '0'], { KRMFN_RUNTIMES: 'builtin,wsam' });
    expect(unknown.stderr).toBe(
      'error: unknown runtime "wsam" in KRMFN_RUNTIMES: known runtimes are builtin, starlark, wasm, exec, remote, sandbox, docker, podman, nerdctl\n',
    );
    expect(unknown.status).toBe(1);
  });
});

describe('KRMFN_RUNTIMES on render', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  const pkg = (): string => {
    const dir = mkdtempSync(path.join(tmpdir(), 'krmfn-runtimes-'));
    dirs.push(dir);
    for (const [name, text] of Object.entries(FILES)) writeFileSync(path.join(dir, name), text);
    return dir;
  };

  it('chooses the chain when no --runtimes is given, and the flag wins over it', () => {
    ensureBuilt();
    const limited = pkg();
    const r = krmfn(['render', limited], { KRMFN_RUNTIMES: 'builtin' });
    expect(r.stderr).toContain(
      '(tried: builtin): starlark is run by the starlark runtime, which this runtime chain does not include',
    );
    expect(r.status).toBe(1);
    expect(readFileSync(path.join(limited, 'cm.yaml'), 'utf8')).toBe(CM);
    const chosen = pkg();
    const ok = krmfn(['render', chosen, '--runtimes', 'starlark,builtin'], { KRMFN_RUNTIMES: 'builtin' });
    expect(ok.status, ok.stderr).toBe(0);
    expect(readFileSync(path.join(chosen, 'cm.yaml'), 'utf8')).toContain('tier: web');
  });
});
