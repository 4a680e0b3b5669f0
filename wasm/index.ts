/**
 * `krmfn/wasm`: a standalone, browser-safe WASI host over @bjorn3/browser_wasi_shim, plus an
 * adapter for kpt's alpha Go `js/wasm` ABI. Knows nothing about KRM; imports nothing else of krmfn.
 */
export { runWasi, nearCap, memoryFailure, type RunWasiOptions, type WasiOutcome, type WasiLimits } from './run-wasi.ts';
export { ModuleCache, prepareModule, sha256Hex, type PreparedModule, type PrepareOptions } from './module-cache.ts';
export { classifyModule, type ModuleAbi, type ImportedMemory } from './classify.ts';
export {
  capMemory,
  capModuleMemory,
  importedMemoryLimits,
  pagesForBytes,
  WASM_PAGE_BYTES,
  MAX_WASM_PAGES,
  type MemoryLimits,
  type CappedModule,
} from './memory-cap.ts';
export { CollectorFd, outputBudget, type OutputBudget } from './sink.ts';
export { preopenTree, type ReadOnlyTree } from './readonly-tree.ts';
export { traceImports, type TraceSink } from './strace.ts';
export { WasmHostError, isWasmHostError, failureFromThrown, type WasmFailure, type WasmFailureKind } from './errors.ts';
export { GoJsInstance, type GoJsOptions, type GoJsCallOutcome } from './gojs/instance.ts';
export { hardenRealm } from './gojs/harden.ts';
export { callProcessResourceList, looksLikeResourceList, type ProcessOutcome } from './gojs/call.ts';
export { WorkerPool, type WorkerLike, type WorkerPoolOptions } from './worker/pool.ts';
export { createWebWorkerPool, webWorkerLike, type WebWorkerPoolOptions } from './worker/web-pool.ts';
export { createInThreadExecutor } from './worker/in-thread.ts';
export { createJobHandler, type Reply } from './worker/handler.ts';
export type { WasmExecutor, WasiJob, GoJsJob, CallOptions, WorkerRequest, WorkerResponse } from './worker/protocol.ts';
export {
  loadOciModule,
  tarLayoutReader,
  wasmFromLayer,
  type CappedReader,
  type LayerReaders,
  type LayoutReader,
  type OciModule,
  type TarReader,
} from './oci/layout.ts';
