/**
 * The one place that calls a value: Starlark functions go through `callFunction`; builtins and
 * other callables are invoked with error tracing (their frame appears in the backtrace as a
 * `<builtin>` frame, which `StarlarkEvalError.format` turns into `Error in <name>: ...`).
 */
import type { Kwargs, Value } from '../value/contract.ts';
import { isCallable } from '../value/capabilities.ts';
import { fail } from '../value/errors.ts';
import { typeName } from '../value/ops.ts';
import { StarlarkFunction, callFunction, traced } from './function.ts';
import type { EvalThread } from './frame.ts';

/** Calls any value. `args` is copied when it reaches a Starlark function (callers may reuse it). */
export function callValue(th: EvalThread, fn: Value, args: Value[], kwargs: Kwargs): Value {
  if (fn instanceof StarlarkFunction) return callFunction(th, fn, args.slice(), kwargs);
  return callOther(th, fn, args, kwargs);
}

/** Calls a non-Starlark callable (builtin, bound method, host object). */
export function callOther(th: EvalThread, fn: Value, args: Value[], kwargs: Kwargs): Value {
  if (!isCallable(fn)) return fail(`invalid call of non-function (${typeName(fn)})`);
  if (--th.tick <= 0) th.poll();
  const frames = th.frames;
  frames.push(fn);
  try {
    return fn.callInternal(th, args, kwargs);
  } catch (e) {
    throw traced(th, e);
  } finally {
    frames.pop();
  }
}
