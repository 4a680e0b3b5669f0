/**
 * The operator functions the evaluator calls. Clients call these, never methods on values, so
 * type dispatch and error texts live in one place. All throw `EvalError` with starlark-go's
 * messages. The optional `thread` argument is used only for allocation accounting.
 */
import type { Thread, Value } from './contract.ts';
import { None } from './contract.ts';
import { Float } from './float.ts';
import { List, Tuple, MAX_LIST_LENGTH } from './list.ts';
import { Dict, StarlarkSet } from './hashtable.ts';
import { Bytes } from './bytes.ts';
import { Range } from './range.ts';
import type { StarlarkIterator } from './capabilities.ts';
import {
  hasBinary,
  hasLen,
  hasSetField,
  hasSetIndex,
  hasSetKey,
  hasTruth,
  isIndexable,
  isIterable,
  isMapping,
} from './capabilities.ts';
import { fail, isEvalError, isNoSuchAttrError } from './errors.ts';
import { nearest } from '../spell.ts';
import { isStarlarkLimitError } from '../errors.ts';
import {
  intAdd,
  intAnd,
  intFloorDiv,
  intMod,
  intMul,
  intNeg,
  intNot,
  intOr,
  intShl,
  intShr,
  intSub,
  intToDouble,
  intXor,
} from './int.ts';
import type { Int } from './int.ts';
import { repr, str, typeNameOf } from './repr.ts';
import { equal, compare } from './compare.ts';
import { keyOf } from './hashkey.ts';
import { hashBytes, hashString } from './string.ts';
import { percentFormat } from './format.ts';

export { equal, compare, repr, str };
export { freeze } from './freeze.ts';
export { keyOf };

/** Largest string (bytes) the value layer builds; V8's own limit is about 2^29. */
export const MAX_ELEMS = 1 << 28;
/** Largest list/tuple (elements) the value layer builds; V8 aborts the process near 2^27. */
export const MAX_LIST = MAX_LIST_LENGTH;

/** Fails with `excessive list size` when a sequence of `n` elements may not be built. */
export function checkListSize(n: number): void {
  if (n > MAX_LIST) fail(`excessive list size (${n} elements)`);
}

export function typeName(x: Value): string {
  return typeNameOf(x);
}

export function truth(x: Value): boolean {
  switch (typeof x) {
    case 'boolean':
      return x;
    case 'number':
      return x !== 0;
    case 'string':
      return x.length > 0;
    case 'bigint':
      return true; // normalised: a bigint is never zero
  }
  if (x === None) return false;
  if (x instanceof List || x instanceof Tuple) return x.elems.length > 0;
  if (x instanceof Dict || x instanceof StarlarkSet) return x.size > 0;
  if (x instanceof Float) return x.value !== 0;
  if (x instanceof Bytes) return x.data.length > 0;
  if (x instanceof Range) return x.length > 0;
  if (hasTruth(x)) return x.truth();
  return true;
}

/** `hash(x)` builtin semantics: strings and bytes only. */
export function hash(x: Value): number {
  if (typeof x === 'string') return hashString(x);
  if (x instanceof Bytes) return hashBytes(x.data);
  return fail(`hash: got ${typeNameOf(x)}, want string or bytes`);
}

const isInt = (x: Value): x is Int => typeof x === 'number' || typeof x === 'bigint';

function toFloat(x: Value): number | undefined {
  if (x instanceof Float) return x.value;
  if (typeof x === 'number') return x;
  if (typeof x === 'bigint') return intToDouble(x);
  return undefined;
}

function unknownBinary(op: string, x: Value, y: Value): never {
  if (typeof x === 'object' && hasBinary(x)) {
    const r = x.binaryOp(op, y, 'left');
    if (r !== undefined) throw new ReturnValue(r);
  }
  if (typeof y === 'object' && hasBinary(y)) {
    const r = y.binaryOp(op, x, 'right');
    if (r !== undefined) throw new ReturnValue(r);
  }
  return fail(`unknown binary op: ${typeNameOf(x)} ${op} ${typeNameOf(y)}`);
}

/** Carries a host operator's result out of `unknownBinary` (rare path, keeps the fast paths lean). */
class ReturnValue {
  readonly value: Value;
  constructor(value: Value) {
    this.value = value;
  }
}

