/**
 * The insertion-ordered hash table behind dict and set (a JS Map over `keyOf` keys). Deleting and
 * re-inserting a key moves it to the end, as in starlark-go. All mutations go through
 * `checkMutable`, which enforces freezing and the iteration lock.
 */
import type { Value } from './contract.ts';
import type { StarlarkIterator } from './capabilities.ts';
import { fail } from './errors.ts';
import { keyOf } from './hashkey.ts';
import type { HashKey } from './hashkey.ts';
import { freeze } from './freeze.ts';

export class Hashtable {
  /** key → value (for sets, value is the element). */
  readonly map = new Map<HashKey, Value>();
  /** Original keys for entries whose hash key differs from the key (floats, tuples, bytes...). */
  origKeys: Map<HashKey, Value> | null = null;
  frozen = false;
  itercount = 0;
  /**
   * False until the first insertion: starlark-go allocates a table's buckets then, and its
   * `delete` on a table without buckets answers "not found" without hashing the key, so
   * `{}.pop([])` is a missing key, not an unhashable one (starlark/hashtable.go).
   */
  private allocated = false;

  get size(): number {
    return this.map.size;
  }
  checkMutable(verb: string): void {
    if (this.frozen) fail(`cannot ${verb} frozen hash table`);
    if (this.itercount > 0) fail(`cannot ${verb} hash table during iteration`);
  }
  /** Value for `k`, or undefined. Throws for unhashable `k`. */
  lookup(k: Value): Value | undefined {
    return this.map.get(keyOf(k));
  }
  has(k: Value): boolean {
    return this.map.has(keyOf(k));
  }
  insert(k: Value, v: Value): void {
    if (this.frozen || this.itercount > 0) this.checkMutable('insert into');
    const hk = keyOf(k);
    this.allocated = true;
    if (hk !== k && !this.map.has(hk)) (this.origKeys ??= new Map()).set(hk, k);
    this.map.set(hk, v);
  }
  /** Removes `k`; returns its value or undefined. */
  delete(k: Value): Value | undefined {
    this.checkMutable('delete from');
    if (!this.allocated) return undefined;
    const hk = keyOf(k);
    const v = this.map.get(hk);
    if (v === undefined) return undefined;
    this.map.delete(hk);
    this.origKeys?.delete(hk);
    return v;
  }
  /** Clearing an empty table is not a mutation (allowed even when frozen), as in starlark-go. */
  clear(): void {
    if (this.map.size === 0) return;
    this.checkMutable('clear');
    this.map.clear();
    this.origKeys = null;
  }
  keyFor(hk: HashKey): Value {
    if (this.origKeys !== null) {
      const o = this.origKeys.get(hk);
      if (o !== undefined) return o;
    }
    return hk as Value;
  }
  keys(): Value[] {
    const out: Value[] = [];
    for (const hk of this.map.keys()) out.push(this.keyFor(hk));
    return out;
  }
  values(): Value[] {
    return [...this.map.values()];
  }
  /** [key, value] pairs in order. */
  entries(): [Value, Value][] {
    const out: [Value, Value][] = [];
    for (const [hk, v] of this.map) out.push([this.keyFor(hk), v]);
    return out;
  }
  /** First entry, or undefined when empty. */
  first(): [Value, Value] | undefined {
    for (const [hk, v] of this.map) return [this.keyFor(hk), v];
    return undefined;
  }
  len(): number {
    return this.map.size;
  }
  iterate(): StarlarkIterator {
    this.itercount++;
    return new KeyIterator(this);
  }
  freeze(): void {
    freeze(this as unknown as Value);
  }
  freezeChildren(): readonly Value[] | null {
    if (this.frozen) return null;
    this.frozen = true;
    const out: Value[] = [];
    for (const [hk, v] of this.map) out.push(this.keyFor(hk), v);
    return out;
  }
}

class KeyIterator implements StarlarkIterator {
  private it: Iterator<HashKey> | null;
  private t: Hashtable | null;
  constructor(t: Hashtable) {
    this.t = t;
    this.it = t.map.keys();
  }
  next(): Value | undefined {
    if (this.it === null) return undefined;
    const r = this.it.next();
    if (r.done) return undefined;
    return this.t!.keyFor(r.value);
  }
  done(): void {
    if (this.t !== null) {
      this.t.itercount--;
      this.t = null;
      this.it = null;
    }
  }
}

export class Dict extends Hashtable {
  readonly starlarkType = 'dict';
  getKey(k: Value): Value | undefined {
    return this.lookup(k);
  }
  setKey(k: Value, v: Value): void {
    this.insert(k, v);
  }
}

export class StarlarkSet extends Hashtable {
  readonly starlarkType = 'set';
  add(k: Value): void {
    this.insert(k, k);
  }
}

export const isDict = (x: unknown): x is Dict => x instanceof Dict;
export const isSet = (x: unknown): x is StarlarkSet => x instanceof StarlarkSet;

/** Builds a dict from pairs (later keys win). */
export function dictOf(pairs: Iterable<[Value, Value]>): Dict {
  const d = new Dict();
  for (const [k, v] of pairs) d.insert(k, v);
  return d;
}
