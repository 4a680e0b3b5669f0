/**
 * krmfn's composition root (browser-safe). `createEngine` wires the default runtime chain —
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
import type { FunctionRuntime } from './core/function.ts';
import type { Limits } from './core/limits.ts';
import { createCatalogRuntime } from './runtimes/builtin.ts';
import { createStarlarkRuntime } from './runtimes/starlark.ts';
import { BUILTINS } from '../builtins/index.ts';
import type { KrmFunction } from '../sdk/define.ts';
import type { BuiltinDescriptor, FindBuiltinOptions } from '../sdk/registry.ts';
import { builtinCatalog, functionCatalog } from '../sdk/runner.ts';
import { builtinTagLister } from './runtimes/builtin-tags.ts';
import type { KptVersion } from './core/kpt-version.ts';
import { createRuntimeChain, selectRuntimes, type RuntimeChoice } from './engine/chain.ts';
import { evaluate, type EvalOptions } from './engine/eval.ts';
import { render } from './engine/render.ts';
import type { RenderOptions, RunOutcome } from './engine/types.ts';

export interface EngineOptions {
  /** Replaces the default chain entirely. */
  runtimes?: readonly FunctionRuntime[];
  /** Appended after the default runtimes (e.g. exec from krmfn/node). */
  extraRuntimes?: readonly FunctionRuntime[];
  /** Defaults for every call (overridden per call by the options' own `limits`). */
  limits?: Partial<Limits>;
  /** The kpt release to behave as unless a call says otherwise (default DEFAULT_KPT_VERSION). */
  kptVersion?: KptVersion;
  /**
   * Which of the runtimes make the chain, by name, in this order (e.g. `['builtin', 'wasm']`);
   * an unknown or repeated name throws a `usage` KrmfnError. Default: all, in the order given.
   */
  runtimeOrder?: readonly string[];
  /** Hears which runtime took each function call (verbose reports). */
  onRuntime?: (choice: RuntimeChoice) => void;
}

/** Per-call choice of the chain (see `EngineOptions.runtimeOrder`); `runtime` wins over it. */
interface CallRuntime {
  runtime?: FunctionRuntime;
  runtimeOrder?: readonly string[];
}

export interface Engine {
  readonly runtime: FunctionRuntime;
  render(opts: Omit<RenderOptions, 'runtime'> & CallRuntime): Promise<RunOutcome>;
  eval(opts: Omit<EvalOptions, 'runtime'> & CallRuntime): Promise<RunOutcome>;
}

/** Options of the built-in runtime: `digestPolicy` (default `tag`) says what `name:tag@sha256:…` means. */
export type BuiltinRuntimeOptions = FindBuiltinOptions;

/**
 * The built-in catalog as a runtime (docs/catalog.md): `registry` (default: every built-in)
 * resolved as kpt spells catalog images; the function sees the resolved image as `ctx.image`.
 */
export function createBuiltinRuntime(
  registry: readonly BuiltinDescriptor[] = BUILTINS,
  options: BuiltinRuntimeOptions = {},
): FunctionRuntime {
  return createCatalogRuntime('builtin', builtinCatalog(registry, options));
}

/**
 * A runtime for SDK functions of the host's own, keyed by exact image string (for example
 * `example.com/fns/set-owner:v1`): they run in-process like built-ins, with no catalog lookup and
 * the same results and exit codes as the function's `krmfn build` executable.
 */
export function createFunctionRuntime(functions: Readonly<Record<string, KrmFunction>>): FunctionRuntime {
  return createCatalogRuntime('functions', functionCatalog(functions));
}

/**
 * The default runtimes, in chain order: the built-in catalog, then Starlark. WASM needs a module
 * loader and an executor from the host (krmfn/node: createNodeWasmRuntime), exec needs processes
 * (krmfn/node: createExecRuntime): hosts add them with `extraRuntimes`.
 */
export function defaultRuntimes(options: BuiltinRuntimeOptions = {}): FunctionRuntime[] {
  return [createBuiltinRuntime(BUILTINS, options), createStarlarkRuntime()];
}

export function createEngine(options: EngineOptions = {}): Engine {
  const all = [...(options.runtimes ?? defaultRuntimes()), ...(options.extraRuntimes ?? [])];
  const chain = (order: readonly string[] | undefined): FunctionRuntime =>
    createRuntimeChain(order ? selectRuntimes(all, order) : all, {
      ...(options.onRuntime ? { onResolved: options.onRuntime } : {}),
    });
  const runtime = chain(options.runtimeOrder);
  const callRuntime = ({ runtime: given, runtimeOrder }: CallRuntime): FunctionRuntime =>
    given ?? (runtimeOrder ? chain(runtimeOrder) : runtime);
  const limits = (l: Partial<Limits> | undefined): Partial<Limits> => ({ ...(options.limits ?? {}), ...(l ?? {}) });
  return {
    runtime,
    render: ({ runtimeOrder, ...opts }) =>
      render({
        listTags: builtinTagLister(BUILTINS),
        ...(options.kptVersion ? { kptVersion: options.kptVersion } : {}),
        ...opts,
        runtime: callRuntime({ ...opts, ...(runtimeOrder ? { runtimeOrder } : {}) }),
        limits: limits(opts.limits),
      }),
    eval: ({ runtimeOrder, ...opts }) =>
      evaluate({
        listTags: builtinTagLister(BUILTINS),
        ...(options.kptVersion ? { kptVersion: options.kptVersion } : {}),
        ...opts,
        runtime: callRuntime({ ...opts, ...(runtimeOrder ? { runtimeOrder } : {}) }),
        limits: limits(opts.limits),
      }),
  };
}

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
export { KubeObject, ANNOTATIONS, isKubeObject } from './core/kube-object.ts';
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
