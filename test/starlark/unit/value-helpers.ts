// Shared helpers for the value-layer unit tests: a minimal real Thread (calls go straight to
// callInternal; prints are collected) and shorthands for calling builtins and methods.
import type { Callable, FrameInfo, Kwargs, Thread, Value } from '../../../src/starlark/value/contract.ts';
import { STARLARK_GO_HEAD } from '../../../src/starlark/release.ts';
import { UNIVERSE } from '../../../src/starlark/lib/universe.ts';
import { typeName } from '../../../src/starlark/value/ops.ts';
import { getAttr } from '../../../src/starlark/lib/attrs.ts';
import { fail } from '../../../src/starlark/value/errors.ts';
import { fromHostString } from '../../../src/starlark/value/string.ts';

export class TestThread implements Thread {
  readonly printed: string[] = [];
  readonly local = new Map<string, unknown>();
  readonly release = STARLARK_GO_HEAD;
  print(message: string): void {
    this.printed.push(message);
  }
  /** A step budget, so lazy iteration inside builtins is bounded as under a real thread. */
  steps = 0;
  maxSteps = Infinity;
  step(n = 1): void {
    this.steps += n;
    if (this.steps > this.maxSteps) fail('Starlark computation cancelled: too many steps');
  }
  alloc(): void {}
  call(fn: Value, args: Value[], kwargs: Kwargs): Value {
    if (typeof fn !== 'object' || typeof (fn as Partial<Callable>).callInternal !== 'function') {
      fail(`invalid call of non-function (${typeName(fn)})`);
    }
    return (fn as Callable).callInternal(this, args, kwargs);
  }
  callStack(): FrameInfo[] {
    return [];
  }
}

export const thread = new TestThread();

/** Calls universe builtin `name`. */
export function call(name: string, args: Value[], kwargs: Kwargs = null): Value {
  return thread.call(UNIVERSE[name], args, kwargs);
}

/** Calls method `name` of `recv`. */
export function meth(recv: Value, name: string, args: Value[] = [], kwargs: Kwargs = null): Value {
  return thread.call(getAttr(recv, name), args, kwargs);
}

/** The error message `f` throws, or '' when it succeeds. */
export function errorOf(f: () => unknown): string {
  try {
    f();
    return '';
  } catch (e) {
    return (e as Error).message;
  }
}

export const s = fromHostString;
