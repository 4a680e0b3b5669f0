/**
 * WASM functions at the Node edge: `createNodeWasmRuntime()` is the KRM runtime of
 * src/runtimes/wasm.ts with modules read from disk and run in `worker_threads` under hard
 * deadlines.
 */
import { createWasmRuntime, type WasmRuntime, type WasmRuntimeOptions } from '../../runtimes/wasm.ts';
import { createNodeWasmLoader } from './loader.ts';
import { createNodeWasmExecutor, type NodeWasmExecutorOptions } from './pool.ts';

export type NodeWasmRuntimeOptions = Partial<WasmRuntimeOptions> & NodeWasmExecutorOptions;

export function createNodeWasmRuntime(opts: NodeWasmRuntimeOptions = {}): WasmRuntime {
  const { maxWorkers, reuse, recycleAboveBytes, maxGoWorkers, workerScript, ...rest } = opts;
  const pool: NodeWasmExecutorOptions = {};
  if (maxWorkers !== undefined) pool.maxWorkers = maxWorkers;
  if (reuse !== undefined) pool.reuse = reuse;
  if (recycleAboveBytes !== undefined) pool.recycleAboveBytes = recycleAboveBytes;
  if (maxGoWorkers !== undefined) pool.maxGoWorkers = maxGoWorkers;
  if (workerScript !== undefined) pool.workerScript = workerScript;
  return createWasmRuntime({ loader: createNodeWasmLoader(), executor: createNodeWasmExecutor(pool), ...rest });
}

export { createNodeWasmExecutor, nodeWorkerLike, type NodeWasmExecutor, type NodeWasmExecutorOptions } from './pool.ts';
export { createNodeWasmLoader } from './loader.ts';
export { workerScriptUrl } from './worker-script.ts';
