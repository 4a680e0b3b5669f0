/**
 * Hash keys: every hashable Starlark value maps to a JS primitive (or, for identity-hashed
 * objects, the object itself) such that equal Starlark values give SameValueZero-equal keys.
 * Dicts and sets are then plain insertion-ordered JS Maps.
 *
 * - string → itself (binary strings only use chars 0..255, so prefixed keys below never collide)
 * - int → itself (normalised: safe ints are numbers, others bigints)
 * - float → the equal int when integral (so 1 and 1.0 collide, as spec §3.1 demands), else a
 *   '\u0100'-prefixed string; all NaNs share one key
 * - bool, None, functions, builtins → themselves
 * - bytes → '\u0103' + data; tuple → '\u0102' + encoded elements; host objects → `hashKey()`
 */
import type { Value } from './contract.ts';
import { None } from './contract.ts';
import { Float } from './float.ts';
import { Tuple, List } from './list.ts';
import { Bytes } from './bytes.ts';
import { hasHashKey, isUnhashable } from './capabilities.ts';
import { fail } from './errors.ts';
import { intFromIntegralDouble } from './int.ts';

export type HashKey = string | number | bigint | boolean | object;

let nextId = 1;
const ids = new WeakMap<object, number>();
function idOf(o: object): number {
  let id = ids.get(o);
  if (id === undefined) {
    id = nextId++;
    ids.set(o, id);
  }
  return id;
}

function floatKey(f: number): HashKey {
  if (Number.isInteger(f)) return intFromIntegralDouble(f);
  return '\u0100' + (Number.isNaN(f) ? 'nan' : String(f));
}

/** The hash key of `x`; throws `unhashable type: <type>` for mutable values. */
export function keyOf(x: Value): HashKey {
  switch (typeof x) {
    case 'string':
    case 'number':
    case 'bigint':
    case 'boolean':
      return x;
  }
  if (x instanceof Float) return floatKey(x.value);
  if (x instanceof Tuple) return '\u0102' + encodeElems(x.elems);
  if (x instanceof Bytes) return '\u0103' + x.data;
  if (x === None) return x;
  if (x instanceof List || isUnhashable(x)) unhashable(x);
  if (hasHashKey(x)) return x.hashKey();
  if (x.starlarkType === 'dict' || x.starlarkType === 'set') unhashable(x);
  return x; // identity-hashed (functions, builtins, modules, host objects)
}

function unhashable(x: Value & object): never {
  const u = (x as { unhashable?: unknown }).unhashable;
  if (typeof u === 'string') fail(u);
  fail(`unhashable type: ${(x as { starlarkType: string }).starlarkType}`);
}

/** Unambiguous encoding of a sequence of hashable values (for tuple and struct keys). */
export function encodeElems(elems: readonly Value[]): string {
  let s = '(';
  for (const e of elems) s += encodeKey(keyOf(e));
  return s + ')';
}

export function encodeKey(k: HashKey): string {
  switch (typeof k) {
    case 'string':
      return 's' + k.length + ':' + k;
    case 'number':
    case 'bigint':
      return 'n' + k + ';';
    case 'boolean':
      return k ? 'T' : 'F';
    default:
      return 'o' + idOf(k) + ';';
  }
}
