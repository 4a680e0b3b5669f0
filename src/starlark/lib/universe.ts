/**
 * The universe: every predeclared builtin of spec §8 (`None True False abs any all bool bytes chr
 * dict dir enumerate fail float getattr hasattr hash int len list max min ord print range repr
 * reversed set sorted str tuple type zip`). `UNIVERSE` is frozen; the dialect's `set` gate is the
 * resolver's business.
 */
import type { Kwargs, Thread, Value } from '../value/contract.ts';
import { None } from '../value/contract.ts';
import { Builtin } from '../value/builtin.ts';
import type { BuiltinImpl } from '../value/builtin.ts';
import { Float, parseFloatLiteral } from '../value/float.ts';
import { List, Tuple, EMPTY_TUPLE } from '../value/list.ts';
import { Dict, StarlarkSet } from '../value/hashtable.ts';
import { Bytes } from '../value/bytes.ts';
import { Range } from '../value/range.ts';
import { fail, failIn, isEvalError, prefixed, rethrowIn } from '../value/errors.ts';
import { hash, isIterableValue, iterate, len, repr, str, toArray, truth, typeName } from '../value/ops.ts';
import { compare, order } from '../value/compare.ts';
import { isStarlarkLimitError } from '../errors.ts';
import { intFromIntegralDouble, intNeg, normBig, parseDigits } from '../value/int.ts';
import type { Int } from '../value/int.ts';
import { decodeRuneAt, encodeRune, toHostString, toValidUtf8 } from '../value/string.ts';
import { positional, unpack, wantBool, wantCallable, wantString, wrongType } from './args.ts';
import { stableSort } from './stable-sort.ts';
import { updateDict } from './dict-update.ts';
import { attrNames, getAttrOrUndefined, noAttrMessage } from './attrs.ts';
import { structBuiltin, moduleBuiltin } from './struct.ts';

const fn = (name: string, impl: BuiltinImpl): Builtin => new Builtin(name, impl);

/** Elements of iterable argument `x`, counted against the allocation budget (8 bytes each). */
function elems(thread: Thread, name: string, x: Value, label: string | number = 1): Value[] {
  if (!isIterableValue(x)) wrongType(name, label, x, 'iterable');
  const n = len(x);
  if (n > 0) thread.alloc(8 * n); // before materializing: a huge range fails fast
  const items = prefixed(name, () => toArray(x));
  if (n < 0) thread.alloc(8 * items.length);
  return items;
}

const abs = fn('abs', (_t, args, kwargs) => {
  positional('abs', args, kwargs, 1, 1);
  const x = args[0];
  if (typeof x === 'number') return Math.abs(x);
  if (typeof x === 'bigint') return x < 0n ? intNeg(x) : x;
  if (x instanceof Float) return new Float(Math.abs(x.value));
  // Unprefixed, as google/starlark-go starlark/library.go abs (the backtrace names the builtin).
  return fail(`got ${typeName(x)}, want int or float`);
});

function anyAll(name: string, want: boolean): Builtin {
  return fn(name, (thread, args, kwargs) => {
    positional(name, args, kwargs, 1, 1);
    const x = args[0];
    if (!isIterableValue(x)) wrongType(name, 1, x, 'iterable');
    const it = iterate(x);
    try {
      // one step per element, so the thread's step budget and deadline stop huge (lazy) iterables
      for (let v = it.next(); v !== undefined; v = it.next()) {
        thread.step(1);
        if (truth(v) === want) return want;
      }
    } finally {
      it.done();
    }
    return !want;
  });
}

const bool = fn('bool', (_t, args, kwargs) => {
  positional('bool', args, kwargs, 0, 1);
  return args.length === 0 ? false : truth(args[0]);
});

const bytes = fn('bytes', (_t, args, kwargs) => {
  positional('bytes', args, kwargs, 1, 1);
  const x = args[0];
  if (typeof x === 'string') return new Bytes(toValidUtf8(x));
  if (x instanceof Bytes) return x;
  if (isIterableValue(x)) {
    const items = toArray(x);
    let s = '';
    for (let i = 0; i < items.length; i++) {
      const b = items[i];
      if (typeof b !== 'number' && typeof b !== 'bigint')
        failIn('bytes', `at index ${i}, got ${typeName(b)}, want int`);
      if (typeof b !== 'number' || b < 0 || b > 255)
        failIn('bytes', `at index ${i}, ${b} out of range (want value in unsigned 8-bit range)`);
      s += String.fromCharCode(b);
    }
    return new Bytes(s);
  }
  return failIn('bytes', `got ${typeName(x)}, want string, bytes, or iterable of ints`);
});

