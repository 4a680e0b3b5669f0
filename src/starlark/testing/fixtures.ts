/**
 * Values predeclared in every chunk by the test harness (docs/starlark.md, "Test files"): `hasfields()`,
 * `fibonacci` and `struct`. They plug into the value layer through its capability interfaces
 * (value/capabilities.ts), exactly as any host type would.
 */
import type { Value } from '../value/contract.ts';
import { None } from '../value/contract.ts';
import { Builtin } from '../value/builtin.ts';
import { List } from '../value/list.ts';
import { fail, failIn, failNoSuchAttr } from '../value/errors.ts';
import type {
  HasBinary,
  HasRepr,
  HasSetField,
  Freezable,
  IterableValue,
  StarlarkIterator,
  Unhashable,
} from '../value/capabilities.ts';
import { STRUCT_BUILTINS } from '../lib/universe.ts';

/** An object with arbitrary settable attributes, refusing names that start with "no". */
export class HasFields implements HasSetField, HasBinary, HasRepr, Freezable {
  readonly starlarkType = 'hasfields';
  private readonly fields = new Map<string, Value>();
  private frozen = false;
  attr(name: string): Value | undefined {
    return this.fields.get(name);
  }
  attrNames(): string[] {
    return [...this.fields.keys()].sort();
  }
  setField(name: string, v: Value): void {
    if (this.frozen) fail('cannot set field on a frozen hasfields');
    if (name.startsWith('no')) failNoSuchAttr(`no .${name} field`);
    this.fields.set(name, v);
  }
  freeze(): void {
    if (this.frozen) return;
    this.frozen = true;
    for (const v of this.fields.values()) {
      if (typeof v === 'object' && typeof (v as Partial<Freezable>).freeze === 'function') (v as Freezable).freeze();
    }
  }
  /** `list + hasfields` is 42: exercises `list += x` falling back to the binary operator. */
  binaryOp(op: string, other: Value, side: 'left' | 'right'): Value | undefined {
    return op === '+' && side === 'right' && other instanceof List ? 42 : undefined;
  }
  repr(out: string[]): void {
    out.push('hasfields');
  }
}

class FibIterator implements StarlarkIterator {
  private a = 0;
  private b = 1;
  next(): Value {
    const v = this.a;
    const n = this.a + this.b;
    this.a = this.b;
    this.b = n > Number.MAX_SAFE_INTEGER ? 0 : n; // wraps instead of leaving the safe-int range
    return v;
  }
  done(): void {}
}

/** The infinite iterable 0, 1, 1, 2, 3, 5, ... */
export class Fibonacci implements IterableValue, HasRepr, Unhashable {
  readonly starlarkType = 'fib';
  readonly unhashable = true;
  iterate(): StarlarkIterator {
    return new FibIterator();
  }
  repr(out: string[]): void {
    out.push('fib');
  }
}

export const hasfieldsBuiltin: Builtin = new Builtin('hasfields', (_t, args, kwargs) => {
  if (args.length > 0 || (kwargs !== null && kwargs.length > 0)) failIn('hasfields', 'unexpected arguments');
  return new HasFields();
});

/** Fresh predeclared fixtures for one chunk. */
export function harnessFixtures(): Record<string, Value> {
  return {
    hasfields: hasfieldsBuiltin,
    fibonacci: new Fibonacci(),
    struct: STRUCT_BUILTINS['struct'] ?? None,
  };
}
