/**
 * Deep freezing of module globals without recursion, so arbitrarily deep structures (a list
 * nested 100 000 times) freeze without exhausting the JS stack. Known containers are walked with
 * an explicit work list; any other value is frozen through the value layer's own `freeze`.
 * The result is the same as `freeze(x)` for each root.
 */
import type { Value } from '../value/contract.ts';
import { List, Tuple } from '../value/list.ts';
import { Hashtable } from '../value/hashtable.ts';
import { freeze } from '../value/freeze.ts';
import { StarlarkFunction } from './function.ts';

export function freezeDeep(roots: Iterable<Value>): void {
  const work: Value[] = [...roots];
  // Tuples have no frozen flag; remember them so shared sub-tuples are walked once.
  const seenTuples = new Set<Tuple>();
  while (work.length > 0) {
    const x = work.pop()!;
    if (typeof x !== 'object') continue;
    if (x instanceof List) {
      if (x.frozen) continue;
      x.frozen = true;
      for (const e of x.elems) if (typeof e === 'object') work.push(e);
    } else if (x instanceof Tuple) {
      if (seenTuples.has(x)) continue;
      seenTuples.add(x);
      for (const e of x.elems) if (typeof e === 'object') work.push(e);
    } else if (x instanceof Hashtable) {
      if (x.frozen) continue;
      x.frozen = true;
      for (const k of x.keys()) if (typeof k === 'object') work.push(k);
      for (const v of x.values()) if (typeof v === 'object') work.push(v);
    } else if (x instanceof StarlarkFunction) {
      if (x.frozen) continue;
      x.frozen = true;
      for (const d of x.defaults) if (d !== undefined && typeof d === 'object') work.push(d);
      for (const c of x.free) if (c.v !== undefined && typeof c.v === 'object') work.push(c.v);
    } else {
      freeze(x);
    }
  }
}
