/**
 * The seams every runtime plugs into (docs/architecture.md, "The seams").
 *
 * - A `FunctionRuntime` turns a `PipelineFunction` into a `FunctionRunner`, or throws `NotFoundError`
 *   when it does not handle that function; the engine's chain then tries the next runtime. Any
 *   other error stops the chain.
 * - A `FunctionRunner` runs one call. Two shapes exist:
 *   - `bytes` runners (exec, container, WASM, remote) take the serialized ResourceList and return
 *     stdout; the engine serializes, parses and restores comments and key order around them;
 *   - `objects` runners (built-ins, Starlark, SDK functions in-process) work on the live node tree
 *     and skip serialization entirely; the engine then applies the same normalisation a kpt round
 *     trip would.
 *   `toBytesRunner` (engine) adapts an objects runner for hosts that only move bytes.
 */
import type { Limits } from './limits.ts';
import type { Result } from './result.ts';
import type { KubeObject } from './kube-object.ts';
import type { PackageFs } from './fs.ts';

export interface Selector {
  apiVersion?: string;
  kind?: string;
  name?: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/** One function of a pipeline, as written in a Kptfile (or built from eval flags). */
export interface PipelineFunction {
  /** Image as written (render) or after short-name resolution (eval). */
  image?: string;
  /** Whole exec command line, as written. */
  exec?: string;
  configPath?: string;
  configMap?: Record<string, string>;
  name?: string;
  /** kpt beta.67+: a semantic-version constraint resolved to a concrete tag before the run. */
  tag?: string;
  selectors?: Selector[];
  exclude?: Selector[];
  /**
   * `kpt fn eval --env` values as given (`KEY=VAL`, or a bare `KEY` exporting the host's value),
   * for a function kpt runs as a container: what it sees as its environment, and nothing else.
   */
  env?: readonly string[];
}

/** Parsed image reference: `registry/path/name:tag@digest`. */
export interface ImageRef {
  /** The whole reference as resolved. */
  full: string;
  /** Everything before the last path segment, without trailing slash ('' when none). */
  repository: string;
  /** Last path segment without tag or digest, e.g. `set-namespace`. */
  name: string;
  tag: string;
  digest: string;
}

/** The ResourceList a function receives and returns. */
export interface ResourceList {
  items: KubeObject[];
  functionConfig?: KubeObject;
  results: Result[];
}

/**
 * What the host grants every call of one run, declared once: the runtime-facing part of the
 * engine's call context (`CallEnv`, src/engine/call-env.ts, created once per render or eval and
 * passed down unchanged). `ResolveContext` and `RunContext` below are views of it.
 */
export interface CallGrants {
  /** Process working directory: kpt resolves relative exec paths against it, not the package. */
  cwd: string;
  allowExec: boolean;
  allowWasm: boolean;
  allowNetwork: boolean;
  /** The package filesystem (local WASM modules and layouts are read through it). */
  fs?: PackageFs;
  limits: Limits;
  /** Injected clock (epoch ms). */
  now: () => number;
  /** Environment visible to the function (empty unless the host grants one). */
  env: Readonly<Record<string, string>>;
}

/** Host capabilities and policy available when a runtime resolves a function. */
export interface ResolveContext extends Pick<
  CallGrants,
  'cwd' | 'allowExec' | 'allowWasm' | 'allowNetwork' | 'fs' | 'limits'
> {
  /** The function as the engine will display it (resolved image, or exec string). */
  displayName: string;
  /** Absolute path of the package that owns the pipeline ('' for eval from stdin). */
  packagePath: string;
}

/** What a runner sees of one attempt: the grants it needs plus this call's deadline and role. */
export interface RunContext extends Pick<CallGrants, 'limits' | 'now' | 'env'> {
  /** Aborted at the deadline or when the user cancels. Runners must stop promptly. */
  signal: AbortSignal;
  /** Absolute epoch milliseconds after which the call has failed with a timeout. */
  deadline: number;
  /** Whether the function runs as a validator: object runners must not change items. */
  validator: boolean;
}

export interface BytesOutcome {
  stdout: Uint8Array;
  stderr: string;
  exitCode: number;
}

export interface ObjectsOutcome {
  /** The output list (may be the input list, edited in place). */
  output: ResourceList;
  stderr: string;
  exitCode: number;
}

export interface BytesRunner {
  readonly kind: 'bytes';
  run(stdin: Uint8Array, ctx: RunContext): Promise<BytesOutcome>;
}

export interface ObjectsRunner {
  readonly kind: 'objects';
  run(input: ResourceList, ctx: RunContext): Promise<ObjectsOutcome>;
}

export type FunctionRunner = BytesRunner | ObjectsRunner;

/**
 * In-process functions by image, as a host hands them to a runtime (src/runtimes/builtin.ts):
 * the built-in catalog or a host's own SDK functions. `runner` must not run the function.
 */
export interface RunnerCatalog {
  /** The runner `image` names, or undefined when the catalog does not hold it. */
  runner(image: string): ObjectsRunner | undefined;
  /** Why `image` is not in the catalog (nearest version or name), for the not-found error. */
  explain(image: string): string | undefined;
}

export interface FunctionRuntime {
  /** Short name used in messages and `--runtime` choices ("builtin", "starlark", "wasm", "exec"...). */
  readonly name: string;
  /** A runner for `spec`, or throws `NotFoundError`. Must not run the function. */
  resolve(spec: PipelineFunction, ctx: ResolveContext): Promise<FunctionRunner>;
}
