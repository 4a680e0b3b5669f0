/** Methods of list (spec §9): append clear extend index insert pop remove. */
import type { Kwargs, Thread, Value } from '../value/contract.ts';
import { hasLen } from '../value/capabilities.ts';
import { None } from '../value/contract.ts';
import { Builtin } from '../value/builtin.ts';
import { type List, MAX_LIST_LENGTH } from '../value/list.ts';
import { failIn, prefixed } from '../value/errors.ts';
import { equal, isIterableValue, toArray } from '../value/ops.ts';
import { positional, wantInt, wrongType } from './args.ts';
import type { MethodTable } from '../value/builtin.ts';

type ListImpl = (l: List, args: Value[], kwargs: Kwargs, name: string, thread: Thread) => Value;

function method(name: string, f: ListImpl): Builtin {
  return new Builtin(name, (thread, args, kwargs, self) => f(self.recv as List, args, kwargs, name, thread));
}

const mutable = (l: List, name: string, verb: string): void => {
  if (l.frozen || l.itercount > 0) prefixed(name, () => l.checkMutable(verb));
};

const table: Record<string, ListImpl> = {
  append: (l, args, kwargs, name) => {
    if (kwargs !== null || args.length !== 1) positional(name, args, kwargs, 1, 1);
    mutable(l, name, 'append to');
    if (l.elems.length >= MAX_LIST_LENGTH) failIn(name, `excessive list size (${l.elems.length + 1} elements)`);
    l.elems.push(args[0]);
    return None;
  },
  clear: (l, args, kwargs, name) => {
    positional(name, args, kwargs, 0, 0);
    mutable(l, name, 'clear');
    l.elems.length = 0;
    return None;
  },
  extend: (l, args, kwargs, name, thread) => {
    positional(name, args, kwargs, 1, 1);
    mutable(l, name, 'extend');
    const x = args[0];
    if (!isIterableValue(x)) wrongType(name, 1, x, 'iterable');
    // Charged before a sized iterable (range, list, ...) is materialised.
    if (hasLen(x)) thread.alloc(8 * x.len());
    const items = prefixed(name, () => toArray(x));
    if (l.elems.length + items.length > MAX_LIST_LENGTH)
      failIn(name, `excessive list size (${l.elems.length + items.length} elements)`);
    for (const v of items) l.elems.push(v);
    return None;
  },
  index: (l, args, kwargs, name) => {
    positional(name, args, kwargs, 1, 3);
    const n = l.elems.length;
    const bound = (v: Value | undefined, label: number, dflt: number): number => {
      if (v === undefined || v === None) return dflt;
      let i = wantInt(name, label, v);
      if (i < 0) i = Math.max(0, i + n);
      return Math.min(i, n);
    };
    const a = bound(args[1], 2, 0),
      b = bound(args[2], 3, n);
    for (let i = a; i < b; i++) if (equal(l.elems[i], args[0])) return i;
    return failIn(name, 'value not in list');
  },
  insert: (l, args, kwargs, name) => {
    positional(name, args, kwargs, 2, 2);
    mutable(l, name, 'insert into');
    if (l.elems.length >= MAX_LIST_LENGTH) failIn(name, `excessive list size (${l.elems.length + 1} elements)`);
    const n = l.elems.length;
    let i = wantInt(name, 1, args[0]);
    if (i < 0) i = Math.max(0, i + n);
    if (i > n) i = n;
    l.elems.splice(i, 0, args[1]);
    return None;
  },
  pop: (l, args, kwargs, name) => {
    positional(name, args, kwargs, 0, 1);
    const n = l.elems.length;
    let i = args[0] === undefined ? n - 1 : wantInt(name, 1, args[0]);
    const orig = args[0] === undefined ? -1 : i;
    if (i < 0) i += n;
    if (i < 0 || i >= n) {
      if (n === 0) failIn(name, `index ${orig} out of range: empty list`);
      failIn(name, `list index ${orig} out of range [${-n}:${n - 1}]`);
    }
    mutable(l, name, 'pop from');
    return l.elems.splice(i, 1)[0];
  },
  remove: (l, args, kwargs, name) => {
    positional(name, args, kwargs, 1, 1);
    mutable(l, name, 'remove from');
    for (let i = 0; i < l.elems.length; i++) {
      if (equal(l.elems[i], args[0])) {
        l.elems.splice(i, 1);
        return None;
      }
    }
    return failIn(name, 'element not found');
  },
};

export const listMethods: MethodTable = Object.freeze(
  Object.fromEntries(Object.entries(table).map(([k, f]) => [k, method(k, f)])),
);
