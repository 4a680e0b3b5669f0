/** Methods of set (spec §9). */
import type { Kwargs, Value } from '../value/contract.ts';
import { None } from '../value/contract.ts';
import { Builtin } from '../value/builtin.ts';
import { StarlarkSet } from '../value/hashtable.ts';
import { failIn, prefixed } from '../value/errors.ts';
import { isIterableValue, toArray } from '../value/ops.ts';
import { typeNameOf } from '../value/repr.ts';
import { positional } from './args.ts';
import type { MethodTable } from '../value/builtin.ts';

type SetImpl = (s: StarlarkSet, args: Value[], kwargs: Kwargs, name: string) => Value;

function method(name: string, f: SetImpl): Builtin {
  return new Builtin(name, (_t, args, kwargs, self) => f(self.recv as StarlarkSet, args, kwargs, name));
}

/** Elements of argument #i (1-based), with `<name>: argument #i is not iterable: <type>`. */
function elemsOf(name: string, x: Value, i: number): Value[] {
  if (x instanceof StarlarkSet) return x.keys();
  if (!isIterableValue(x)) failIn(name, `argument #${i} is not iterable: ${typeNameOf(x)}`);
  return prefixed(name, () => toArray(x));
}

function one(name: string, args: Value[], kwargs: Kwargs): Value[] {
  positional(name, args, kwargs, 1, 1);
  return elemsOf(name, args[0], 1);
}

function probe(name: string, s: StarlarkSet, x: Value): boolean {
  return prefixed(name, () => s.has(x));
}

const table: Record<string, SetImpl> = {
  add: (s, args, kwargs, name) => {
    positional(name, args, kwargs, 1, 1);
    prefixed(name, () => s.add(args[0]));
    return None;
  },
  clear: (s, args, kwargs, name) => {
    positional(name, args, kwargs, 0, 0);
    prefixed(name, () => s.clear());
    return None;
  },
  difference: (s, args, kwargs, name) => {
    const other = new StarlarkSet();
    for (const v of one(name, args, kwargs)) prefixed(name, () => other.add(v));
    const r = new StarlarkSet();
    for (const k of s.keys()) if (!other.has(k)) r.add(k);
    return r;
  },
  discard: (s, args, kwargs, name) => {
    positional(name, args, kwargs, 1, 1);
    prefixed(name, () => {
      s.checkMutable('delete from');
      if (s.has(args[0])) s.delete(args[0]);
    });
    return None;
  },
  intersection: (s, args, kwargs, name) => {
    const other = new StarlarkSet();
    for (const v of one(name, args, kwargs)) prefixed(name, () => other.add(v));
    const r = new StarlarkSet();
    for (const k of s.keys()) if (other.has(k)) r.add(k);
    return r;
  },
  issubset: (s, args, kwargs, name) => {
    const other = new StarlarkSet();
    for (const v of one(name, args, kwargs)) prefixed(name, () => other.add(v));
    for (const k of s.keys()) if (!other.has(k)) return false;
    return true;
  },
  issuperset: (s, args, kwargs, name) => {
    for (const v of one(name, args, kwargs)) if (!probe(name, s, v)) return false;
    return true;
  },
  pop: (s, args, kwargs, name) => {
    positional(name, args, kwargs, 0, 0);
    const first = s.first();
    if (first === undefined) failIn(name, 'empty set');
    prefixed(name, () => s.delete(first[0]));
    return first[0];
  },
  remove: (s, args, kwargs, name) => {
    positional(name, args, kwargs, 1, 1);
    const v = prefixed(name, () => s.delete(args[0]));
    if (v === undefined) failIn(name, 'missing key');
    return None;
  },
  symmetric_difference: (s, args, kwargs, name) => {
    const other = new StarlarkSet();
    for (const v of one(name, args, kwargs)) prefixed(name, () => other.add(v));
    const r = new StarlarkSet();
    for (const k of s.keys()) if (!other.has(k)) r.add(k);
    for (const k of other.keys()) if (!s.has(k)) r.add(k);
    return r;
  },
  union: (s, args, kwargs, name) => {
    positional(name, args, kwargs, 0, Infinity);
    const r = new StarlarkSet();
    for (const k of s.keys()) r.add(k);
    args.forEach((a, i) => {
      for (const v of elemsOf(name, a, i + 1)) prefixed(name, () => r.add(v));
    });
    return r;
  },
  update: (s, args, kwargs, name) => {
    if (kwargs !== null && kwargs.length > 0) failIn(name, 'does not accept keyword arguments');
    positional(name, args, kwargs, 0, Infinity);
    prefixed(name, () => s.checkMutable('insert into'));
    args.forEach((a, i) => {
      for (const v of elemsOf(name, a, i + 1)) prefixed(name, () => s.add(v));
    });
    return None;
  },
};

export const setMethods: MethodTable = Object.freeze(
  Object.fromEntries(Object.entries(table).map(([k, f]) => [k, method(k, f)])),
);
