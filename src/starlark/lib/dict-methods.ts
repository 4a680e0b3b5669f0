/** Methods of dict (spec §9): clear get items keys pop popitem setdefault update values. */
import type { Kwargs, Value } from '../value/contract.ts';
import { None } from '../value/contract.ts';
import { Builtin } from '../value/builtin.ts';
import { List, Tuple } from '../value/list.ts';
import { type Dict } from '../value/hashtable.ts';
import { failIn, prefixed, rethrowIn } from '../value/errors.ts';
import { positional } from './args.ts';
import { updateDict } from './dict-update.ts';
import type { MethodTable } from '../value/builtin.ts';

type DictImpl = (d: Dict, args: Value[], kwargs: Kwargs, name: string) => Value;

function method(name: string, f: DictImpl): Builtin {
  return new Builtin(name, (_t, args, kwargs, self) => f(self.recv as Dict, args, kwargs, name));
}

const table: Record<string, DictImpl> = {
  clear: (d, args, kwargs, name) => {
    positional(name, args, kwargs, 0, 0);
    // A frozen dict refuses clear() even when empty; a frozen empty set allows it
    // (google/starlark-go HEAD dict.star, set.star).
    prefixed(name, () => {
      d.checkMutable('clear');
      d.clear();
    });
    return None;
  },
  get: (d, args, kwargs, name) => {
    if (kwargs !== null || args.length < 1 || args.length > 2) positional(name, args, kwargs, 1, 2);
    let v: Value | undefined;
    try {
      v = d.lookup(args[0]);
    } catch (e) {
      rethrowIn(name, e);
    }
    return v !== undefined ? v : args.length > 1 ? args[1] : None;
  },
  items: (d, args, kwargs, name) => {
    positional(name, args, kwargs, 0, 0);
    return new List(d.entries().map(([k, v]) => new Tuple([k, v])));
  },
  keys: (d, args, kwargs, name) => {
    positional(name, args, kwargs, 0, 0);
    return new List(d.keys());
  },
  pop: (d, args, kwargs, name) => {
    positional(name, args, kwargs, 1, 2);
    const v = prefixed(name, () => d.delete(args[0]));
    if (v !== undefined) return v;
    if (args.length > 1) return args[1];
    return failIn(name, 'missing key');
  },
  popitem: (d, args, kwargs, name) => {
    positional(name, args, kwargs, 0, 0);
    const first = d.first();
    if (first === undefined) failIn(name, 'empty dict');
    prefixed(name, () => d.delete(first[0]));
    return new Tuple(first);
  },
  setdefault: (d, args, kwargs, name) => {
    positional(name, args, kwargs, 1, 2);
    const dflt = args.length > 1 ? args[1] : None;
    try {
      const v = d.lookup(args[0]);
      if (v !== undefined) return v;
      d.insert(args[0], dflt);
    } catch (e) {
      rethrowIn(name, e);
    }
    return dflt;
  },
  update: (d, args, kwargs, name) => {
    if (args.length > 1) failIn(name, `got ${args.length} arguments, want at most 1`);
    prefixed(name, () => updateDict(d, args[0], kwargs));
    return None;
  },
  values: (d, args, kwargs, name) => {
    positional(name, args, kwargs, 0, 0);
    return new List(d.values());
  },
};

export const dictMethods: MethodTable = Object.freeze(
  Object.fromEntries(Object.entries(table).map(([k, f]) => [k, method(k, f)])),
);