const chr = fn('chr', (_t, args, kwargs) => {
  positional('chr', args, kwargs, 1, 1);
  const x = args[0];
  if (typeof x !== 'number' && typeof x !== 'bigint') return failIn('chr', `got ${typeName(x)}, want int`);
  if (x < 0) failIn('chr', `Unicode code point ${x} out of range (<0)`);
  if (x > 0x10ffff) failIn('chr', `Unicode code point U+${x.toString(16).toUpperCase()} out of range (>0x10FFFF)`);
  return encodeRune(Number(x));
});

const dict = fn('dict', (thread, args, kwargs) => {
  if (args.length > 1) failIn('dict', `got ${args.length} arguments, want at most 1`);
  const d = new Dict();
  prefixed('dict', () => updateDict(d, args[0], kwargs));
  thread.alloc(32 * d.size);
  return d;
});

const dir = fn('dir', (thread, args, kwargs) => {
  positional('dir', args, kwargs, 1, 1);
  return new List(attrNames(args[0], thread.release));
});

const enumerate = fn('enumerate', (thread, args, kwargs) => {
  positional('enumerate', args, kwargs, 1, 2);
  let start: Int = 0;
  if (args.length > 1) {
    const s = args[1];
    if (typeof s !== 'number' && typeof s !== 'bigint') wrongType('enumerate', 2, s, 'int');
    start = s;
  }
  const items = elems(thread, 'enumerate', args[0]);
  return new List(
    items.map((v, i) => new Tuple([typeof start === 'number' ? start + i : normBig(start + BigInt(i)), v])),
  );
});

const failBuiltin = fn('fail', (thread, args, kwargs) => {
  const { sep } = sepArg('fail', kwargs, thread);
  const parts = args.map((a) => (typeof a === 'string' ? a : a instanceof Bytes ? toValidUtf8(a.data) : repr(a)));
  return fail('fail: ' + parts.join(sep));
});

function sepArg(name: string, kwargs: Kwargs, thread: Thread): { sep: string } {
  let sep = ' ';
  if (kwargs !== null) {
    const v = unpack(name, [], kwargs, ['sep?'], thread.release).values[0];
    if (v !== undefined) sep = wantString(name, '"sep"', v);
  }
  return { sep };
}

// Messages as google/starlark-go starlark/library.go float: only "empty string" is prefixed.
const floatBuiltin = fn('float', (_t, args, kwargs) => {
  if (kwargs !== null && kwargs.length > 0) fail('float does not accept keyword arguments');
  if (args.length > 1) fail(`float got ${args.length} arguments, wants 1`);
  if (args.length === 0) return new Float(0);
  const x = args[0];
  if (x instanceof Float) return x;
  if (typeof x === 'boolean') return new Float(x ? 1 : 0);
  if (typeof x === 'number') return new Float(x);
  if (typeof x === 'bigint') {
    const f = Number(x);
    if (!Number.isFinite(f)) fail('int too large to convert to float');
    return new Float(f);
  }
  if (typeof x === 'string') {
    if (x === '') failIn('float', 'empty string');
    const f = parseFloatLiteral(x);
    if (f === undefined) fail(`invalid float literal: ${x}`);
    if ((f === Infinity || f === -Infinity) && !/inf/i.test(x)) fail('floating-point number too large');
    return new Float(f);
  }
  return fail(`float got ${typeName(x)}, want number or string`);
});

const getattr = fn('getattr', (thread, args, kwargs) => {
  positional('getattr', args, kwargs, 2, 3);
  const name = wantString('getattr', 2, args[1]);
  const v = prefixed('getattr', () => getAttrOrUndefined(args[0], name, thread.release));
  if (v !== undefined) return v;
  if (args.length === 3) return args[2];
  return failIn('getattr', noAttrMessage(args[0], name, thread.release));
});

