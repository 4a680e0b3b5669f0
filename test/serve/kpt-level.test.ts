/**
 * The kpt release `krmfn serve` renders at, through the real server process: `--kpt-version` (and
 * KRMFN_KPT_VERSION) set the server's level with render's validation and message; a request's
 * `kptVersion` (JSON body field or `?kptVersion=`) overrides it, and an unknown one is a 400.
 * beta.67 records the outcome in the Kptfile's status and prints `Package: "…"`; beta.56 leaves the
 * Kptfile alone and prints `Package "…": `.
 */
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
`;
const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n';

interface RenderAnswer {
  status: number;
  body: { ok?: boolean; files?: Record<string, string>; log?: string } | string;
}

async function render(url: string, extra: Record<string, unknown> = {}, query = ''): Promise<RenderAnswer> {
  const res = await fetch(`${url}/v1/render${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ files: { Kptfile: KPTFILE, 'cm.yaml': CM }, ...extra }),
  });
  const text = await res.text();
  return { status: res.status, body: res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
}

function expectBeta67(a: RenderAnswer): void {
  expect(a.status).toBe(200);
  const body = a.body as { files: Record<string, string>; log: string };
  expect(body.files.Kptfile).toContain('status:\n  conditions:\n    - type: Rendered\n      status: "True"');
  expect(body.log).toMatch(/^Package: "pkg"\n/);
  expect(body.files['cm.yaml']).toContain('namespace: prod');
}

function expectBeta56(a: RenderAnswer): void {
  expect(a.status).toBe(200);
  const body = a.body as { files: Record<string, string>; log: string };
  expect(body.files.Kptfile).toBe(KPTFILE);
  expect(body.log).toMatch(/^Package "pkg": \n/);
  expect(body.files['cm.yaml']).toContain('namespace: prod');
}

describe('krmfn serve: kpt level', () => {
  let byDefault: ServeProcess;
  let pinned: ServeProcess;
  beforeAll(async () => {
    [byDefault, pinned] = await Promise.all([
      startServeProcess(['--workers', '1']),
      startServeProcess(['--workers', '1', '--kpt-version', '1.0.0-beta.56']),
    ]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([byDefault?.stop('SIGKILL'), pinned?.stop('SIGKILL')]);
  });

  it('renders at the default level unless the request names one', async () => {
    expectBeta67(await render(byDefault.url));
    expectBeta56(await render(byDefault.url, { kptVersion: '1.0.0-beta.56' }));
    expectBeta56(await render(byDefault.url, {}, '?kptVersion=v1.0.0-beta.56'));
  });

  it("--kpt-version sets the server's level; a request still overrides it", async () => {
    expectBeta56(await render(pinned.url));
    expectBeta67(await render(pinned.url, { kptVersion: 'v1.0.0-beta.67' }));
  });

  it('an unknown level in a request is a 400 with the CLI message', async () => {
    const a = await render(byDefault.url, { kptVersion: '1.0.0-beta.99' });
    expect(a.status).toBe(400);
    expect(JSON.stringify(a.body)).toContain(
      'unknown kpt version \\"1.0.0-beta.99\\": krmfn implements 1.0.0-beta.56, 1.0.0-beta.67',
    );
    expect((await render(byDefault.url, { kptVersion: 56 })).status).toBe(400);
  });

  it("an unknown --kpt-version or KRMFN_KPT_VERSION stops the server with render's message", () => {
    ensureBuilt();
    const run = (args: string[], env: Record<string, string> = {}) =>
      spawnSync(process.execPath, ['bin/krmfn.mjs', ...args], {
        cwd: repo,
        env: { PATH: process.env.PATH ?? '', ...env },
        encoding: 'utf8',
        timeout: 30_000,
      });
    const served = run(['serve', '-p', '0', '--kpt-version', 'nope']);
    const rendered = run(['render', 'no-such-dir', '--kpt-version', 'nope']);
    expect(served.status).toBe(1);
    expect(served.stderr).toBe(rendered.stderr);
    expect(served.stderr).toContain('unknown kpt version "nope"');
    const fromEnv = run(['serve', '-p', '0'], { KRMFN_KPT_VERSION: 'bad' });
    expect(fromEnv.status).toBe(1);
    expect(fromEnv.stderr).toContain('unknown kpt version "bad"');
  });
});
