/**
 * Equality and ordering (spec §2, §3): `==` between any values, ordering within a type and
 * int↔float; exact int/float comparison; NaN equal to itself and above +inf; lexicographic
 * sequences (strings by bytes); dicts/ranges/functions `==` only.
 */
import type { Value } from './contract.ts';
import { None } from './contract.ts';
import { Float } from './float.ts';
import { List, Tuple } from './list.ts';
import { Dict, StarlarkSet } from './hashtable.ts';
import { Bytes } from './bytes.ts';
import { Range } from './range.ts';
import { Struct } from './struct.ts';
import { isComparable } from './capabilities.ts';
import { fail } from './errors.ts';
import { typeNameOf } from './repr.ts';

/** Maximum nesting depth compared before `comparison exceeded maximum recursion depth`. */
export const COMPARE_LIMIT = 10;

export type CompareOp = '==' | '!=' | '<' | '<=' | '>' | '>=';

/** `x == y`. */
export function equal(x: Value, y: Value): boolean {
  // No identity shortcut for containers: starlark-go compares their elements (so a cyclic list
  // compared with itself hits the recursion limit, as at google/starlark-go HEAD misc.star).
  if (x === y && !(x instanceof List || x instanceof Tuple || x instanceof Dict || x instanceof StarlarkSet))
    return true;
  const tx = typeof x;
  if (tx === 'string' || tx === 'boolean') return false;
  if (tx === 'number' || tx === 'bigint') {
    if (y instanceof Float) return numEq(x as number | bigint, y.value);
    return false; // normalised ints: different primitive means different value
  }
  return compare('==', x, y, 0);
}

function numEq(a: number | bigint, f: number): boolean {
  if (Number.isNaN(f)) return false;

  return typeof a === 'bigint' ? a == (f as unknown as bigint) : a === f;
}

