/**
 * Runs a `KrmFunction` over a ResourceList of live KubeObjects: the one execution path shared by
 * the engine's built-in runtime (objects in, objects out, no serialization) and by
 * `processResourceList` (which adds parsing and printing around it).
 *
 * Contract:
 * - Items are edited in place; `list.items` is replaced by the function's final item list and the
 *   new results are appended to `list.results` (results already on the list are kept).
 * - While the function runs, items are 'guarded' (mutators, generators) or 'read-only'
 *   (validators, or when `options.validator`), and the functionConfig is read-only; access is
 *   restored to 'full' afterwards, whatever happened.
 * - Exit code: `ctx.exitCode` if the function set it; else 1 when any error result exists (a config
 *   error included), else 0. A thrown `ResultsError` appends its results. Any other exception is
 *   an error result plus its stack in the log, with exit code `options.uncaughtExitCode` (2 by
 *   default; the built-in runtime uses 1 with only the message, as a catalog container does).
 */
import type { ResourceList } from '../src/core/function.ts';
import { quoteYaml11Strings, type KubeObject } from '../src/core/kube-object.ts';
import type { Result } from '../src/core/result.ts';
import { bindConfig } from './config.ts';
import type { FnContext, ImageInfo, KrmFunction, SelectOptions } from './define.ts';
import { Resources } from './resources.ts';
import { isResultsError, makeResult, ResultBuilder } from './results.ts';
import { bySelector, type Predicate, type SelectorSpec } from './selectors.ts';

export interface ExecuteOptions {
  env?: Readonly<Record<string, string>>;
  now?: () => number;
  signal?: AbortSignal;
  image?: ImageInfo;
  /** Run as a validator whatever the function's kind (kpt's `validators:` list). */
  validator?: boolean;
  /** Exit code for an unexpected exception (default 2). */
  uncaughtExitCode?: number;
  /** Include the stack of an unexpected exception in the log (default true). */
  logStack?: boolean;
  /** Report an unexpected exception as an error result too (default true). */
  uncaughtResult?: boolean;
  /**
   * Double-quote new plain strings that YAML 1.1 readers (the API server) take for non-strings,
   * such as `yes`, `on`, `1:20` (docs/sdk.md, "Wire format"). Default true; catalog emulations turn it
   * off, because their Go node edits write such values plain.
   */
  quoteYaml11?: boolean;
}

export interface ExecuteOutcome {
  /** Results this call produced (also appended to `list.results`). */
  results: Result[];
  exitCode: number;
  /** stderr lines, in order. */
  log: string[];
}

const formatArg = (a: unknown): string => {
  if (typeof a === 'string') return a;
  if (a instanceof Error) return a.stack ?? a.message;
  try {
    return JSON.stringify(a);
  } catch {
    return String(a);
  }
};

export async function executeFunction(
  fn: KrmFunction,
  list: ResourceList,
  options: ExecuteOptions = {},
): Promise<ExecuteOutcome> {
  return executeFunctionMaybeSync(fn, list, options);
}

/**
 * `executeFunction` for hosts without an event loop turn to spare (the JS-global ABI): works only
 * for functions whose `run` is synchronous; throws a TypeError when `run` returns a Promise.
 */
export function executeFunctionSync(fn: KrmFunction, list: ResourceList, options: ExecuteOptions = {}): ExecuteOutcome {
  return executeFunctionMaybeSync(fn, list, options, true) as ExecuteOutcome;
}

/** A signal that never aborts; a stand-in where AbortController is missing (embedded JS engines). */
function neverAborted(): AbortSignal {
  if (typeof AbortController === 'function') return new AbortController().signal;
  const noop = (): void => {};
  return {
    aborted: false,
    reason: undefined,
    onabort: null,
    addEventListener: noop,
    removeEventListener: noop,
    throwIfAborted: noop,
    dispatchEvent: () => false,
  };
}

const isThenable = (v: unknown): v is PromiseLike<unknown> =>
  typeof v === 'object' && v !== null && typeof (v as { then?: unknown }).then === 'function';

