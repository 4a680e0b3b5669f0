/**
 * Optional capabilities a `StarlarkObject` may implement (starlark-go's optional interfaces).
 * The operator functions in ops.ts probe for them structurally, so host types (the evaluator's
 * functions, test fixtures, KRM bridges) plug in without importing value classes.
 *
 * Every method here is called only by ops.ts and lib/; clients call the ops, never these.
 */
import type { Callable, Value, StarlarkObject } from './contract.ts';

/** A live iteration. `next()` returns `undefined` at the end; `done()` must be called exactly once
 * (in a `finally`), which releases the container's mutation lock. */
export interface StarlarkIterator {
  next(): Value | undefined;
  done(): void;
}

/** Values a `for` loop can walk. */
export interface IterableValue extends StarlarkObject {
  iterate(): StarlarkIterator;
}

/** Values `len()` understands. */
export interface HasLen extends StarlarkObject {
  len(): number;
}

/** Integer-indexable sequences (`x[i]`), 0 <= i < len(). */
export interface Indexable extends HasLen {
  index(i: number): Value;
}

/** `x[i] = v` for sequences. */
export interface HasSetIndex extends Indexable {
  setIndex(i: number, v: Value): void;
}

/** `x[k]` for mappings; returns `undefined` when the key is absent (ops.ts builds the message). */
export interface Mapping extends StarlarkObject {
  getKey(k: Value): Value | undefined;
}

/** `x[k] = v` for mappings. */
export interface HasSetKey extends Mapping {
  setKey(k: Value, v: Value): void;
}

/** `x.name`. `attr` returns `undefined` when absent; `attrNames` feeds `dir()` and spell hints. */
export interface HasAttrs extends StarlarkObject {
  attr(name: string): Value | undefined;
  attrNames(): string[];
}

/** `x.name = v`. */
export interface HasSetField extends HasAttrs {
  setField(name: string, v: Value): void;
}

/** Custom binary operators. `side` is 'left' when this object is the left operand. Return
 * `undefined` when unsupported so ops.ts reports `unknown binary op`. */
export interface HasBinary extends StarlarkObject {
  binaryOp(op: string, other: Value, side: 'left' | 'right'): Value | undefined;
}

/** Ordered or equality comparison against a value of the same `starlarkType`. `depth` guards
 * against cycles (pass it on to nested `compare` calls). */
export interface Comparable extends StarlarkObject {
  compareSameType(op: string, other: Value, depth: number): boolean;
}

/** Hashable objects other than identity-hashed ones. `hashKey` returns a JS primitive that is equal
 * (SameValueZero) for equal values; `hash` is the 32-bit value `hash()`-style users see. */
export interface HasHashKey extends StarlarkObject {
  hashKey(): string | number | bigint | boolean;
}

/** Objects whose `repr` is not `<type>`. Append pieces to `out`; `path` holds the containers being
 * printed (for `[...]` cycle marks). */
export interface HasRepr extends StarlarkObject {
  repr(out: string[], path: unknown[]): void;
}

/** Objects with a custom `str()` (defaults to repr). */
export interface HasStr extends StarlarkObject {
  str(): string;
}

/** Objects whose truth is not always True. */
export interface HasTruth extends StarlarkObject {
  truth(): boolean;
}

/** Mutable objects: `freeze()` makes them (and what they reach) immutable, idempotently. */
export interface Freezable extends StarlarkObject {
  freeze(): void;
}

/** Objects that are never hashable even though they are immutable (range, views). The message
 * defaults to `unhashable type: <type>`. */
export interface Unhashable extends StarlarkObject {
  readonly unhashable: true | string;
}

// --- structural guards: the only place capability probing is spelled out -------------------------

type Obj = Record<string, unknown>;
const has = (x: Value, m: string): boolean => typeof x === 'object' && typeof (x as unknown as Obj)[m] === 'function';

export const isCallable = (x: Value): x is Callable => has(x, 'callInternal');
export const isIterable = (x: Value): x is IterableValue => has(x, 'iterate');
export const hasLen = (x: Value): x is HasLen => has(x, 'len');
export const isIndexable = (x: Value): x is Indexable => has(x, 'index') && has(x, 'len');
export const hasSetIndex = (x: Value): x is HasSetIndex => has(x, 'setIndex');
export const isMapping = (x: Value): x is Mapping => has(x, 'getKey');
export const hasSetKey = (x: Value): x is HasSetKey => has(x, 'setKey');
export const hasAttrs = (x: Value): x is HasAttrs => has(x, 'attr');
export const hasSetField = (x: Value): x is HasSetField => has(x, 'setField');
export const hasBinary = (x: Value): x is HasBinary => has(x, 'binaryOp');
export const isComparable = (x: Value): x is Comparable => has(x, 'compareSameType');
export const hasHashKey = (x: Value): x is HasHashKey => has(x, 'hashKey');
export const hasRepr = (x: Value): x is HasRepr => has(x, 'repr');
export const hasStr = (x: Value): x is HasStr => has(x, 'str');
export const hasTruth = (x: Value): x is HasTruth => has(x, 'truth');
export const isFreezable = (x: Value): x is Freezable => has(x, 'freeze');
export const isUnhashable = (x: Value): x is Unhashable =>
  typeof x === 'object' && (x as unknown as Obj)['unhashable'] !== undefined;
