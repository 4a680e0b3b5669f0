/**
 * How the value layer fails: every dynamic Starlark failure ("unknown binary op: ...",
 * "pop: empty list", ...) is a `StarlarkEvalError` (src/starlark/errors.ts) carrying the bare
 * starlark-go message; the evaluator attaches the call stack.
 */
import { StarlarkEvalError, StarlarkLimitError, isStarlarkEvalError } from '../errors.ts';

export { StarlarkEvalError as EvalError };

/** True for dynamic Starlark errors (structural check, not `instanceof`). */
export const isEvalError = isStarlarkEvalError;

/** Throws a `StarlarkEvalError` with `message`. Typed `never` so callers can `return fail(...)`. */
export function fail(message: string): never {
  throw new StarlarkEvalError(message);
}

/** Throws `<name>: <message>`, the prefix every builtin puts on its own errors. */
export function failIn(name: string, message: string): never {
  throw new StarlarkEvalError(`${name}: ${message}`);
}

/**
 * Runs `f`, re-throwing value-layer errors with `<name>: ` in front (builtins wrapping ops).
 * Errors that already carry a backtrace (from Starlark code called back) and limit errors pass
 * through unchanged.
 */
export function prefixed<T>(name: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    return rethrowIn(name, e);
  }
}

/** The catch half of `prefixed`, for hot paths that inline their own try/catch (no closure). */
export function rethrowIn(name: string, e: unknown): never {
  if (isStarlarkEvalError(e) && !e.traced && !(e instanceof StarlarkLimitError) && e.code === 'starlark-runtime') {
    throw new StarlarkEvalError(`${name}: ${e.message}`);
  }
  throw e;
}

/**
 * Throws starlark-go's NoSuchAttrError: a host type refusing a field name in `setField`; the
 * assignment adds a "did you mean" hint from the type's attribute names
 * (google/starlark-go starlark/eval.go setField).
 */
export function failNoSuchAttr(message: string): never {
  throw Object.assign(new StarlarkEvalError(message), { noSuchAttr: true });
}

/** True for an error thrown by `failNoSuchAttr`. */
export function isNoSuchAttrError(e: unknown): e is StarlarkEvalError {
  return isStarlarkEvalError(e) && (e as { noSuchAttr?: unknown }).noSuchAttr === true;
}
