/**
 * The `assert` module and `freeze` builtin of the test harness (docs/starlark.md, "Test files"), native, with
 * upstream's failure texts. Assertion failures do not stop the chunk: each is handed to the
 * `AssertReporter` with the Starlark call stack at the failing call, and execution continues.
 * Failing `assert.fails` patterns are RE2, translated by `compileRe2`.
 */
import type { FrameInfo, Kwargs, Thread, Value } from '../value/contract.ts';
import { None } from '../value/contract.ts';
import { Builtin } from '../value/builtin.ts';
import { Module } from '../value/struct.ts';
import { Float } from '../value/float.ts';
import { compare, contains, equal, freeze, repr, str, truth } from '../value/ops.ts';
import { failIn } from '../value/errors.ts';
import { isStarlarkEvalError, isStarlarkLimitError } from '../errors.ts';
import { compileRe2 } from './re2.ts';
import { binaryText, evalErrorText } from './host-text.ts';

/** Receives one assertion failure: host-string message and the stack, outermost first. */
export type AssertReporter = (message: string, stack: FrameInfo[]) => void;

export interface AssertModule {
  assert: Module;
  freeze: Builtin;
}

/** Binds positional arguments, then keywords by `names`; checks the count against [min, max]. */
function args(name: string, a: Value[], kw: Kwargs, min: number, max: number, names: string[] = []): Value[] {
  if (a.length > max) failIn(name, `got ${a.length} arguments, want at most ${max}`);
  const out = a.slice();
  for (const [k, v] of kw ?? []) {
    const i = names.indexOf(k);
    if (i < 0) failIn(name, `unexpected keyword argument "${k}"`);
    if (out[i] !== undefined) failIn(name, `got multiple values for parameter "${k}"`);
    out[i] = v;
  }
  for (let i = 0; i < min; i++)
    if (out[i] === undefined) failIn(name, `got ${a.length} arguments, want at least ${min}`);
  return out;
}

function asDouble(x: Value): number | undefined {
  if (x instanceof Float) return x.value;
  if (typeof x === 'number') return x;
  if (typeof x === 'bigint') return Number(x);
  return undefined;
}

const f64 = new Float64Array(1);
const i64 = new BigInt64Array(f64.buffer);
/** Maps a double to an integer whose order matches the doubles' order (adjacent doubles differ by 1). */
function orderedBits(x: number): bigint {
  f64[0] = x;
  const b = i64[0];
  return b < 0n ? -(b & 0x7fffffffffffffffn) : b;
}

/** Within one ULP (adjacent bit patterns); NaN equals NaN. */
export function floatsClose(x: number, y: number): boolean {
  if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) && Number.isNaN(y);
  if (x === y) return true;
  const d = orderedBits(x) - orderedBits(y);
  return d >= -1n && d <= 1n;
}

export function createAssertModule(report: AssertReporter): AssertModule {
  /** Records a failure; `msg` is binary (built from Starlark values). */
  const error = (thread: Thread, msg: string): Value => errorText(thread, binaryText(msg));
  const errorText = (thread: Thread, text: string): Value => {
    report(text, thread.callStack());
    return None;
  };
  /**
   * Runs `f()`: its error message (host text), or null when it succeeded. Sticky budget errors
   * (steps, deadline, allocation, output, cancellation) propagate; a stack overflow is an ordinary
   * error, as in starlark-go.
   */
  const catchError = (thread: Thread, f: Value): string | null => {
    try {
      thread.call(f, [], null);
      return null;
    } catch (e) {
      if (isStarlarkEvalError(e) && (!isStarlarkLimitError(e) || e.limit === 'depth')) return evalErrorText(e);
      throw e;
    }
  };
  const b = (name: string, impl: (t: Thread, a: Value[], kw: Kwargs) => Value): Builtin =>
    new Builtin(name, (t, a, kw) => impl(t, a, kw));

  const members: Record<string, Value> = {
    eq: b('eq', (t, a, kw) => {
      const [x, y] = args('assert.eq', a, kw, 2, 2) as [Value, Value];
      if (equal(x, y)) return None;
      const fx = asDouble(x),
        fy = asDouble(y);
      if (fx !== undefined && fy !== undefined && (x instanceof Float || y instanceof Float)) {
        if (floatsClose(fx, fy)) return None;
        return error(t, `floats: ${repr(x)} != ${repr(y)} (delta > 1 ulp)`);
      }
      return error(t, `${repr(x)} != ${repr(y)}`);
    }),
    ne: b('ne', (t, a, kw) => {
      const [x, y] = args('assert.ne', a, kw, 2, 2) as [Value, Value];
      return equal(x, y) ? error(t, `${repr(x)} == ${repr(y)}`) : None;
    }),
    true: b('true', (t, a, kw) => {
      const [c, msg] = args('assert.true', a, kw, 1, 2, ['cond', 'msg']);
      return truth(c) ? None : error(t, msg === undefined ? 'assertion failed' : str(msg));
    }),
    lt: b('lt', (t, a, kw) => {
      const [x, y] = args('assert.lt', a, kw, 2, 2) as [Value, Value];
      return compare('<', x, y) ? None : error(t, `${str(x)} is not less than ${str(y)}`);
    }),
    contains: b('contains', (t, a, kw) => {
      const [x, y] = args('assert.contains', a, kw, 2, 2) as [Value, Value];
      return contains(x, y) ? None : error(t, `${str(x)} does not contain ${str(y)}`);
    }),
    fails: b('fails', (t, a, kw) => {
      const [f, pattern] = args('assert.fails', a, kw, 2, 2) as [Value, Value];
      if (typeof pattern !== 'string') failIn('assert.fails', `got ${typeof pattern}, want string pattern`);
      const msg = catchError(t, f);
      if (msg === null) return error(t, `evaluation succeeded unexpectedly (want error matching ${repr(pattern)})`);
      const re = compileRe2(binaryText(pattern));
      if (!re.ok) failIn('assert.fails', re.error);
      if (re.regexp.test(msg)) return None;
      return errorText(t, `regular expression (${binaryText(pattern)}) did not match error (${msg})`);
    }),
    fail: b('fail', (t, a, kw) => {
      const [msg] = args('assert.fail', a, kw, 1, 1);
      return error(t, str(msg));
    }),
  };
  const freezeBuiltin = new Builtin('freeze', (_t, a, kw) => {
    const [x] = args('freeze', a, kw, 1, 1);
    freeze(x);
    return x;
  });
  return { assert: new Module('assert', members), freeze: freezeBuiltin };
}
