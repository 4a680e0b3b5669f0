/**
 * Shared pieces of the closure compiler: closure types, statement completion codes, allocation
 * sizes charged to the budget, and the small runtime helpers compiled code calls.
 */
import type { Value } from '../value/contract.ts';
import { List } from '../value/list.ts';
import { Dict } from '../value/hashtable.ts';
import { fail } from '../value/errors.ts';
import { binary, isIterableValue, toArray, truth } from '../value/ops.ts';
import { hasLen } from '../value/capabilities.ts';
import type { Pos } from '../syntax/tokens.ts';
import { encodePos } from '../eval/frame.ts';
import type { Frame } from '../eval/frame.ts';

/** A compiled expression. */
export type Ex = (fr: Frame) => Value;
/** A compiled assignment target. */
export type Assign = (fr: Frame, v: Value) => void;

export const NORMAL = 0;
export const BREAK = 1;
export const CONTINUE = 2;
export const RETURN = 3;

export const MAX_SAFE = Number.MAX_SAFE_INTEGER;
export const SMALL_DIV = 0x7fffffff;
/** Strings longer than this count against the allocation budget when built by `+`. */
export const ALLOC_STRING_MIN = 256;
// Approximate sizes charged to the allocation budget (bytes).
export const LIST_BYTES = 32;
export const ELEM_BYTES = 8;
export const DICT_BYTES = 64;
export const ENTRY_BYTES = 48;
export const FUNCTION_BYTES = 64;

export function posOf(p: Pos): number {
  return encodePos(p.line, p.col);
}

/** `x if truth(x)`, with the boolean case inlined. */
export function isTrue(v: Value): boolean {
  return v === true ? true : v === false ? false : truth(v);
}

export function unboundLocal(fr: Frame, pos: number, name: string): never {
  fr.pos = pos;
  return fail(`local variable ${name} referenced before assignment`);
}

export function unboundGlobal(fr: Frame, pos: number, name: string): never {
  fr.pos = pos;
  return fail(`global variable ${name} referenced before assignment`);
}

/** `x op= y` semantics: in-place `list += iterable` and `dict |= dict`, else the binary op. */
export function augmented(fr: Frame, op: string, x: Value, y: Value): Value {
  if (op === '+' && x instanceof List && isIterableValue(y)) {
    x.checkMutable('apply += to');
    // A sized iterable (range, list, ...) is charged before it is materialised.
    const size = hasLen(y) ? y.len() : -1;
    if (size >= 0) fr.th.alloc(size * ELEM_BYTES);
    const items = toArray(y);
    if (size < 0) fr.th.alloc(items.length * ELEM_BYTES);
    for (let i = 0; i < items.length; i++) x.elems.push(items[i]);
    return x;
  }
  if (op === '|' && x instanceof Dict && y instanceof Dict && fr.th.release.has('dictUnion')) {
    x.checkMutable('apply |= to');
    for (const k of y.keys()) x.insert(k, y.lookup(k)!);
    return x;
  }
  return binaryOp(fr, op, x, y);
}

/** The general binary operator (after fast paths failed). */
export function binaryOp(fr: Frame, op: string, x: Value, y: Value): Value {
  const r = binary(op, x, y, fr.th);
  // String repetition charges itself before allocating.
  if (typeof r === 'string' && r.length > ALLOC_STRING_MIN && op !== '*') fr.th.alloc(r.length);
  return r;
}
