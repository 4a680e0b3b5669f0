/**
 * What the resolver attaches to the syntax tree, read by the compiler.
 *
 * - `local`: a slot in the frame's locals (`index`); `cell` is a local captured by a nested
 *   function (the slot holds a `Cell`); `free` indexes the function's captured cells.
 * - `global`: a slot in the module's globals; `filelocal`: a slot for `load`-bound names.
 * - `predeclared` / `universal`: host-supplied / builtin names, looked up by `name`.
 */
import type { File, FunctionNode, Ident } from '../syntax/ast.ts';
import type { Pos } from '../syntax/tokens.ts';

export type Scope = 'local' | 'cell' | 'free' | 'global' | 'filelocal' | 'predeclared' | 'universal' | 'undefined';

export interface Binding {
  scope: Scope;
  index: number;
  /** Binary name. */
  name: string;
  /** First binding occurrence (null for predeclared/universal/free). */
  first: Pos | null;
}

/** A captured variable of a function: where to find it in the enclosing function at closure time. */
export interface FreeVar {
  name: string;
  /** The enclosing function's binding: a `cell` (its local slot) or `free` (its own capture). */
  outer: Binding;
}

export interface FunctionScope {
  /** All local slots: parameters first (positional, keyword-only, *args, **kwargs), then others. */
  locals: Binding[];
  freevars: FreeVar[];
  /** Number of parameters excluding *args/**kwargs (positional + keyword-only). */
  numParams: number;
  numKwonly: number;
  hasVarargs: boolean;
  hasKwargs: boolean;
}

/** The binding the resolver attached to `id` (the syntax tree holds it as an opaque slot). */
export function bindingOf(id: Ident): Binding {
  return id.b as Binding;
}

/** The scope the resolver attached to a function or to the module's top level. */
export function scopeOf(fn: FunctionNode | File): FunctionScope {
  return fn.scope as FunctionScope;
}
