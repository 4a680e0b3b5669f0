/**
 * The error the value layer throws for every dynamic Starlark failure ("unknown binary op: ...",
 * "pop: empty list", ...). The message is the bare starlark-go text, without position: the
 * evaluator's `Thread.call` / statement loop catches it and attaches the call stack.
 *
 * `code` is a stable machine-readable tag; hosts test it instead of `instanceof` (values and errors
 * may cross bundle boundaries).
 */
export class EvalError extends Error {
  readonly code: string = 'STARLARK_EVAL';
  constructor(message: string) {
    super(message);
    this.name = 'EvalError';
  }
}

/** True for errors thrown by the value layer (structural check, not `instanceof`). */
export function isEvalError(e: unknown): e is EvalError {
  return typeof e === 'object' && e !== null && (e as { code?: unknown }).code === 'STARLARK_EVAL';
}

/** Throws an `EvalError` with `message`. Typed `never` so callers can `return fail(...)`. */
export function fail(message: string): never {
  throw new EvalError(message);
}

/** Throws `<name>: <message>`, the prefix every builtin puts on its own errors. */
export function failIn(name: string, message: string): never {
  throw new EvalError(`${name}: ${message}`);
}

/** Runs `f`, re-throwing value-layer errors with `<name>: ` in front (builtins wrapping ops). */
export function prefixed<T>(name: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (isEvalError(e)) throw new EvalError(`${name}: ${e.message}`);
    throw e;
  }
}
