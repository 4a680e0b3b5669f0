/**
 * The browser path, run in Node: wasm/worker/web-entry.ts bundled as a browser would load it,
 * inside a worker thread whose `self` behaves like a dedicated worker scope, driven through
 * createWebWorkerPool (webWorkerLike adapter). The real Chromium run belongs to the browser suite.
 */
import { build } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { createWebWorkerPool, prepareModule } from 'krmfn/wasm';
import { dec, enc, fixture } from './fixtures.ts';

const dir = mkdtempSync(join(tmpdir(), 'krmfn-web-worker-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const entry = fileURLToPath(new URL('../../wasm/worker/web-entry.ts', import.meta.url));

async function scriptUrl(): Promise<URL> {
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    outfile: join(dir, 'web-entry.mjs'),
    logLevel: 'silent',
  });
  writeFileSync(
    join(dir, 'scope.mjs'),
    `import { parentPort } from 'node:worker_threads';
// As in a browser, messages that arrive before the module has set onmessage wait for it.
const early = [];
globalThis.self = { onmessage: null, postMessage: (m, t) => parentPort.postMessage(m, t) };
parentPort.on('message', (data) => (self.onmessage ? self.onmessage({ data }) : early.push(data)));
await import('./web-entry.mjs');
for (const data of early.splice(0)) self.onmessage({ data });
`,
  );
  return pathToFileURL(join(dir, 'scope.mjs'));
}

/** A Node worker dressed as a browser `Worker` (onmessage / onerror / postMessage / terminate). */
class WebStyleWorker {
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onerror: ((e: { error: unknown; message: string; preventDefault(): void }) => void) | null = null;
  private readonly w: Worker;
  constructor(url: URL) {
    this.w = new Worker(url);
    this.w.on('message', (data) => this.onmessage?.({ data }));
    this.w.on('error', (error) => this.onerror?.({ error, message: String(error), preventDefault() {} }));
  }
  postMessage(m: unknown, t: Transferable[]): void {
    this.w.postMessage(m, t as never);
  }
  terminate(): void {
    void this.w.terminate();
  }
}

describe('Web Worker entry and pool', () => {
  it('runs WASI modules, stops a runaway one at the deadline and keeps serving', async () => {
    const url = await scriptUrl();
    const pool = createWebWorkerPool({
      create: () => new WebStyleWorker(url) as unknown as globalThis.Worker,
      maxWorkers: 1,
    });
    const echo = await prepareModule(fixture('echo'), { maxMemoryBytes: 16 << 20 });
    const spin = await prepareModule(fixture('spin'), { maxMemoryBytes: 16 << 20 });
    const out = await pool.runWasi(
      { module: echo, stdin: enc('from a web worker'), maxOutputBytes: 1 << 20 },
      { timeoutMs: 10_000 },
    );
    expect(out.failure).toBeUndefined();
    expect(dec(out.stdout)).toBe('from a web worker');
    const stuck = await pool.runWasi(
      { module: spin, stdin: new Uint8Array(0), maxOutputBytes: 1 << 20 },
      { timeoutMs: 150 },
    );
    expect(stuck.failure).toEqual({ kind: 'timeout', message: 'function timed out after 150 ms' });
    expect(dec(stuck.stderr)).toBe('spin: spinning\n');
    expect(
      dec(
        (await pool.runWasi({ module: echo, stdin: enc('again'), maxOutputBytes: 1 << 20 }, { timeoutMs: 10_000 }))
          .stdout,
      ),
    ).toBe('again');
    expect(pool.spawned).toBe(2);
    await pool.close();
  });
});