const hasattr = fn('hasattr', (thread, args, kwargs) => {
  positional('hasattr', args, kwargs, 2, 2);
  const name = wantString('hasattr', 2, args[1]);
  try {
    return getAttrOrUndefined(args[0], name, thread.release) !== undefined;
  } catch {
    return false;
  }
});

const hashBuiltin = fn('hash', (thread, args, kwargs) => {
  positional('hash', args, kwargs, 1, 1);
  // Before bytes existed (#330), hash took a string through UnpackPositionalArgs.
  if (!thread.release.has('bytesType') && typeof args[0] !== 'string') {
    failIn('hash', `for parameter 1: got ${typeName(args[0])}, want string`);
  }
  return hash(args[0]);
});

/** `int(x, base)` string parsing with Starlark's rules. */
function parseInt(s: string, base: number): Int {
  const bad = (): never => failIn('int', `invalid literal with base ${base}: ${s}`);
  let body = s;
  let neg = false;
  if (body.startsWith('+') || body.startsWith('-')) {
    neg = body[0] === '-';
    body = body.slice(1);
  }
  let b = base;
  if (body.length >= 2 && body[0] === '0') {
    const p = body[1].toLowerCase();
    const pb = p === 'x' ? 16 : p === 'o' ? 8 : p === 'b' ? 2 : 0;
    if (pb !== 0) {
      if (b === 0) b = pb;
      if (b === pb) body = body.slice(2); // otherwise the prefix letter is read as a digit (or fails)
    } else if (b === 0) {
      if (/^0+$/.test(body)) return 0;
      return bad(); // "0755" with base 0 is ambiguous
    }
  }
  if (b === 0) b = 10;
  const v = parseDigits(body, b);
  if (v === null) {
    if (base === 0) return failIn('int', `invalid literal with base 0: ${s}`);
    return bad();
  }
  return neg ? intNeg(v) : v;
}

const intBuiltin = fn('int', (thread, args, kwargs) => {
  // `x` is required since google/starlark-go 2021 (int.star: `int()` fails with "missing argument").
  const { values } = unpack('int', args, kwargs, ['x', 'base?'], thread.release);
  const x = values[0]!;
  const baseV = values[1];
  // google/starlark-go starlark/library.go int_: the base is checked only for a string.
  if (baseV !== undefined) {
    if (typeof x !== 'string') failIn('int', "can't convert non-string with explicit base");
    if (typeof baseV !== 'number' || !Number.isInteger(baseV) || Math.abs(baseV) > 2 ** 31 - 1) {
      failIn('int', `for base, got ${typeName(baseV)}, want int`);
    }
    if (baseV !== 0 && (baseV < 2 || baseV > 36)) failIn('int', 'base must be an integer >= 2 && <= 36');
    return parseInt(x, baseV);
  }
  if (typeof x === 'string') return parseInt(x, 10);
  if (typeof x === 'number' || typeof x === 'bigint') return x;
  if (typeof x === 'boolean') return x ? 1 : 0;
  if (x instanceof Float) {
    const f = x.value;
    if (Number.isNaN(f)) failIn('int', 'cannot convert float NaN to integer');
    if (!Number.isFinite(f)) failIn('int', 'cannot convert float infinity to integer');
    return intFromIntegralDouble(Math.trunc(f));
  }
  return failIn('int', `cannot convert ${typeName(x)} to int`);
});

const lenBuiltin = fn('len', (_t, args, kwargs) => {
  positional('len', args, kwargs, 1, 1);
  if (args[0] instanceof Range) return args[0].lenValue();
  const n = len(args[0]);
  if (n < 0) failIn('len', `value of type ${typeName(args[0])} has no len`);
  return n;
});

const list = fn('list', (thread, args, kwargs) => {
  positional('list', args, kwargs, 0, 1);
  return new List(args.length === 0 ? [] : elems(thread, 'list', args[0]));
});

