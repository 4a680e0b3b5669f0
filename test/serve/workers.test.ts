/**
 * `krmfn serve` with its real worker service (src/node/serve/worker-service.ts): renders and
 * Starlark run in worker processes, so the main thread keeps answering; a worker whose client goes
 * away or that dies is replaced without taking the server down; the CLI's render flags
 * (--allow-alpha-wasm, --allow-exec, --truncate-output) reach the runtimes in the workers.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { BUILTINS } from 'krmfn/builtins';
import { readTar, writeTar } from '../../src/core/tar.ts';
import type { ServeConfig } from '../../src/node/serve/config.ts';
import { startServer, type RunningServer } from '../../src/node/serve/server.ts';
import type { RenderResponseJson as RenderJson } from '../../src/node/serve/service.ts';
import { createWorkerService, type WorkerService } from '../../src/node/serve/worker-service.ts';

const functions = BUILTINS.map((b) => ({ name: b.name, images: b.images, summary: b.summary }));
const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const s of open.splice(0).reverse()) await s.close();
});
const tmp = mkdtempSync(join(tmpdir(), 'krmfn-serve-workers-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const CONFIG: ServeConfig = {
  timeoutMs: 20_000,
  env: {},
  cwd: '/',
  allowWasm: false,
  allowExec: false,
  allowNetwork: false,
  truncateOutput: true,
  attribution: true,
};

async function serve(
  config: Partial<ServeConfig> = {},
  extra: { maxHeapMb?: number; requestTimeoutMs?: number } = {},
): Promise<RunningServer & { service: WorkerService; logs: Record<string, unknown>[] }> {
  const logs: Record<string, unknown>[] = [];
  const service = createWorkerService({
    config: { ...CONFIG, ...config },
    functions,
    workers: 1,
    ...(extra.maxHeapMb ? { maxHeapMb: extra.maxHeapMb } : {}),
  });
  const s = await startServer({
    service,
    log: (e) => logs.push(e),
    requestTimeoutMs: extra.requestTimeoutMs ?? config.timeoutMs ?? CONFIG.timeoutMs,
  });
  open.push(service, s);
  return Object.assign(s, { service, logs });
}

const KPTFILE = (mutator: string): string =>
  `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: x\npipeline:\n  mutators:\n  - ${mutator}\n`;
const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n';
const starlark = (source: string): Record<string, string> => ({
  Kptfile: KPTFILE('image: gcr.io/kpt-fn/starlark:v0.5.0\n    configPath: fn.yaml'),
  'fn.yaml': `apiVersion: fn.kpt.dev/v1alpha1\nkind: StarlarkRun\nmetadata:\n  name: s\n  annotations:\n    config.kubernetes.io/local-config: "true"\nsource: |\n${source
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n')}\n`,
  'cm.yaml': CM,
});
const SET_DATA = 'for r in ctx.resource_list["items"]:\n  if r["kind"] == "ConfigMap":\n    r["data"] = {"k": "v"}';
const LOOP = 'def spin():\n  n = 0\n  for i in range(1000000000):\n    n += i\nspin()';

function postRender(url: string, files: Record<string, string>, signal?: AbortSignal): Promise<Response> {
  return fetch(`${url}/v1/render`, {
    method: 'POST',
    body: JSON.stringify({ files }),
    headers: { 'content-type': 'application/json' },
    ...(signal ? { signal } : {}),
  });
}

async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; !cond(); i++) {
    if (i > 2000) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('krmfn serve: work in worker processes', () => {
  it('answers /healthz while a looping Starlark render runs, and stops it when the client goes away', async () => {
    const s = await serve();
    const ac = new AbortController();
    const looping = postRender(s.url, starlark(LOOP), ac.signal);
    await until(() => s.service.pool.running === 1);
    const health = await fetch(`${s.url}/healthz`);
    expect(await health.text()).toBe('ok\n');
    expect(s.service.pool.running).toBe(1); // still looping: /healthz did not wait for it
    ac.abort();
    await expect(looping).rejects.toThrow();
    await until(() => s.inFlight() === 0);
    // The looping worker was terminated; a fresh one serves the next render.
    const res = await postRender(s.url, starlark(SET_DATA));
    expect(res.status).toBe(200);
    expect(((await res.json()) as RenderJson).files['cm.yaml']).toContain('k: v');
    expect(s.service.pool.spawned).toBe(2);
  });

  it('stops a looping script at the request deadline', async () => {
    const s = await serve({ timeoutMs: 500 }, { requestTimeoutMs: 500 });
    const res = await postRender(s.url, starlark(LOOP));
    expect([422, 504]).toContain(res.status);
    const body = (await res.json()) as { error: string; log?: string };
    expect(`${body.error} ${body.log ?? ''}`).toMatch(/timed out|deadline|did not finish/i);
    expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
  });

  it('survives a worker that runs out of memory: 500 for that request, the next one served', async () => {
    const s = await serve({}, { maxHeapMb: 48 });
    const res = await postRender(s.url, starlark('x = ["a" * 1000] * 1\nfor i in range(22):\n  x = x + x'));
    expect(res.status).toBe(500);
    expect(((await res.json()) as { error: string }).error).toMatch(/render worker (failed|exited)/);
    expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
    const ok = await postRender(s.url, starlark('pass'));
    expect(ok.status).toBe(200);
  });
});

describe('krmfn serve: render flags reach the runtimes', () => {
  const wasmPackage = (): Uint8Array => {
    const enc = new TextEncoder();
    return writeTar([
      { path: 'Kptfile', data: enc.encode(KPTFILE('exec: annotate.wasm')) },
      { path: 'cm.yaml', data: enc.encode(CM) },
      { path: 'annotate.wasm', data: new Uint8Array(readFileSync('wasm/testdata/annotate-yaml.wasm')) },
    ]);
  };
  const postTar = (url: string, body: Uint8Array): Promise<Response> =>
    fetch(`${url}/v1/render`, {
      method: 'POST',
      body: body as Uint8Array<ArrayBuffer>,
      headers: { 'content-type': 'application/x-tar' },
    });

  it('--allow-alpha-wasm runs the WASM module the package contains', async () => {
    const s = await serve({ allowWasm: true });
    const res = await postTar(s.url, wasmPackage());
    expect(res.status).toBe(200);
    const files = new Map(readTar(new Uint8Array(await res.arrayBuffer())).map((e) => [e.path, e.data]));
    expect(new TextDecoder().decode(files.get('cm.yaml'))).toContain('wasm.krmfn.dev/touched: "true"');
  });

  it('without --allow-alpha-wasm the module does not run', async () => {
    const s = await serve();
    const res = await postTar(s.url, wasmPackage());
    expect(res.status).toBe(422);
  });

  it('--allow-exec runs exec functions; without it they are refused', async () => {
    const script = join(tmp, 'stamp.sh');
    writeFileSync(script, '#!/bin/sh\nsed -e "s/name: a$/name: stamped/"\n');
    chmodSync(script, 0o755);
    const files = { Kptfile: KPTFILE(`exec: ${script}`), 'cm.yaml': CM };
    const refused = await postRender((await serve()).url, files);
    expect(refused.status).toBe(422);
    const res = await postRender((await serve({ allowExec: true })).url, files);
    expect(res.status).toBe(200);
    expect(((await res.json()) as RenderJson).files['cm.yaml']).toContain('name: stamped');
  });

  it('--truncate-output=false keeps every line of a Stderr block (kpt beta.56; beta.67 never truncates)', async () => {
    const chatty = starlark(Array.from({ length: 8 }, (_, i) => `print("line ${i}")`).join('\n'));
    const beta56 = { kptVersion: '1.0.0-beta.56' } as const;
    const cut = (await (await postRender((await serve(beta56)).url, chatty)).json()) as RenderJson;
    expect(cut.log).toContain('line 0');
    expect(cut.log).not.toContain('line 7');
    const full = (await (
      await postRender((await serve({ ...beta56, truncateOutput: false })).url, chatty)
    ).json()) as RenderJson;
    expect(full.log).toContain('line 7');
    const beta67 = (await (await postRender((await serve()).url, chatty)).json()) as RenderJson;
    expect(beta67.log).toContain('line 7');
  });
});
