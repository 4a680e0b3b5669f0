/**
 * The engine factory of krmfn's composition root (src/index.ts re-exports it; the CLI imports it
 * directly, so that a command does not evaluate every module the library's index re-exports).
 * `createEngine` wires the default runtime chain — the built-in catalog first, then Starlark, then
 * any runtimes the host adds (WASM, exec from krmfn/node, remote) — and returns `render` / `eval`
 * bound to it. The Starlark interpreter's modules load only when a function may be a Starlark one
 * (src/engine/lazy-runtime.ts).
 */
import type { FunctionRuntime } from './core/function.ts';
import type { Limits } from './core/limits.ts';
import { createCatalogRuntime } from './runtimes/builtin.ts';
import { createLazyRuntime } from './engine/lazy-runtime.ts';
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
import type { OpenApiLoader } from './runtimes/starlark/open-api.ts';

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

/** Options of the default runtimes: the built-in runtime's, plus `openApi` for the Starlark function's `ctx.open_api`. */
export interface DefaultRuntimeOptions extends BuiltinRuntimeOptions {
  /** Supplies `ctx.open_api` (src/runtimes/starlark/open-api.ts); default none (`ctx.open_api` is empty). */
  openApi?: OpenApiLoader;
}

/**
 * The default runtimes, in chain order: the built-in catalog, then Starlark. WASM needs a module
 * loader and an executor from the host (krmfn/node: createNodeWasmRuntime), exec needs processes
 * (krmfn/node: createExecRuntime): hosts add them with `extraRuntimes`.
 */
export function defaultRuntimes({ openApi, ...options }: DefaultRuntimeOptions = {}): FunctionRuntime[] {
  return [createBuiltinRuntime(BUILTINS, options), lazyStarlarkRuntime(openApi)];
}

/**
 * The Starlark runtime, its interpreter loaded at the first image that may name the catalog's
 * starlark function: every reference `starlarkImageVersion` (src/runtimes/starlark.ts) accepts
 * contains `starlark`; any other gets the NotFoundError the loaded runtime throws for it.
 */
function lazyStarlarkRuntime(openApi: OpenApiLoader | undefined): FunctionRuntime {
  const load = async (): Promise<FunctionRuntime> =>
    (await import('./runtimes/starlark.ts')).createStarlarkRuntime(openApi ? { openApi } : {});
  return createLazyRuntime('starlark', load, {
    mayTake: (spec) => spec.image !== undefined && /starlark/i.test(spec.image),
  });
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