function minMax(name: string, sign: number): Builtin {
  return fn(name, (thread, args, kwargs) => {
    if (args.length === 0) fail(`${name} requires at least one positional argument`);
    const given = kwargs === null ? null : unpack(name, [], kwargs, ['key?'], thread.release);
    const k0 = given?.values[0];
    const key: Value = given === null || k0 === undefined ? None : wantCallable(name, given.labels[0], k0);
    // A single iterable is walked lazily, holding its lock while `key` runs (as starlark-go does).
    const x = args.length === 1 ? args[0] : new Tuple(args);
    if (!isIterableValue(x)) failIn(name, `${typeName(x)} value is not iterable`);
    const it = iterate(x);
    let best: Value | undefined;
    let bestKey: Value = None;
    try {
      for (let v = it.next(); v !== undefined; v = it.next()) {
        thread.step(1);
        const k = key === None ? v : thread.call(key, [v], null);
        if (best === undefined) {
          best = v;
          bestKey = k;
          continue;
        }
        // starlark-go's minmax: Compare(GT for max, LT for min, key, extremeKey).
        let better: boolean;
        try {
          better = compare(sign > 0 ? '>' : '<', k, bestKey);
        } catch (e) {
          rethrowIn(name, e);
        }
        if (better) {
          best = v;
          bestKey = k;
        }
      }
    } finally {
      it.done();
    }
    if (best === undefined) failIn(name, 'argument is an empty sequence');
    return best;
  });
}

const ord = fn('ord', (_t, args, kwargs) => {
  positional('ord', args, kwargs, 1, 1);
  const x = args[0];
  if (typeof x === 'string') {
    const r = decodeRuneAt(x, 0),
      size = r & 7;
    if (x.length === 0 || size !== x.length) {
      let n = 0;
      for (let i = 0; i < x.length; i += decodeRuneAt(x, i) & 7) n++;
      failIn('ord', `string encodes ${n} Unicode code points, want 1`);
    }
    return (r - size) / 8;
  }
  if (x instanceof Bytes) {
    if (x.data.length !== 1) failIn('ord', `bytes has length ${x.data.length}, want 1`);
    return x.data.charCodeAt(0);
  }
  return failIn('ord', `got ${typeName(x)}, want string or bytes`);
});

const print = fn('print', (thread, args, kwargs) => {
  const { sep } = sepArg('print', kwargs, thread);
  const parts = args.map((a) => (typeof a === 'string' ? a : a instanceof Bytes ? a.data : str(a)));
  thread.print(toHostString(parts.join(sep)));
  return None;
});

const INT64_MAX = 2n ** 63n - 1n,
  INT64_MIN = -(2n ** 63n);
const range = fn('range', (_t, args, kwargs) => {
  positional('range', args, kwargs, 1, 3);
  const nums = args.map((a, i): Int => {
    if (typeof a === 'number') return a;
    if (typeof a !== 'bigint') return wrongType('range', i + 1, a, 'int');
    if (a > INT64_MAX || a < INT64_MIN)
      failIn('range', `for parameter ${i + 1}: ${a} out of range (want value in signed 64-bit range)`);
    return a;
  });
  const [start, stop, step] = nums.length === 1 ? [0, nums[0], 1] : [nums[0], nums[1], nums[2] ?? 1];
  if (step === 0) failIn('range', 'step argument must not be zero');
  return new Range(start, stop, step);
});

const reprBuiltin = fn('repr', (_t, args, kwargs) => {
  positional('repr', args, kwargs, 1, 1);
  return repr(args[0]);
});

const reversed = fn('reversed', (thread, args, kwargs) => {
  positional('reversed', args, kwargs, 1, 1);
  return new List(elems(thread, 'reversed', args[0]).reverse());
});

const set = fn('set', (thread, args, kwargs) => {
  positional('set', args, kwargs, 0, 1);
  const s = new StarlarkSet();
  if (args.length > 0) for (const v of elems(thread, 'set', args[0])) prefixed('set', () => s.add(v));
  return s;
});

/** `x < y` as starlark-go's Compare(LT) (numbers and strings inline). */
function lessThan(x: Value, y: Value): boolean {
  if (typeof x === 'number' && typeof y === 'number') return x < y;
  if (typeof x === 'string' && typeof y === 'string') return x < y;
  return compare('<', x, y);
}

