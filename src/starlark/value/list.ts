/**
 * Starlark list and tuple. Both expose their backing array as `elems` for allocation-free access
 * by the evaluator and builtins; lists guard every mutation through `checkMutable`.
 */
import type { Value } from './contract.ts';
import type { StarlarkIterator } from './capabilities.ts';
import { fail } from './errors.ts';
import { freeze } from './freeze.ts';

/** Largest list `append` grows (V8 aborts the process near 2^27 elements). Same as ops.MAX_LIST. */
export const MAX_LIST_LENGTH = 1 << 26;

export class List {
  readonly starlarkType = 'list';
  /** Owned by this list. Read freely; mutate only after `checkMutable`. */
  elems: Value[];
  frozen = false;
  /** Number of live iterations; while > 0 every mutation fails. */
  itercount = 0;
  constructor(elems: Value[] = []) {
    this.elems = elems;
  }
  /** Throws `cannot <verb> frozen list` / `cannot <verb> list during iteration`. */
  checkMutable(verb: string): void {
    if (this.frozen) fail(`cannot ${verb} frozen list`);
    if (this.itercount > 0) fail(`cannot ${verb} list during iteration`);
  }
  append(v: Value): void {
    if (this.frozen || this.itercount > 0) this.checkMutable('append to');
    if (this.elems.length >= MAX_LIST_LENGTH) fail(`excessive list size (${this.elems.length + 1} elements)`);
    this.elems.push(v);
  }
  len(): number {
    return this.elems.length;
  }
  index(i: number): Value {
    return this.elems[i];
  }
  setIndex(i: number, v: Value): void {
    this.checkMutable('assign to element of');
    this.elems[i] = v;
  }
  iterate(): StarlarkIterator {
    this.itercount++;
    return new ListIterator(this);
  }
  freeze(): void {
    freeze(this);
  }
  freezeChildren(): readonly Value[] | null {
    if (this.frozen) return null;
    this.frozen = true;
    return this.elems;
  }
}

class ListIterator implements StarlarkIterator {
  private i = 0;
  private list: List | null;
  constructor(list: List) {
    this.list = list;
  }
  next(): Value | undefined {
    const l = this.list;
    if (l === null || this.i >= l.elems.length) return undefined;
    return l.elems[this.i++];
  }
  done(): void {
    if (this.list !== null) {
      this.list.itercount--;
      this.list = null;
    }
  }
}

export class Tuple {
  readonly starlarkType = 'tuple';
  /** Never mutated after construction. */
  readonly elems: readonly Value[];
  constructor(elems: readonly Value[]) {
    this.elems = elems;
  }
  len(): number {
    return this.elems.length;
  }
  index(i: number): Value {
    return this.elems[i];
  }
  iterate(): StarlarkIterator {
    return new ArrayIterator(this.elems);
  }
  freeze(): void {
    freeze(this);
  }
  freezeChildren(): readonly Value[] {
    return this.elems;
  }
}

export const EMPTY_TUPLE: Tuple = new Tuple(Object.freeze([]));

/** Iterates a snapshot array; no lock. */
export class ArrayIterator implements StarlarkIterator {
  private i = 0;
  private readonly a: readonly Value[];
  constructor(a: readonly Value[]) {
    this.a = a;
  }
  next(): Value | undefined {
    return this.i < this.a.length ? this.a[this.i++] : undefined;
  }
  done(): void {}
}

export const isList = (x: unknown): x is List => x instanceof List;
export const isTuple = (x: unknown): x is Tuple => x instanceof Tuple;
