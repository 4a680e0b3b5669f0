/**
 * The `FunctionService` of `krmfn serve`: the configured engine service (config.ts) running in a
 * pool of worker processes (worker-pool.ts). The function list is answered on the main thread.
 */
import { locateWorkerScript, workerScriptUrl } from '../wasm/worker-script.ts';
import type { ServeConfig } from './config.ts';
import type { FunctionInfo, FunctionService, RenderResponse, RunResponse } from './service.ts';
import { ServeWorkerPool } from './worker-pool.ts';

export interface WorkerServiceOptions {
  config: ServeConfig;
  functions: FunctionInfo[];
  /** Workers (default 2). */
  workers?: number;
  /** Heap of each worker in MiB (default 1024). */
  maxHeapMb?: number;
}

export interface WorkerService extends FunctionService {
  readonly pool: ServeWorkerPool;
  close(): Promise<void>;
}

let script: Promise<URL> | undefined;

/** dist/serve-worker.js beside the bundle, or worker-entry.ts bundled once per process. */
export function serveWorkerScript(): Promise<URL> {
  script ??= locateWorkerScript(
    new URL('./serve-worker.js', import.meta.url),
    new URL('./worker-entry.ts', import.meta.url),
  );
  return script;
}

export function createWorkerService(opts: WorkerServiceOptions): WorkerService {
  // A bundled worker cannot find the WASM worker's script beside itself: hand it the location.
  const setup = opts.config.allowWasm
    ? workerScriptUrl().then((url) => ({
        config: { ...opts.config, wasmWorkerScript: url.href },
        functions: opts.functions,
      }))
    : { config: opts.config, functions: opts.functions };
  const pool = new ServeWorkerPool({
    script: serveWorkerScript(),
    setup,
    size: opts.workers ?? 2,
    ...(opts.maxHeapMb !== undefined ? { maxHeapMb: opts.maxHeapMb } : {}),
  });
  return {
    pool,
    functions: () => opts.functions,
    async run({ signal, ...req }) {
      return (await pool.call({ op: 'run', req }, signal)) as RunResponse;
    },
    async render({ signal, ...req }) {
      return (await pool.call({ op: 'render', req }, signal)) as RenderResponse;
    },
    close: () => pool.close(),
  };
}
