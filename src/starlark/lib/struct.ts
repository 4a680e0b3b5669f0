/** `struct(**kw)` and `module(name, **kw)` builtins (starlark-go's starlarkstruct). */
import { Builtin } from '../value/builtin.ts';
import { Struct, Module } from '../value/struct.ts';
import { failIn } from '../value/errors.ts';
import { wantString } from './args.ts';
import type { Value } from '../value/contract.ts';

export const structBuiltin: Builtin = new Builtin('struct', (_t, args, kwargs) => {
  if (args.length > 0) failIn('struct', 'unexpected positional arguments');
  return new Struct(kwargs ?? []);
});

export const moduleBuiltin: Builtin = new Builtin('module', (_t, args, kwargs) => {
  if (args.length !== 1) failIn('module', `got ${args.length} arguments, want 1`);
  const name = wantString('module', 1, args[0]);
  const members: Record<string, Value> = {};
  for (const [k, v] of kwargs ?? []) members[k] = v;
  return new Module(name, members);
});
