/**
 * `struct(**kw)` values (fields sorted by name, read-only, hashable when the fields are; `a + b`
 * is a new struct with the fields of both, `b`'s winning) and `module` values (`<module "json">`, attribute namespace for library modules).
 */
import type { Value } from './contract.ts';
import { encodeElems } from './hashkey.ts';
import { freeze } from './freeze.ts';

export class Struct {
  readonly starlarkType = 'struct';
  /** Field names sorted; values aligned. */
  readonly names: readonly string[];
  readonly values: readonly Value[];
  constructor(fields: Iterable<[string, Value]>) {
    const sorted = [...fields].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    this.names = sorted.map((f) => f[0]);
    this.values = sorted.map((f) => f[1]);
  }
  attr(name: string): Value | undefined {
    const i = this.names.indexOf(name);
    return i < 0 ? undefined : this.values[i];
  }
  attrNames(): string[] {
    return [...this.names];
  }
  /**
   * `struct + struct`: google/starlark-go starlarkstruct/struct.go `Struct.Binary` at HEAD. Every
   * struct krmfn makes has the `struct` constructor, so the "different constructors" case cannot
   * arise.
   */
  binaryOp(op: string, other: Value, side: 'left' | 'right'): Value | undefined {
    if (op !== '+' || !(other instanceof Struct)) return undefined;
    const [x, y] = side === 'left' ? [this, other] : [other, this];
    const merged = new Map<string, Value>();
    x.names.forEach((n, i) => merged.set(n, x.values[i]));
    y.names.forEach((n, i) => merged.set(n, y.values[i]));
    return new Struct(merged);
  }
  hashKey(): string {
    return '\u0104' + this.names.join(',') + encodeElems(this.values);
  }
  freeze(): void {
    freeze(this);
  }
  freezeChildren(): readonly Value[] {
    return this.values;
  }
}

export class Module {
  readonly starlarkType = 'module';
  /** starlarkstruct.Module.Hash's text (google/starlark-go HEAD module.star). */
  readonly unhashable = 'unhashable: module';
  readonly name: string;
  readonly members: Readonly<Record<string, Value>>;
  constructor(name: string, members: Readonly<Record<string, Value>>) {
    this.name = name;
    this.members = members;
  }
  attr(name: string): Value | undefined {
    return Object.prototype.hasOwnProperty.call(this.members, name) ? this.members[name] : undefined;
  }
  attrNames(): string[] {
    return Object.keys(this.members).sort();
  }
  freeze(): void {
    freeze(this);
  }
  freezeChildren(): readonly Value[] {
    return Object.values(this.members);
  }
}

export const isStruct = (x: unknown): x is Struct => x instanceof Struct;
export const isModule = (x: unknown): x is Module => x instanceof Module;