function fallback(op: string, x: Value, y: Value): Value {
  try {
    return unknownBinary(op, x, y);
  } catch (e) {
    if (e instanceof ReturnValue) return e.value;
    throw e;
  }
}

function repeatCount(n: Int, len: number, max: number): number {
  if (typeof n === 'bigint') {
    if (n < 0n || len === 0) return 0;
    return fail(`repeat count ${n} too large`);
  }
  if (n <= 0 || len === 0) return 0;
  if (n > 0x7fffffff) fail(`repeat count ${n} too large`);
  if (len * n > max) fail(`excessive repeat (${len} * ${n} elements)`);
  return n;
}

function repeatArray(a: readonly Value[], n: number): Value[] {
  const out: Value[] = [];
  for (let i = 0; i < n; i++) for (let j = 0; j < a.length; j++) out.push(a[j]);
  return out;
}

export function add(x: Value, y: Value, thread?: Thread): Value {
  if (typeof x === 'number' && typeof y === 'number') {
    const r = x + y;
    if (r <= Number.MAX_SAFE_INTEGER && r >= -Number.MAX_SAFE_INTEGER) return r;
    return intAdd(x, y);
  }
  if (typeof x === 'string' && typeof y === 'string') {
    const n = x.length + y.length;
    if (n > MAX_ELEMS) fail(`excessive string concatenation (${n} bytes)`);
    return x + y; // the evaluator accounts large string results
  }
  if (isInt(x) && isInt(y)) return intAdd(x, y);
  if (x instanceof List && y instanceof List) {
    checkListSize(x.elems.length + y.elems.length);
    thread?.alloc(8 * (x.elems.length + y.elems.length));
    return new List(x.elems.concat(y.elems));
  }
  if (x instanceof Tuple && y instanceof Tuple) {
    checkListSize(x.elems.length + y.elems.length);
    return new Tuple(x.elems.concat(y.elems));
  }
  if (x instanceof Bytes && y instanceof Bytes) {
    if (x.data.length + y.data.length > MAX_ELEMS)
      fail(`excessive bytes concatenation (${x.data.length + y.data.length} bytes)`);
    return new Bytes(x.data + y.data);
  }
  const a = toFloat(x),
    b = toFloat(y);
  if (a !== undefined && b !== undefined) return new Float(a + b);
  return fallback('+', x, y);
}

export function sub(x: Value, y: Value): Value {
  if (typeof x === 'number' && typeof y === 'number') {
    const r = x - y;
    if (r <= Number.MAX_SAFE_INTEGER && r >= -Number.MAX_SAFE_INTEGER) return r;
    return intSub(x, y);
  }
  if (isInt(x) && isInt(y)) return intSub(x, y);
  const a = toFloat(x),
    b = toFloat(y);
  if (a !== undefined && b !== undefined) return new Float(a - b);
  if (x instanceof StarlarkSet && y instanceof StarlarkSet) return setDifference(x, y);
  return fallback('-', x, y);
}

export function mul(x: Value, y: Value, thread?: Thread): Value {
  if (isInt(x) && isInt(y)) return intMul(x, y);
  const a = toFloat(x),
    b = toFloat(y);
  if (a !== undefined && b !== undefined) return new Float(a * b);
  if (isInt(y)) {
    const r = repeatValue(x, y, thread);
    if (r !== undefined) return r;
  } else if (isInt(x)) {
    const r = repeatValue(y, x, thread);
    if (r !== undefined) return r;
  }
  return fallback('*', x, y);
}

function repeatValue(seq: Value, n: Int, thread?: Thread): Value | undefined {
  if (typeof seq === 'string') {
    const k = repeatCount(n, seq.length, MAX_ELEMS);
    // Charged before the string exists (binaryOp does not charge '*' results again).
    if (k * seq.length > 256) thread?.alloc(k * seq.length);
    return seq.repeat(k);
  }
  if (seq instanceof List) {
    const k = repeatCount(n, seq.elems.length, MAX_LIST);
    thread?.alloc(8 * k * seq.elems.length);
    return new List(repeatArray(seq.elems, k));
  }
  if (seq instanceof Tuple) {
    const k = repeatCount(n, seq.elems.length, MAX_LIST);
    thread?.alloc(8 * k * seq.elems.length);
    return new Tuple(repeatArray(seq.elems, k));
  }
  if (seq instanceof Bytes) {
    const k = repeatCount(n, seq.data.length, MAX_ELEMS);
    thread?.alloc(k * seq.data.length);
    return new Bytes(seq.data.repeat(k));
  }
  return undefined;
}

