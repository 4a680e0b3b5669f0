/**
 * Method tables of the built-in types, looked up by `getAttr`. Each entry is an unbound Builtin;
 * `getAttr` binds it to the receiver. Tables are frozen module constants (no mutable registry).
 */
import type { Value } from '../value/contract.ts';
import type { MethodTable } from '../value/builtin.ts';
import { List } from '../value/list.ts';
import { Dict, StarlarkSet } from '../value/hashtable.ts';
import { Bytes } from '../value/bytes.ts';
import { stringMethods, bytesMethods } from './string-methods.ts';
import { listMethods } from './list-methods.ts';
import { dictMethods } from './dict-methods.ts';
import { setMethods } from './set-methods.ts';

/** The method table for `x`'s type, or null when the type has no built-in methods. */
export function methodsFor(x: Value): MethodTable | null {
  if (typeof x === 'string') return stringMethods;
  if (typeof x !== 'object') return null;
  if (x instanceof List) return listMethods;
  if (x instanceof Dict) return dictMethods;
  if (x instanceof StarlarkSet) return setMethods;
  if (x instanceof Bytes) return bytesMethods;
  return null;
}
