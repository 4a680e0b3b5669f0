/** The shared core of `dict(...)` and `d.update(...)`: pairs or a mapping, then keywords. */
import type { Kwargs, Value } from '../value/contract.ts';
import { Dict } from '../value/hashtable.ts';
import { List, Tuple } from '../value/list.ts';
import { fail } from '../value/errors.ts';
import { isIterableValue, len, toArray } from '../value/ops.ts';
import { typeNameOf } from '../value/repr.ts';
import { isMapping } from '../value/capabilities.ts';
import { quote } from '../value/string.ts';

/** Errors are unprefixed; callers add `dict: ` / `update: `. */
export function updateDict(d: Dict, x: Value | undefined, kwargs: Kwargs): void {
  if (x !== undefined) {
    if (x instanceof Dict) {
      for (const [k, v] of x.entries()) d.insert(k, v);
    } else if (typeof x === 'object' && isMapping(x) && typeof (x as { keys?: unknown }).keys === 'function') {
      for (const k of (x as unknown as { keys(): Value[] }).keys()) d.insert(k, x.getKey(k)!);
    } else {
      if (!isIterableValue(x)) fail(`got ${typeNameOf(x)}, want iterable`);
      const items = toArray(x);
      for (let i = 0; i < items.length; i++) {
        const p = items[i];
        let pair: readonly Value[];
        if (p instanceof Tuple || p instanceof List) pair = p.elems;
        else if (isIterableValue(p)) pair = toArray(p);
        else fail(`dictionary update sequence element #${i} is not iterable (${typeNameOf(p)})`);
        if (pair.length !== 2)
          fail(
            `dictionary update sequence element #${i} has length ${pair.length === undefined ? len(p) : pair.length}, want 2`,
          );
        d.insert(pair[0], pair[1]);
      }
    }
  }
  if (kwargs === null) return;
  for (const [k, v] of kwargs) d.insert(k, v);
  // `a=1, **{"a": 2}` passes one keyword twice (google/starlark-go HEAD library.go updateDict).
  if (kwargs.length > 1 && new Set(kwargs.map(([k]) => k)).size < kwargs.length) {
    const seen = new Set<string>();
    for (const [k] of kwargs) {
      if (seen.has(k)) fail(`duplicate keyword arg: ${quote(k)}`);
      seen.add(k);
    }
  }
}
