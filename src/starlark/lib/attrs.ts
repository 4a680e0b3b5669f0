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
import { STARLARK_GO_HEAD, type StarlarkGoChange, type StarlarkGoRelease } from '../release.ts';

/**
 * Methods that google/starlark-go added after some release a KRM image pins, by type and name: an
 * older release lacks them (src/starlark/release.ts).
 */
const METHOD_SINCE: Readonly<Record<string, Readonly<Record<string, StarlarkGoChange>>>> = {
  string: { removeprefix: 'stringRemoveAffix', removesuffix: 'stringRemoveAffix' },
  set: {
    add: 'setMutators',
    clear: 'setMutators',
    discard: 'setMutators',
    pop: 'setMutators',
    remove: 'setMutators',
    difference: 'setAlgebra',
    intersection: 'setAlgebra',
    issubset: 'setAlgebra',
    issuperset: 'setAlgebra',
    symmetric_difference: 'setAlgebra',
    update: 'setUpdate',
  },
};

/** The method `name` of a built-in type's value, if the release has it. */
function methodOf(x: Value, name: string, release: StarlarkGoRelease): Value | undefined {
  const methods = methodsFor(x);
  const m = methods?.[name];
  if (m === undefined) return undefined;
  if (release !== STARLARK_GO_HEAD) {
    const since = METHOD_SINCE[typeNameOf(x)]?.[name];
    if (since !== undefined && !release.has(since)) return undefined;
  }
  return m.bind(x);
}

/** `x.name`: methods of built-in types, then the object's own attributes. */
export function getAttr(x: Value, name: string, release: StarlarkGoRelease = STARLARK_GO_HEAD): Value {
  const m = methodOf(x, name, release);
  if (m !== undefined) return m;
  if (typeof x === 'object' && hasAttrs(x)) {
    const v = x.attr(name);
    if (v !== undefined) return v;
  }
  return fail(noAttrMessage(x, name, release));
}

/** The attribute error text, with a spelling hint. */
export function noAttrMessage(x: Value, name: string, release: StarlarkGoRelease = STARLARK_GO_HEAD): string {
  if (x instanceof Struct) return `struct has no .${name} attribute`;
  const hint = nearest(name, attrNames(x, release));
  return `${typeNameOf(x)} has no .${name} field or method${hint ? ` (did you mean .${hint}?)` : ''}`;
}

/** `hasattr`-style probe: the attribute or undefined. */
export function getAttrOrUndefined(
  x: Value,
  name: string,
  release: StarlarkGoRelease = STARLARK_GO_HEAD,
): Value | undefined {
  const m = methodOf(x, name, release);
  if (m !== undefined) return m;
  if (typeof x === 'object' && hasAttrs(x)) return x.attr(name);
  return undefined;
}

/** Sorted attribute names (`dir(x)`). */
export function attrNames(x: Value, release: StarlarkGoRelease = STARLARK_GO_HEAD): string[] {
  const names: string[] = [];
  const methods = methodsFor(x);
  if (methods !== null) for (const n of Object.keys(methods)) if (methodOf(x, n, release) !== undefined) names.push(n);
  if (typeof x === 'object' && hasAttrs(x)) names.push(...x.attrNames());
  return [...new Set(names)].sort();
}
