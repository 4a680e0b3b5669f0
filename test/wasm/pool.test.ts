/** The worker_threads pool: hard deadlines, warm reuse, recovery after a runaway module. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { prepareModule, WorkerPool, type PreparedModule } from 'krmfn/wasm';
import { createNodeWasmExecutor, nodeWorkerLike } from '../../src/node/wasm/pool.ts';
import { configMapList, dec, enc, fixture } from './fixtures.ts';

const MiB = 1048576;
const prep = (name: string, maxMemoryBytes = 64 * MiB): Promise<PreparedModule> =>
  prepareModule(fixture(name), { maxMemoryBytes });
const wasiJob = (module: PreparedModule, stdin: Uint8Array = new Uint8Array(0)) => ({
  module,
  stdin,
  maxOutputBytes: 8 * MiB,
});
const list = enc(JSON.stringify(configMapList(3)));

describe('Node WASM worker pool', () => {
  const executor = createNodeWasmExecutor({ maxWorkers: 2 });
  afterAll(() => executor.close());

  it('runs WASI modules in a warm worker, reused across calls', async () => {
    const echo = await prep('echo');
    for (let i = 0; i < 3; i++) {
      const out = await executor.runWasi(wasiJob(echo, list), { timeoutMs: 10_000 });
      expect(out.exitCode).toBe(0);
      expect(dec(out.stdout)).toBe(dec(list));
    }
    expect(executor.pool?.spawned).toBe(1);
  });

  it('terminates a module that loops forever at the deadline, then keeps serving', async () => {
    const spin = await prep('spin');
    const before = executor.pool!.spawned;
    const out = await executor.runWasi(wasiJob(spin), { timeoutMs: 150 });
    expect(out.failure).toEqual({ kind: 'timeout', message: 'function timed out after 150 ms' });
    // What the guest wrote to stderr before it hung is kept.
    expect(dec(out.stderr)).toBe('spin: spinning\n');
    const again = await executor.runWasi(wasiJob(await prep('echo'), list), { timeoutMs: 10_000 });
    expect(again.exitCode).toBe(0);
    expect(executor.pool!.spawned).toBe(before + 1);
  });

  it('runs calls in parallel up to maxWorkers while one is stuck', async () => {
    const spin = await prep('spin');
    const echo = await prep('echo');
    const stuck = executor.runWasi(wasiJob(spin), { timeoutMs: 300 });
    const fine = await executor.runWasi(wasiJob(echo, list), { timeoutMs: 10_000 });
    expect(fine.exitCode).toBe(0);
    expect((await stuck).failure?.kind).toBe('timeout');
  });

  it('stops a module when the caller aborts', async () => {
    const ac = new AbortController();
    const pending = executor.runWasi(wasiJob(await prep('spin')), { timeoutMs: 10_000, signal: ac.signal });
    setTimeout(() => ac.abort(), 50);
    expect((await pending).failure).toEqual({ kind: 'cancelled', message: 'function cancelled' });
  });

  it('passes output and memory caps through', async () => {
    const flood = await executor.runWasi(wasiJob(await prep('flood')), { timeoutMs: 10_000 });
    expect(flood.failure?.kind).toBe('output');
    const hog = await executor.runWasi(wasiJob(await prep('hog', 16 * MiB)), { timeoutMs: 10_000 });
    expect(hog.exitCode).toBe(3);
    expect(hog.failure?.kind).toBe('memory');
  });

  it('keeps one warm Go js program per module and restarts it after a runaway call', async () => {
    const go = await prep('gojs-setns-go123', 256 * MiB);
    const input = (data: Record<string, string>) =>
      JSON.stringify(
        configMapList(1, { functionConfig: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fc' }, data } }),
      );
    const job = (data: Record<string, string>) => ({ module: go, input: input(data), maxOutputBytes: MiB });
    const spawned = executor.pool!.spawned;
    expect((await executor.callGoJs(job({ namespace: 'a' }), { timeoutMs: 10_000 })).ok).toBe(true);
    expect((await executor.callGoJs(job({ namespace: 'b' }), { timeoutMs: 10_000 })).ok).toBe(true);
    expect(executor.pool!.spawned).toBe(spawned + 1);
    const spin = await executor.callGoJs(job({ spin: 'true', print: 'about to spin' }), { timeoutMs: 300 });
    expect(spin.failure).toEqual({ kind: 'timeout', message: 'function timed out after 300 ms' });
    expect(spin.stderr).toBe('about to spin\n');
    const after = await executor.callGoJs(job({ namespace: 'c' }), { timeoutMs: 10_000 });
    expect(JSON.parse(after.output).items[0].metadata.namespace).toBe('c');
    expect(executor.pool!.spawned).toBe(spawned + 2);
  });
});

describe('Node WASM worker hardening', () => {
  it("gives a Go js/wasm program no way to the worker's real global object", async () => {
    const executor = createNodeWasmExecutor();
    const go = await prep('gojs-setns-go123', 256 * MiB);
    const input = JSON.stringify(
      configMapList(1, {
        functionConfig: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fc' }, data: { escape: 'true' } },
      }),
    );
    const out = await executor.callGoJs({ module: go, input, maxOutputBytes: MiB }, { timeoutMs: 10_000 });
    expect(out.ok).toBe(true);
    const messages = JSON.parse(out.output).results.map((r: { message: string }) => r.message);
    expect(messages[1]).toBe('blocked: JavaScript error: code generation is disabled in the WASM worker');
    await executor.close();
  });
});

describe('Node WASM worker pool without reuse', () => {
  it('starts a fresh worker for every call', async () => {
    const executor = createNodeWasmExecutor({ reuse: false });
    const echo = await prep('echo');
    for (let i = 0; i < 2; i++)
      expect((await executor.runWasi(wasiJob(echo, list), { timeoutMs: 10_000 })).exitCode).toBe(0);
    expect(executor.pool?.spawned).toBe(2);
    expect(executor.pool?.size).toEqual({ idle: 0, busy: 0, goJs: 0 });
    await executor.close();
  });
});

describe('Node WASM worker pool prewarm', () => {
  it('starts a worker ahead of the first call and uses it', async () => {
    const executor = createNodeWasmExecutor({ maxWorkers: 1 });
    executor.prewarm?.();
    for (let i = 0; i < 500 && executor.pool?.size.idle !== 1; i++) await new Promise((r) => setTimeout(r, 10));
    expect(executor.pool?.size).toEqual({ idle: 1, busy: 0, goJs: 0 });
    expect((await executor.runWasi(wasiJob(await prep('echo'), list), { timeoutMs: 10_000 })).exitCode).toBe(0);
    expect(executor.pool?.spawned).toBe(1);
    await executor.close();
  });
});

describe('Node WASM worker pool recycling', () => {
  it('retires a worker whose guest grew its memory past recycleAboveBytes', async () => {
    const executor = createNodeWasmExecutor({ maxWorkers: 1, recycleAboveBytes: 8 * MiB });
    const echo = await prep('echo');
    await executor.runWasi(wasiJob(echo, list), { timeoutMs: 10_000 });
    expect(executor.pool?.size.idle).toBe(1);
    const hog = await executor.runWasi(wasiJob(await prep('hog', 16 * MiB)), { timeoutMs: 10_000 });
    expect(hog.exitCode).toBe(3);
    expect(executor.pool?.size.idle).toBe(0);
    expect((await executor.runWasi(wasiJob(echo, list), { timeoutMs: 10_000 })).exitCode).toBe(0);
    expect(executor.pool?.spawned).toBe(2);
    await executor.close();
  });

  it('keeps at most maxGoWorkers warm Go programs', async () => {
    const executor = createNodeWasmExecutor({ maxGoWorkers: 1 });
    const input = JSON.stringify(configMapList(1));
    for (const name of ['gojs-setns-go119', 'gojs-setns-go123', 'gojs-setns-go119']) {
      const out = await executor.callGoJs(
        { module: await prep(name, 256 * MiB), input, maxOutputBytes: MiB },
        { timeoutMs: 10_000 },
      );
      expect(out.ok).toBe(true);
      expect(executor.pool?.size.goJs).toBe(1);
    }
    expect(executor.pool?.spawned).toBe(3);
    await executor.close();
  });
});

describe('Node WASM worker pool when a worker dies', () => {
  it('fails the call with a worker error and replaces the worker', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'krmfn-dying-worker-'));
    const script = join(dir, 'dies.mjs');
    writeFileSync(
      script,
      "import { parentPort } from 'node:worker_threads';\nparentPort.on('message', () => process.exit(3));\n",
    );
    const pool = new WorkerPool({ spawn: () => nodeWorkerLike(pathToFileURL(script)), maxWorkers: 1 });
    const out = await pool.runWasi(wasiJob(await prep('echo'), list), { timeoutMs: 10_000 });
    expect(out.failure).toEqual({ kind: 'worker', message: 'WASM worker failed: worker exited with code 3' });
    await pool.runWasi(wasiJob(await prep('echo'), list), { timeoutMs: 10_000 });
    expect(pool.spawned).toBe(2);
    await pool.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