export function div(x: Value, y: Value): Value {
  const a = toFloat(x),
    b = toFloat(y);
  if (a !== undefined && b !== undefined) {
    if (b === 0) fail('floating-point division by zero');
    return new Float(a / b);
  }
  return fallback('/', x, y);
}

export function floorDiv(x: Value, y: Value): Value {
  if (isInt(x) && isInt(y)) {
    if (y === 0) fail('floored division by zero');
    return intFloorDiv(x, y);
  }
  const a = toFloat(x),
    b = toFloat(y);
  if (a !== undefined && b !== undefined) {
    if (b === 0) fail('floored division by zero');
    return new Float(Math.floor(a / b));
  }
  return fallback('//', x, y);
}

export function mod(x: Value, y: Value, thread?: Thread): Value {
  if (isInt(x) && isInt(y)) {
    if (y === 0) fail('integer modulo by zero');
    return intMod(x, y);
  }
  if (typeof x === 'string') return percentFormat(x, y, thread?.release);
  const a = toFloat(x),
    b = toFloat(y);
  if (a !== undefined && b !== undefined) {
    if (b === 0) fail('floating-point modulo by zero');
    let r = a % b;
    if (r !== 0 && r < 0 !== b < 0) r += b;
    return new Float(r);
  }
  return fallback('%', x, y);
}

export function bitAnd(x: Value, y: Value): Value {
  if (isInt(x) && isInt(y)) return intAnd(x, y);
  if (x instanceof StarlarkSet && y instanceof StarlarkSet) return setIntersection(x, y);
  return fallback('&', x, y);
}

/** `x | y`; dict union only where the thread's release has it (src/starlark/release.ts). */
export function bitOr(x: Value, y: Value, thread?: Thread): Value {
  if (isInt(x) && isInt(y)) return intOr(x, y);
  if (x instanceof StarlarkSet && y instanceof StarlarkSet) return setUnion(x, y);
  if (x instanceof Dict && y instanceof Dict && (thread === undefined || thread.release.has('dictUnion'))) {
    const d = new Dict();
    for (const [k, v] of x.entries()) d.insert(k, v);
    for (const [k, v] of y.entries()) d.insert(k, v);
    return d;
  }
  return fallback('|', x, y);
}

export function bitXor(x: Value, y: Value): Value {
  if (isInt(x) && isInt(y)) return intXor(x, y);
  if (x instanceof StarlarkSet && y instanceof StarlarkSet) {
    const s = new StarlarkSet();
    for (const k of x.keys()) if (!y.has(k)) s.add(k);
    for (const k of y.keys()) if (!x.has(k)) s.add(k);
    return s;
  }
  return fallback('^', x, y);
}

export function shiftLeft(x: Value, y: Value): Value {
  if (isInt(x) && isInt(y)) return intShl(x, y);
  return fallback('<<', x, y);
}

export function shiftRight(x: Value, y: Value): Value {
  if (isInt(x) && isInt(y)) return intShr(x, y);
  return fallback('>>', x, y);
}

export function setUnion(x: StarlarkSet, y: StarlarkSet): StarlarkSet {
  const s = new StarlarkSet();
  for (const k of x.keys()) s.add(k);
  for (const k of y.keys()) s.add(k);
  return s;
}
export function setIntersection(x: StarlarkSet, y: StarlarkSet): StarlarkSet {
  const s = new StarlarkSet();
  for (const k of x.keys()) if (y.has(k)) s.add(k);
  return s;
}
export function setDifference(x: StarlarkSet, y: StarlarkSet): StarlarkSet {
  const s = new StarlarkSet();
  for (const k of x.keys()) if (!y.has(k)) s.add(k);
  return s;
}