/** Three-way comparison of two numbers as Starlark orders them (NaN above everything, equal to itself). */
function cmpNum(a: number | bigint, b: number | bigint): number {
  const an = typeof a === 'number' && a !== a,
    bn = typeof b === 'number' && b !== b;
  if (an || bn) return an && bn ? 0 : an ? 1 : -1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function fromCmp(op: string, c: number): boolean {
  switch (op) {
    case '==':
      return c === 0;
    case '!=':
      return c !== 0;
    case '<':
      return c < 0;
    case '<=':
      return c <= 0;
    case '>':
      return c > 0;
    default:
      return c >= 0;
  }
}

/** `x <op> y` for a comparison operator. `depth` counts nesting (callers pass 0). */
export function compare(op: string, x: Value, y: Value, depth = 0): boolean {
  // fast paths
  const tx = typeof x,
    ty = typeof y;
  if (tx === 'number' && ty === 'number') return fromCmp(op, (x as number) < (y as number) ? -1 : x === y ? 0 : 1);
  if (tx === 'string' && ty === 'string') return fromCmp(op, x === y ? 0 : (x as string) < (y as string) ? -1 : 1);
  const xnum = tx === 'number' || tx === 'bigint' || x instanceof Float;
  const ynum = ty === 'number' || ty === 'bigint' || y instanceof Float;
  if (xnum && ynum) {
    const a = x instanceof Float ? x.value : (x as number | bigint);
    const b = y instanceof Float ? y.value : (y as number | bigint);
    return fromCmp(op, cmpNum(a, b));
  }
  const nx = typeNameOf(x),
    ny = typeNameOf(y);
  if (nx !== ny) {
    if (op === '==') return false;
    if (op === '!=') return true;
    return fail(`${nx} ${op} ${ny} not implemented`);
  }
  if (depth > COMPARE_LIMIT) fail('comparison exceeded maximum recursion depth');
  if (tx === 'boolean') return fromCmp(op, x === y ? 0 : x ? 1 : -1);
  if (x instanceof List || x instanceof Tuple) {
    return compareSeq(op, x.elems, (y as List | Tuple).elems, depth);
  }
  if (x instanceof Bytes) {
    const a = x.data,
      b = (y as Bytes).data;
    return fromCmp(op, a === b ? 0 : a < b ? -1 : 1);
  }
  if (x instanceof Dict) {
    if (op !== '==' && op !== '!=') fail(`dict ${op} dict not implemented`);
    const eq = dictEqual(x, y as Dict, depth);
    return op === '==' ? eq : !eq;
  }
  if (x instanceof StarlarkSet) return compareSets(op, x, y as StarlarkSet);
  if (x instanceof Range) {
    if (op !== '==' && op !== '!=') fail(`range ${op} range not implemented`);
    const r = y as Range;
    const [xa, , xk] = x.bounds(),
      [ya, , yk] = r.bounds();
    const xn = x.lenValue(),
      yn = r.lenValue();
    const eq = xn === yn && (xn === 0 || (xa === ya && (xn === 1 || xk === yk)));
    return op === '==' ? eq : !eq;
  }
  if (x instanceof Struct) {
    if (op !== '==' && op !== '!=') fail(`struct ${op} struct not implemented`);
    const s = y as Struct;
    let eq = x.names.length === s.names.length && x.names.every((n, i) => n === s.names[i]);
    for (let i = 0; eq && i < x.values.length; i++) eq = compare('==', x.values[i], s.values[i], depth + 1);
    return op === '==' ? eq : !eq;
  }
  if (isComparable(x)) return x.compareSameType(op, y, depth);
  // identity comparison for everything else (None, functions, builtins, modules, host values)
  if (op === '==') return x === y;
  if (op === '!=') return x !== y;
  if (x === None) return fail(`NoneType ${op} NoneType not implemented`);
  return fail(`${nx} ${op} ${ny} not implemented`);
}

function compareSeq(op: string, a: readonly Value[], b: readonly Value[], depth: number): boolean {
  if ((op === '==' || op === '!=') && a.length !== b.length) return op === '!=';
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ai = a[i],
      bi = b[i];
    // Identical primitives are equal; containers are compared element-wise even when identical
    // (google/starlark-go value.go sliceCompare has no identity shortcut: a self-cycle exceeds the
    // recursion limit).
    if (ai === bi && typeof ai !== 'object') continue;
    if (!compare('==', ai, bi, depth + 1)) {
      if (op === '==') return false;
      if (op === '!=') return true;
      return compare(op, ai, bi, depth + 1);
    }
  }
  return fromCmp(op, a.length - b.length);
}

function dictEqual(x: Dict, y: Dict, depth: number): boolean {
  if (x.size !== y.size) return false;
  for (const [hk, v] of x.map) {
    const w = y.map.get(hk);
    if (w === undefined || !compare('==', v, w, depth + 1)) return false;
  }
  return true;
}

function compareSets(op: string, x: StarlarkSet, y: StarlarkSet): boolean {
  const sub = (a: StarlarkSet, b: StarlarkSet): boolean => {
    if (a.size > b.size) return false;
    for (const hk of a.map.keys()) if (!b.map.has(hk)) return false;
    return true;
  };
  switch (op) {
    case '==':
      return x.size === y.size && sub(x, y);
    case '!=':
      return !(x.size === y.size && sub(x, y));
    case '<=':
      return sub(x, y);
    case '<':
      return x.size < y.size && sub(x, y);
    case '>=':
      return sub(y, x);
    default:
      return x.size > y.size && sub(y, x);
  }
}

/** Total order used by `sorted`, `min`, `max`: negative, zero or positive. Throws for unordered types. */
export function order(x: Value, y: Value): number {
  if (typeof x === 'number' && typeof y === 'number') return x < y ? -1 : x > y ? 1 : 0;
  if (typeof x === 'string' && typeof y === 'string') return x < y ? -1 : x > y ? 1 : 0;
  if (compare('<', x, y)) return -1;
  if (compare('<', y, x)) return 1;
  return 0;
}
