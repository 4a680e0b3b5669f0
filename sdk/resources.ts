/**
 * `Resources`: the items of a ResourceList, in input order (docs/sdk.md, "Design"). New items are
 * appended; nothing is sorted or de-duplicated silently (`duplicates()` reports same-identity
 * items). The permission of the call decides what may change: validators get a read-only list,
 * generators may add but not remove.
 */
import { KrmfnError } from '../src/core/errors.ts';
import { isKubeObject, KubeObject, ReadOnlyError } from '../src/core/kube-object.ts';
import type { Predicate } from './selectors.ts';

export type ListAccess = 'mutable' | 'append-only' | 'read-only';

export interface ObjectRef {
  apiVersion?: string;
  kind: string;
  name: string;
  namespace?: string;
}

/** `apiVersion/kind/namespace/name`: the key `upsert` and `duplicates` use. */
export function identityKey(o: KubeObject): string {
  return `${o.apiVersion}/${o.kind}/${o.namespace}/${o.name}`;
}

export class Resources implements Iterable<KubeObject> {
  readonly #items: KubeObject[];
  readonly #access: ListAccess;
  /** Applied to objects added during the call, so they get the existing items' access and policy. */
  readonly #prepare: (o: KubeObject, fromPlainData: boolean) => void;

  constructor(
    items: readonly KubeObject[] = [],
    access: ListAccess = 'mutable',
    prepare: (o: KubeObject, fromPlainData: boolean) => void = () => {},
  ) {
    this.#items = [...items];
    this.#access = access;
    this.#prepare = prepare;
  }

  /** A snapshot of the items, in order. */
  get all(): KubeObject[] {
    return [...this.#items];
  }
  get length(): number {
    return this.#items.length;
  }
  [Symbol.iterator](): Iterator<KubeObject> {
    return [...this.#items][Symbol.iterator]();
  }
  toArray(): KubeObject[] {
    return [...this.#items];
  }

  where(p: Predicate): KubeObject[] {
    return this.#items.filter(p);
  }
  whereNot(p: Predicate): KubeObject[] {
    return this.#items.filter((o) => !p(o));
  }
  find(p: Predicate): KubeObject | undefined {
    return this.#items.find(p);
  }
  ofKind(kind: string, apiVersion?: string): KubeObject[] {
    return this.#items.filter((o) => o.kind === kind && (apiVersion === undefined || o.apiVersion === apiVersion));
  }
  ofGroupKind(group: string, kind: string): KubeObject[] {
    return this.#items.filter((o) => o.group === group && o.kind === kind);
  }
  /** The first item with this identity (apiVersion optional; namespace '' when absent). */
  get(ref: ObjectRef): KubeObject | undefined {
    return this.#items.find(
      (o) =>
        o.kind === ref.kind &&
        o.name === ref.name &&
        o.namespace === (ref.namespace ?? '') &&
        (ref.apiVersion === undefined || o.apiVersion === ref.apiVersion),
    );
  }

  /** Appends an object (a KubeObject or plain data) and returns it. */
  add(obj: KubeObject | Record<string, unknown>): KubeObject {
    if (this.#access === 'read-only') throw new ReadOnlyError('the item list');
    const o = isKubeObject(obj) ? obj : KubeObject.fromJS(obj);
    this.#prepare(o, !isKubeObject(obj));
    this.#items.push(o);
    return o;
  }

  /**
   * Replaces the first item with the same apiVersion/kind/namespace/name (in its position, keeping
   * the old item's file annotations when the new one has none), or appends. Returns the stored object.
   */
  upsert(obj: KubeObject | Record<string, unknown>): KubeObject {
    if (this.#access === 'read-only') throw new ReadOnlyError('the item list');
    const o = isKubeObject(obj) ? obj : KubeObject.fromJS(obj);
    const key = identityKey(o);
    const i = this.#items.findIndex((x) => identityKey(x) === key);
    if (i < 0) {
      this.#prepare(o, !isKubeObject(obj));
      this.#items.push(o);
      return o;
    }
    if (this.#access === 'append-only') throw new ReadOnlyError('existing items (generators may only add)');
    const old = this.#items[i];
    const src = old.source;
    if (src && !o.source) o.setSource(src);
    this.#prepare(o, !isKubeObject(obj));
    this.#items[i] = o;
    return o;
  }

  /**
   * Puts `next` in `old`'s place, as a container emits a different resource at that position: a
   * list operation (mutable lists only), so `next` carries none of `old`'s annotations unless the
   * caller copied them. Returns the stored object; throws `usage` when `old` is not in the list.
   */
  replace(old: KubeObject, next: KubeObject | Record<string, unknown>): KubeObject {
    if (this.#access !== 'mutable') throw new ReadOnlyError('the item list');
    const i = this.#items.indexOf(old);
    if (i < 0) throw new KrmfnError({ code: 'usage', message: 'replace: the object is not in the list' });
    const o = isKubeObject(next) ? next : KubeObject.fromJS(next);
    this.#prepare(o, !isKubeObject(next));
    this.#items[i] = o;
    return o;
  }

  /** Removes an object or every object matching a predicate; returns how many were removed. */
  remove(target: KubeObject | Predicate): number {
    if (this.#access !== 'mutable') throw new ReadOnlyError('the item list');
    const drop = typeof target === 'function' ? target : (o: KubeObject): boolean => o === target;
    let n = 0;
    for (let i = this.#items.length - 1; i >= 0; i--) {
      if (drop(this.#items[i])) {
        this.#items.splice(i, 1);
        n++;
      }
    }
    return n;
  }

  /** Items grouped by a key, groups in first-seen order. */
  groupBy<K>(key: (o: KubeObject) => K): Map<K, KubeObject[]> {
    const m = new Map<K, KubeObject[]>();
    for (const o of this.#items) {
      const k = key(o);
      const g = m.get(k);
      if (g) g.push(o);
      else m.set(k, [o]);
    }
    return m;
  }

  /** Groups of two or more items sharing apiVersion/kind/namespace/name. */
  duplicates(): KubeObject[][] {
    return [...this.groupBy(identityKey).values()].filter((g) => g.length > 1);
  }
}