/** `y in x` (note the order: container first). */
export function contains(container: Value, x: Value): boolean {
  const c = container;
  if (typeof c === 'string') {
    if (typeof x !== 'string') fail(`'in <string>' requires string as left operand, not ${typeNameOf(x)}`);
    return c.includes(x);
  }
  if (c instanceof StarlarkSet) return c.has(x);
  if (c instanceof Dict) {
    try {
      return c.has(x);
    } catch (e) {
      return notFound(e);
    }
  }
  if (c instanceof List || c instanceof Tuple) {
    const a = c.elems;
    for (let i = 0; i < a.length; i++) if (a[i] === x || equal(a[i], x)) return true;
    return false;
  }
  if (c instanceof Range) {
    if (x instanceof Float) {
      // an integral float acts like the int it equals
      const f = x.value;
      return Number.isInteger(f) && c.contains(Number.isSafeInteger(f) ? f : BigInt(f));
    }
    if (!isInt(x)) fail(`'in <range>' requires integer as left operand, not ${typeNameOf(x)}`);
    return c.contains(x);
  }
  if (c instanceof Bytes) {
    if (x instanceof Bytes) return c.data.includes(x.data);
    if (isInt(x)) {
      // starlark-go AsInt into a byte: `<x> out of range (want value in unsigned 8-bit range)`.
      if (typeof x !== 'number' || x < 0 || x > 255) {
        fail(`int in bytes: ${x} out of range (want value in unsigned 8-bit range)`);
      }
      return c.data.includes(String.fromCharCode(x));
    }
    return fail(`'in bytes' requires bytes or int as left operand, not ${typeNameOf(x)}`);
  }
  if (typeof c === 'object' && isMapping(c)) {
    try {
      return c.getKey(x) !== undefined;
    } catch (e) {
      return notFound(e);
    }
  }
  return fail(`unknown binary op: ${typeNameOf(x)} in ${typeNameOf(c)}`);
}

/**
 * The catch half of `x in mapping`: a lookup that fails (an unhashable key) means "not found", as
 * in google/starlark-go starlark/eval.go Binary (IN on a Mapping ignores Get's error). Limit
 * errors and errors from called-back Starlark code still propagate.
 */
function notFound(e: unknown): false {
  if (isEvalError(e) && !e.traced && !isStarlarkLimitError(e)) return false;
  throw e;
}

/** Binary operators by token. Comparisons go to `compare`; `in`/`not in` to `contains`. */
export function binary(op: string, x: Value, y: Value, thread?: Thread): Value {
  switch (op) {
    case '+':
      return add(x, y, thread);
    case '-':
      return sub(x, y);
    case '*':
      return mul(x, y, thread);
    case '/':
      return div(x, y);
    case '//':
      return floorDiv(x, y);
    case '%':
      return mod(x, y, thread);
    case '&':
      return bitAnd(x, y);
    case '|':
      return bitOr(x, y, thread);
    case '^':
      return bitXor(x, y);
    case '<<':
      return shiftLeft(x, y);
    case '>>':
      return shiftRight(x, y);
    case 'in':
      return contains(y, x);
    case 'not in':
      return !contains(y, x);
    case '==':
    case '!=':
    case '<':
    case '<=':
    case '>':
    case '>=':
      return compare(op, x, y);
  }
  return fail(`unknown binary op: ${typeNameOf(x)} ${op} ${typeNameOf(y)}`);
}

/** Unary `+ - ~ not`. */
export function unary(op: string, x: Value): Value {
  switch (op) {
    case 'not':
      return !truth(x);
    case '-':
      if (isInt(x)) return intNeg(x);
      if (x instanceof Float) return new Float(-x.value);
      break;
    case '+':
      if (isInt(x) || x instanceof Float) return x;
      break;
    case '~':
      if (isInt(x)) return intNot(x);
      break;
  }
  return fail(`unknown unary op: ${op} ${typeNameOf(x)}`);
}

/** `len(x)`, or -1 when `x` has no length. (Huge ranges: use `Range.lenValue()` for the exact int.) */
export function len(x: Value): number {
  if (typeof x === 'string') return x.length;
  if (x instanceof List || x instanceof Tuple) return x.elems.length;
  if (x instanceof Dict || x instanceof StarlarkSet) return x.size;
  if (typeof x === 'object' && hasLen(x)) return x.len();
  return -1;
}

