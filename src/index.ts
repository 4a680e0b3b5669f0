/**
 * krmfn's composition root (browser-safe). `createEngine` (src/create-engine.ts) wires the default runtime chain —
 * the built-in catalog first, then any runtimes the host adds (Starlark, WASM, exec from
 * krmfn/node, remote) — and returns `render` / `eval` bound to it.
 *
 * Stable API for hosts (CLI, `krmfn serve`, browsers):
 *   createEngine({ runtimes?, extraRuntimes?, runtimeOrder?, onRuntime?, limits? }) → Engine
 *   engine.render({ fs, root, output?, resultsDir?, allowExec?, onEvent?, runtimeOrder?, ... }) → Promise<RunOutcome>
 *   engine.eval({ fs, source, function, args?, fnConfigPath?, match?, exclude?, runtimeOrder?, ... }) → Promise<RunOutcome>
 * `runtimeOrder` chooses the chain by runtime name, in order (src/engine/chain.ts selectRuntimes),
 * for the engine or for one call.
 */
import { createStarlarkRuntime } from './runtimes/starlark.ts';

export {
  createEngine,
  createBuiltinRuntime,
  createFunctionRuntime,
  defaultRuntimes,
  type BuiltinRuntimeOptions,
  type DefaultRuntimeOptions,
  type Engine,
  type EngineOptions,
} from './create-engine.ts';
export {
  render,
  evaluate,
  displayName,
  createRuntimeChain,
  selectRuntimes,
  toBytesRunner,
  runFunction,
  runWithDeadline,
  FunctionCallError,
  isFunctionCallError,
  errorStyle,
  formatEvent,
  formatFailure,
  formatGoDuration,
  formatResultLine,
  parseKrmignore,
  splitCommandLine,
} from './engine/index.ts';
export type { TextOptions, RuntimeChainOptions, RuntimeChoice } from './engine/index.ts';
export type {
  EngineEvent,
  EventSink,
  EngineFailure,
  EngineHost,
  ErrorStyle,
  FileChange,
  OutputMode,
  RenderOptions,
  RunOutcome,
  EvalOptions,
} from './engine/index.ts';
export { MemoryFs } from './core/memory-fs.ts';
export { KPT_VERSIONS, DEFAULT_KPT_VERSION, parseKptVersion, type KptVersion } from './core/kpt-version.ts';
export type { PackageFs, DirEntry } from './core/fs.ts';
export { KubeObject, ANNOTATIONS, EDITS, isKubeObject } from './core/kube-object.ts';
export { KrmfnError, NotFoundError, LimitExceededError, isKrmfnError, isNotFoundError } from './core/errors.ts';
export type { ErrorCode, ErrorData } from './core/errors.ts';
export type {
  FunctionRuntime,
  FunctionRunner,
  BytesRunner,
  ObjectsRunner,
  PipelineFunction,
  Selector,
  ResourceList,
  ResolveContext,
  RunContext,
} from './core/function.ts';
export type { Result, FunctionResult, FunctionResultList, Severity } from './core/result.ts';
export { DEFAULT_LIMITS, withLimits, type Limits } from './core/limits.ts';
export { decodeKptfile, resolveImageName, isValidImageReference, type Kptfile } from './core/kptfile.ts';
export { serializeResourceList, parseFunctionOutput, parseResourceListInput } from './core/resource-list.ts';
export { emitResultsFile } from './core/results-file.ts';
export { parseYamlFile, emitYamlFile, emitYamlDocument } from './core/yaml/index.ts';
export { createStarlarkRuntime };
export type { OpenApiLoader, OpenApiSchemaId } from './runtimes/starlark/open-api.ts';
export { builtinVersions, catalogReleases, type CatalogRelease } from './core/catalog-versions.ts';
export {
  createWasmRuntime,
  DEFAULT_WASM_MEMORY_BYTES,
  type WasmRuntime,
  type WasmRuntimeOptions,
  type WasmLoader,
  type WasmImageOptions,
  type WasmImageReport,
} from './runtimes/wasm.ts';
export {
  OciClient,
  OciError,
  isOciError,
  MemoryBlobStore,
  parseReference,
  formatReference,
  pushWasmImage,
  WASM_PLATFORM,
  type BlobStore,
  type OciClientOptions,
  type OciReference,
  type PulledImage,
  type PullOptions,
  type PullPolicy,
} from './core/oci/index.ts';
export {
  createRemoteRuntime,
  parseRemoteConfig,
  type RemoteEndpoint,
  type RemoteRuntimeOptions,
} from './runtimes/remote.ts';
export { unifiedDiff, diffLines } from './core/diff.ts';
export { readTar, writeTar, type TarEntry } from './core/tar.ts';
