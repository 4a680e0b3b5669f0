/** krmfn/node: the Node edge — filesystem adapter and the exec runtime. */
export { NodeFs, toEnginePath, toOsPath } from './fs.ts';
export { createExecRuntime, type ExecRuntimeOptions } from './exec-runtime.ts';
export {
  formatEvent,
  formatFailure,
  formatGoDuration,
  formatResultLine,
  type TextOptions,
} from '../engine/text-output.ts';
export {
  createNodeWasmRuntime,
  createNodeWasmExecutor,
  createNodeWasmLoader,
  type NodeWasmRuntimeOptions,
  type NodeWasmExecutorOptions,
} from './wasm/index.ts';
export { createNodeOciClient, DiskBlobStore, cacheRoot, dockerCredentials, type NodeOciClient } from './oci/index.ts';
/** `ctx.open_api` for the Starlark function: `createEngine({ runtimes: defaultRuntimes({ openApi: nodeOpenApiLoader }) })`. */
export { nodeOpenApiLoader } from './open-api.ts';