/** Converts an index operand to a JS number, with `<what>: got <type>, want int` errors. */
/**
 * An index or slice bound, as google/starlark-go's `AsInt32`: an int in int32 range, else
 * `got T, want int` or `N out of range`, after `what: ` when given (`x[i] = v` gives none).
 */
function asIndexInt(v: Value, what: string | null): number {
  const prefix = what === null ? '' : `${what}: `;
  if (typeof v === 'number' && v >= -2147483648 && v <= 2147483647) return v;
  if (typeof v === 'number' || typeof v === 'bigint') return fail(`${prefix}${v} out of range`);
  return fail(`${prefix}got ${typeNameOf(v)}, want int`);
}

function outOfRange(x: Value, i: number, n: number): never {
  const ii = Number.isFinite(i) ? String(i) : 'big';
  if (n === 0) fail(`index ${ii} out of range: empty ${typeNameOf(x)}`);
  return fail(`${typeNameOf(x)} index ${ii} out of range [${-n}:${n - 1}]`);
}

/** `x[i]`. */
export function getIndex(x: Value, y: Value): Value {
  if (x instanceof List || x instanceof Tuple) {
    const a = x.elems;
    const orig = typeof y === 'number' && (y | 0) === y ? y : asIndexInt(y, `${typeNameOf(x)} index`);
    const i = orig < 0 ? orig + a.length : orig;
    if (i >= 0 && i < a.length) return a[i];
    return outOfRange(x, orig, a.length);
  }
  if (x instanceof Dict) {
    const v = x.lookup(y);
    if (v === undefined) fail(`key ${repr(y)} not in dict`);
    return v;
  }
  if (typeof x === 'string') {
    let i = asIndexInt(y, 'string index');
    const orig = i;
    if (i < 0) i += x.length;
    if (i >= 0 && i < x.length) return x[i];
    return outOfRange(x, orig, x.length);
  }
  if (x instanceof Bytes) {
    let i = asIndexInt(y, 'bytes index');
    const orig = i;
    if (i < 0) i += x.data.length;
    if (i >= 0 && i < x.data.length) return new Bytes(x.data[i]);
    return outOfRange(x, orig, x.data.length);
  }
  if (x instanceof Range) {
    if (!isInt(y)) fail(`range index: got ${typeNameOf(y)}, want int`);
    const v = x.at(y);
    if (v === undefined) outOfRange(x, typeof y === 'number' ? y : Infinity, x.length);
    return v;
  }
  if (typeof x === 'object') {
    if (isMapping(x)) {
      const v = x.getKey(y);
      if (v === undefined) fail(`key ${repr(y)} not in ${typeNameOf(x)}`);
      return v;
    }
    if (isIndexable(x)) {
      const n = x.len();
      let i = asIndexInt(y, `${typeNameOf(x)} index`);
      const orig = i;
      if (i < 0) i += n;
      if (i >= 0 && i < n) return x.index(i);
      return outOfRange(x, orig, n);
    }
  }
  return fail(`unhandled index operation ${typeNameOf(x)}[${typeNameOf(y)}]`);
}

/** `x[i] = v`. */
export function setIndex(x: Value, y: Value, v: Value): void {
  if (x instanceof Dict) {
    x.insert(y, v);
    return;
  }
  if (x instanceof List) {
    // starlark-go setIndex: the index (unprefixed errors), its range, then the list's mutability.
    const n = x.elems.length;
    let i = asIndexInt(y, null);
    const orig = i;
    if (i < 0) i += n;
    if (i < 0 || i >= n) outOfRange(x, orig, n);
    x.checkMutable('assign to element of');
    x.elems[i] = v;
    return;
  }
  if (typeof x === 'object') {
    if (hasSetKey(x)) {
      x.setKey(y, v);
      return;
    }
    if (hasSetIndex(x)) {
      const n = x.len();
      let i = asIndexInt(y, null);
      const orig = i;
      if (i < 0) i += n;
      if (i >= 0 && i < n) {
        x.setIndex(i, v);
        return;
      }
      outOfRange(x, orig, n);
    }
  }
  fail(`${typeNameOf(x)} value does not support item assignment`);
}