const sorted = fn('sorted', (thread, args, kwargs) => {
  const { values, labels } = unpack('sorted', args, kwargs, ['iterable', 'key?', 'reverse?'], thread.release);
  const items = elems(thread, 'sorted', values[0]!, labels[0]);
  const key = values[1] === undefined ? undefined : wantCallable('sorted', labels[1], values[1]);
  const rev = values[2] === undefined ? false : wantBool('sorted', labels[2], values[2]);
  const keys = key === undefined ? items : items.map((v) => thread.call(key, [v], null));
  // Fast path: V8's stable sort. Over a total order every stable sort gives the same result, so
  // only a failed comparison needs starlark-go's exact sequence of comparisons.
  const idx = items.map((_, i) => i);
  try {
    idx.sort(rev ? (a, b) => order(keys[b], keys[a]) : (a, b) => order(keys[a], keys[b]));
  } catch (e) {
    if (isStarlarkLimitError(e) || !isEvalError(e)) throw e;
    return new List(goSorted(items, keys, rev));
  }
  return new List(idx.map((i) => items[i]));
});

/**
 * `sorted` as starlark-go computes it when some comparison fails: Go's sort.Stable over (keys,
 * items), reversed by swapping Less's operands as sort.Reverse does; a failed comparison answers
 * false, the sort goes on and the last failure is thrown, unprefixed (lib/stable-sort.ts).
 * Sorts `items` (and `keys`, when distinct) in place.
 */
function goSorted(items: Value[], keys: Value[], rev: boolean): Value[] {
  let failure: unknown = undefined;
  const less = (x: Value, y: Value): boolean => {
    try {
      return lessThan(x, y);
    } catch (e) {
      if (isStarlarkLimitError(e)) throw e;
      failure = e;
      return false;
    }
  };
  stableSort(
    {
      less: rev ? (i, j) => less(keys[j], keys[i]) : (i, j) => less(keys[i], keys[j]),
      swap(i, j) {
        const v = items[i];
        items[i] = items[j];
        items[j] = v;
        if (keys !== items) {
          const k = keys[i];
          keys[i] = keys[j];
          keys[j] = k;
        }
      },
    },
    items.length,
  );
  if (failure !== undefined) throw failure;
  return items;
}

const strBuiltin = fn('str', (_t, args, kwargs) => {
  positional('str', args, kwargs, 1, 1);
  return str(args[0]);
});

const tuple = fn('tuple', (thread, args, kwargs) => {
  positional('tuple', args, kwargs, 0, 1);
  if (args.length === 0) return EMPTY_TUPLE;
  if (args[0] instanceof Tuple) return args[0];
  return new Tuple(elems(thread, 'tuple', args[0]));
});

const type = fn('type', (_t, args, kwargs) => {
  positional('type', args, kwargs, 1, 1);
  return typeName(args[0]);
});

const zip = fn('zip', (_t, args, kwargs) => {
  if (kwargs !== null && kwargs.length > 0) failIn('zip', 'unexpected keyword arguments');
  args.forEach((a, i) => {
    if (!isIterableValue(a)) failIn('zip', `argument #${i + 1} is not iterable: ${typeName(a)}`);
  });
  if (args.length === 0) return new List([]);
  // Lockstep iteration: stops at the shortest argument, so infinite iterables work.
  const its = args.map((a) => prefixed('zip', () => iterate(a)));
  const out: Value[] = [];
  try {
    for (;;) {
      const row: Value[] = [];
      for (const it of its) {
        const v = it.next();
        if (v === undefined) return new List(out);
        row.push(v);
      }
      out.push(new Tuple(row));
    }
  } finally {
    for (const it of its) it.done();
  }
});

/** The frozen universe: name → value, exactly spec §8's list. */
export const UNIVERSE: Readonly<Record<string, Value>> = Object.freeze({
  None,
  True: true,
  False: false,
  abs,
  any: anyAll('any', true),
  all: anyAll('all', false),
  bool,
  bytes,
  chr,
  dict,
  dir,
  enumerate,
  fail: failBuiltin,
  float: floatBuiltin,
  getattr,
  hasattr,
  hash: hashBuiltin,
  int: intBuiltin,
  len: lenBuiltin,
  list,
  max: minMax('max', 1),
  min: minMax('min', -1),
  ord,
  print,
  range,
  repr: reprBuiltin,
  reversed,
  set,
  sorted,
  str: strBuiltin,
  tuple,
  type,
  zip,
});

/** Host-side extras commonly predeclared (`struct`, `module`); not part of the universe. */
export const STRUCT_BUILTINS: Readonly<Record<string, Value>> = Object.freeze({
  struct: structBuiltin,
  module: moduleBuiltin,
});
