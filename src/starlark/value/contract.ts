/**
 * The contract between the Starlark evaluator (syntax/, resolve/, compile/, eval/) and the value
 * layer (value/, lib/). Both sides code against this file; change it only by agreement (additive
 * changes are fine: say so in your report).
 *
 * Representation (chosen for speed in V8):
 * - None:   the singleton `None` below.
 * - bool:   JS `true` / `false`.
 * - int:    a JS number holding a safe integer (|x| <= 2^53 - 1), or a JS `bigint` beyond that.
 *           Arithmetic on two numbers stays on the fast path; results outside the safe range are
 *           promoted to bigint, and bigints that fit are demoted back (so equal ints have one form).
 * - float:  an instance of `Float` (value layer), never a bare JS number.
 * - string: a JS string holding BYTES: every char code is 0..255 (a "binary string"), which gives
 *           starlark-go's byte semantics (len, indexing, slicing) for free. Source text and host
 *           strings are UTF-8-encoded into this form at the boundary (`fromHostString`), and decoded
 *           back for printing (`toHostString`). ASCII strings are identical in both forms.
 * - bytes, list, tuple, dict, set, range, function, builtin, struct/module: objects implementing
 *   `StarlarkObject` (value layer; user functions: evaluator).
 */
import type { StarlarkGoRelease } from '../release.ts';
import type { FrameInfo } from '../errors.ts';

/** The None singleton. */
export const None: NoneType = Object.freeze({ starlarkType: 'NoneType' as const });
export interface NoneType {
  readonly starlarkType: 'NoneType';
}

export type Value = NoneType | boolean | number | bigint | string | StarlarkObject;

/** Every non-primitive value. Optional capabilities are declared on the implementing classes. */
export interface StarlarkObject {
  /** The name `type(x)` returns: 'list', 'dict', 'function', 'builtin_function_or_method', ... */
  readonly starlarkType: string;
}

/** A positional/keyword argument pack. `kwargs` is null when there are none (the common case). */
export type Kwargs = [name: string, value: Value][] | null;

/** Functions, builtins, bound methods: anything `call` can invoke. */
export interface Callable extends StarlarkObject {
  readonly name: string;
  /** Invoke with evaluated arguments. Throws `EvalError`-family errors on failure. */
  callInternal(thread: Thread, args: Value[], kwargs: Kwargs): Value;
}

/** One frame of the call stack (declared with the errors that carry backtraces). */
export type { FrameInfo };

/**
 * The execution context of one script run. Owned by the evaluator; the value layer uses it for
 * `print`, calling back into Starlark (sorted(key=...)), allocation accounting and limits.
 */
export interface Thread {
  /** Host-supplied print sink (already decoded to a host string). */
  print(message: string): void;
  /** Counts `n` steps; throws the limit error when the budget or deadline is exceeded or the thread was cancelled. */
  step(n?: number): void;
  /** Counts approximately `bytes` of allocation against the budget; throws the limit error when exceeded. */
  alloc(bytes: number): void;
  /** Calls any callable with frame keeping and error wrapping (the single place that does it). */
  call(fn: Value, args: Value[], kwargs: Kwargs): Value;
  /** Current call stack, outermost first. */
  callStack(): FrameInfo[];
  /** Thread-local storage for host bridges (e.g. the KRM ctx). */
  readonly local: Map<string, unknown>;
  /** The google/starlark-go behaviour this thread follows (src/starlark/release.ts). */
  readonly release: StarlarkGoRelease;
}