/** Resolves slice bounds to concrete [start, end, step] for a sequence of length n (Python rules). */
export function sliceIndices(n: number, lo: Value, hi: Value, step: Value): [number, number, number] {
  let k = 1;
  if (step !== None) {
    k = asIndexInt(step, 'invalid slice step');
    if (k === 0) fail('zero is not a valid slice step');
  }
  const clampBound = (v: Value, what: string, dflt: number): number => {
    if (v === None) return dflt;
    let i = asIndexInt(v, what);
    if (i < 0) {
      i += n;
      if (i < 0) i = k < 0 ? -1 : 0;
    } else if (i >= n) i = k < 0 ? n - 1 : n;
    return i;
  };
  if (k > 0) return [clampBound(lo, 'invalid start index', 0), clampBound(hi, 'invalid end index', n), k];
  return [clampBound(lo, 'invalid start index', n - 1), clampBound(hi, 'invalid end index', -1), k];
}

function pick<T>(get: (i: number) => T, start: number, end: number, step: number): T[] {
  const out: T[] = [];
  if (step > 0) for (let i = start; i < end; i += step) out.push(get(i));
  else for (let i = start; i > end; i += step) out.push(get(i));
  return out;
}

/** `x[lo:hi:step]` (None for omitted parts). */
export function slice(x: Value, lo: Value, hi: Value, step: Value): Value {
  if (typeof x === 'string' || x instanceof Bytes) {
    const s = typeof x === 'string' ? x : x.data;
    const [a, b, k] = sliceIndices(s.length, lo, hi, step);
    let r: string;
    if (k === 1) r = a < b ? s.slice(a, b) : '';
    else r = pick((i) => s[i], a, b, k).join('');
    return typeof x === 'string' ? r : new Bytes(r);
  }
  if (x instanceof List || x instanceof Tuple) {
    const e = x.elems;
    const [a, b, k] = sliceIndices(e.length, lo, hi, step);
    const r = k === 1 ? (a < b ? e.slice(a, b) : []) : pick((i) => e[i], a, b, k);
    return x instanceof List ? new List(r) : new Tuple(r);
  }
  if (x instanceof Range) {
    const [a, b, k] = sliceIndices(x.length, lo, hi, step);
    if (x.big === null) return new Range(x.start + a * x.step, x.start + b * x.step, x.step * k);
    const [s0, , st] = x.bounds();
    const at = (i: number): Int => intAdd(s0, intMul(i, st));
    return new Range(at(a), at(b), intMul(st, k));
  }
  return fail(`invalid slice operand ${typeNameOf(x)}`);
}

/** Starts iterating `x`; the caller must call `done()` on the result (in a finally). */
export function iterate(x: Value): StarlarkIterator {
  if (typeof x === 'object' && isIterable(x)) return x.iterate();
  return fail(`${typeNameOf(x)} value is not iterable`);
}

/** True if `x` can be iterated (without starting an iteration). */
export function isIterableValue(x: Value): boolean {
  return typeof x === 'object' && isIterable(x);
}

/** Collects an iterable into a fresh array (the iteration lock is held only while collecting). */
export function toArray(x: Value): Value[] {
  if (x instanceof List || x instanceof Tuple) return x.elems.slice();
  if (typeof x === 'object' && hasLen(x)) checkListSize(x.len());
  const it = iterate(x);
  const out: Value[] = [];
  try {
    for (let v = it.next(); v !== undefined; v = it.next()) {
      out.push(v);
      if (out.length > MAX_LIST) checkListSize(out.length); // unbounded host iterables
    }
  } finally {
    it.done();
  }
  return out;
}

/** `x.name = v`. */
export function setField(x: Value, name: string, v: Value): void {
  if (typeof x === 'object' && hasSetField(x)) {
    try {
      x.setField(name, v);
    } catch (e) {
      const hint = isNoSuchAttrError(e) ? nearest(name, x.attrNames()) : '';
      if (hint !== '') fail(`${e instanceof Error ? e.message : ''} (did you mean .${hint}?)`);
      throw e;
    }
    return;
  }
  fail(`can't assign to .${name} field of ${typeNameOf(x)}`);
}
