/**
 * Attribute access on any value (`x.name`, `getattr`, `hasattr`, `dir`): the method tables of the
 * built-in types first, then the object's own attributes (the `HasAttrs` capability). Lives in lib/
 * because the method tables do: the value layer below does not know them.
 */
import type { Value } from '../value/contract.ts';
import { hasAttrs } from '../value/capabilities.ts';
import { fail } from '../value/errors.ts';
import { typeNameOf } from '../value/repr.ts';
import { Struct } from '../value/struct.ts';
import { nearest } from '../spell.ts';
import { methodsFor } from './methods.ts';

/** `x.name`: methods of built-in types, then the object's own attributes. */
export function getAttr(x: Value, name: string): Value {
  const methods = methodsFor(x);
  if (methods !== null) {
    const m = methods[name];
    if (m !== undefined) return m.bind(x);
  }
  if (typeof x === 'object' && hasAttrs(x)) {
    const v = x.attr(name);
    if (v !== undefined) return v;
  }
  return fail(noAttrMessage(x, name));
}

/** The attribute error text, with a spelling hint. */
export function noAttrMessage(x: Value, name: string): string {
  if (x instanceof Struct) return `struct has no .${name} attribute`;
  const hint = nearest(name, attrNames(x));
  return `${typeNameOf(x)} has no .${name} field or method${hint ? ` (did you mean .${hint}?)` : ''}`;
}

/** `hasattr`-style probe: the attribute or undefined. */
export function getAttrOrUndefined(x: Value, name: string): Value | undefined {
  const methods = methodsFor(x);
  if (methods !== null && methods[name] !== undefined) return methods[name].bind(x);
  if (typeof x === 'object' && hasAttrs(x)) return x.attr(name);
  return undefined;
}

/** Sorted attribute names (`dir(x)`). */
export function attrNames(x: Value): string[] {
  const names: string[] = [];
  const methods = methodsFor(x);
  if (methods !== null) names.push(...Object.keys(methods));
  if (typeof x === 'object' && hasAttrs(x)) names.push(...x.attrNames());
  return [...new Set(names)].sort();
}
