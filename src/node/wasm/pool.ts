/**
 * The Node edge of WASM isolation: a `WorkerPool` (wasm/worker/pool.ts) over `worker_threads`.
 * Deadline → `worker.terminate()`; idle workers are unref'd so they never keep the process alive.
 * The worker script is located lazily, so creating an executor is synchronous and cheap.
 */
import { Worker } from 'node:worker_threads';
import type { ProcessOutcome } from '../../../wasm/gojs/call.ts';
import type { WasiOutcome } from '../../../wasm/run-wasi.ts';
import { WorkerPool, type WorkerLike } from '../../../wasm/worker/pool.ts';
import type { CallOptions, GoJsJob, WasiJob, WasmExecutor } from '../../../wasm/worker/protocol.ts';
import { workerScriptUrl } from './worker-script.ts';

export interface NodeWasmExecutorOptions {
  /** WASI workers running at once (default 2). Go js modules get one worker each on top. */
  maxWorkers?: number;
  /** Keep workers warm between calls (default true). */
  reuse?: boolean;
  /** See WorkerPoolOptions. */
  recycleAboveBytes?: number;
  maxGoWorkers?: number;
  /** The worker script (default: dist/wasm-worker.js beside this module, or bundled from sources). */
  workerScript?: URL;
}

export function nodeWorkerLike(script: URL): WorkerLike {
  const w = new Worker(script);
  w.unref();
  return {
    postMessage: (m, t) => w.postMessage(m, t as never),
    listen(onMessage, onError) {
      w.on('message', onMessage);
      w.on('error', onError);
      w.on('exit', (code) => onError(new Error(`worker exited with code ${code}`)));
    },
    terminate: () => void w.terminate(),
    ref: () => w.ref(),
    unref: () => w.unref(),
  };
}

export interface NodeWasmExecutor extends WasmExecutor {
  /** The pool once started (undefined before the first call). */
  readonly pool: WorkerPool | undefined;
}

export function createNodeWasmExecutor(opts: NodeWasmExecutorOptions = {}): NodeWasmExecutor {
  let pool: WorkerPool | undefined;
  let starting: Promise<WorkerPool> | undefined;
  const get = (): Promise<WorkerPool> => {
    starting ??= (opts.workerScript ? Promise.resolve(opts.workerScript) : workerScriptUrl()).then((script) => {
      pool = new WorkerPool({
        spawn: () => nodeWorkerLike(script),
        ...(opts.maxWorkers !== undefined ? { maxWorkers: opts.maxWorkers } : {}),
        ...(opts.reuse !== undefined ? { reuse: opts.reuse } : {}),
        ...(opts.recycleAboveBytes !== undefined ? { recycleAboveBytes: opts.recycleAboveBytes } : {}),
        ...(opts.maxGoWorkers !== undefined ? { maxGoWorkers: opts.maxGoWorkers } : {}),
      });
      return pool;
    });
    return starting;
  };
  return {
    get pool() {
      return pool;
    },
    async runWasi(job: WasiJob, call: CallOptions): Promise<WasiOutcome> {
      return (await get()).runWasi(job, call);
    },
    async callGoJs(job: GoJsJob, call: CallOptions): Promise<ProcessOutcome> {
      return (await get()).callGoJs(job, call);
    },
    prewarm(): void {
      void get().then(
        (p) => p.prewarm(),
        () => undefined,
      );
    },
    async close(): Promise<void> {
      if (starting) await (await starting).close();
    },
  };
}