/** The shared body: synchronous until `run` returns a Promise. */
function executeFunctionMaybeSync(
  fn: KrmFunction,
  list: ResourceList,
  options: ExecuteOptions,
  syncOnly = false,
): ExecuteOutcome | Promise<ExecuteOutcome> {
  const log: string[] = [];
  const results = new ResultBuilder();
  const asValidator = options.validator === true || fn.kind === 'validator';
  const objectAccess: KubeObject['access'] = asValidator ? 'read-only' : 'guarded';
  const touched = new Set<KubeObject>(list.items);
  const fc = list.functionConfig;
  const quote = options.quoteYaml11 ?? true;
  const prepare = (o: KubeObject, fromPlainData = false): void => {
    if (fromPlainData && quote) quoteYaml11Strings(o.root);
    o.access = objectAccess;
    o.quoteYaml11 = quote;
  };
  for (const o of list.items) prepare(o);
  if (fc) fc.access = 'read-only';
  const items = new Resources(
    list.items,
    asValidator ? 'read-only' : fn.kind === 'generator' ? 'append-only' : 'mutable',
    prepare,
  );
  let exitOverride: number | undefined;
  let uncaught = false;

  const release = (): void => {
    for (const o of [...touched, ...items.toArray()]) {
      o.access = 'full';
      o.quoteYaml11 = false;
    }
    if (fc) fc.access = 'full';
  };
  const finish = (): ExecuteOutcome => {
    release();
    const produced = results.all;
    list.items = items.toArray();
    list.results = [...list.results, ...produced];
    let exitCode: number;
    if (uncaught) exitCode = options.uncaughtExitCode ?? 2;
    else if (exitOverride !== undefined) exitCode = exitOverride;
    else exitCode = produced.some((r) => r.severity === 'error') ? 1 : 0;
    return { results: produced, exitCode, log };
  };
  const caught = (e: unknown): void => {
    if (isResultsError(e)) for (const r of e.results) results.add(r);
    else if (isConfigErrorLike(e)) results.add(configErrorResult(e, fc));
    else {
      uncaught = true;
      const msg = e instanceof Error ? e.message : String(e);
      if (options.uncaughtResult !== false) results.error(msg);
      if (options.logStack !== false) log.push(e instanceof Error && e.stack ? e.stack : msg);
      else log.push(msg);
    }
  };
  const returned = (r: unknown): void => {
    if (Array.isArray(r)) for (const x of r as Result[]) results.add(x);
  };

  try {
    let config: unknown = undefined;
    if (fn.config) {
      let bound: ReturnType<typeof bindConfig>;
      try {
        bound = bindConfig(fn.config, fc, options.image ? { image: options.image } : {});
      } catch (e) {
        if (isConfigErrorLike(e)) bound = { ok: false, results: [configErrorResult(e, fc)] };
        else throw e;
      }
      for (const r of bound.results) results.add(r);
      if (!bound.ok) return finish();
      config = bound.config;
    }
    const ctx: FnContext<unknown> = {
      items,
      config,
      functionConfig: fc,
      results,
      log: (...args) => {
        log.push(args.map(formatArg).join(' '));
      },
      env: Object.freeze({ ...(options.env ?? {}) }),
      now: options.now ?? (() => Date.now()),
      signal: options.signal ?? neverAborted(),
      image: options.image,
      exitCode: undefined,
      select: (sel: SelectorSpec | Predicate, opts?: SelectOptions) => {
        const pred = typeof sel === 'function' ? sel : bySelector(sel);
        const found = items.where(pred);
        if (found.length === 0 && opts?.failOnEmptyMatch) results.error('no resources matched the selector');
        return found;
      },
    };
    let out: unknown;
    try {
      out = fn.run(ctx);
    } catch (e) {
      caught(e);
      exitOverride = ctx.exitCode;
      return finish();
    }
    if (isThenable(out)) {
      if (syncOnly) {
        Promise.resolve(out).catch(() => {});
        release();
        throw new TypeError(`${fn.name}: run() returned a Promise; only synchronous functions can run synchronously`);
      }
      return Promise.resolve(out).then(
        (r) => {
          returned(r);
          exitOverride = ctx.exitCode;
          return finish();
        },
        (e: unknown) => {
          caught(e);
          exitOverride = ctx.exitCode;
          return finish();
        },
      );
    }
    returned(out);
    exitOverride = ctx.exitCode;
    return finish();
  } catch (e) {
    release();
    throw e;
  }
}

function isConfigErrorLike(e: unknown): e is Error & { field?: string } {
  return typeof e === 'object' && e !== null && (e as { isConfigError?: unknown }).isConfigError === true;
}

function configErrorResult(e: Error & { field?: string }, fc: KubeObject | undefined): Result {
  return makeResult('error', e.message, {
    ...(fc ? { object: fc } : {}),
    ...(e.field ? { field: { path: e.field } } : {}),
  });
}
