/**
 * Builtin functions and bound methods (`len`, `"".join`). The implementation receives the
 * Builtin itself, so bound methods read their receiver from `self.recv` without a closure.
 */
import type { Callable, Kwargs, Thread, Value } from './contract.ts';
import { StarlarkEvalError } from '../errors.ts';

export type BuiltinImpl = (thread: Thread, args: Value[], kwargs: Kwargs, self: Builtin) => Value;

export class Builtin implements Callable {
  readonly starlarkType = 'builtin_function_or_method';
  readonly name: string;
  readonly impl: BuiltinImpl;
  /** The receiver of a bound method; undefined for plain functions. */
  readonly recv: Value | undefined;
  constructor(name: string, impl: BuiltinImpl, recv: Value | undefined = undefined) {
    this.name = name;
    this.impl = impl;
    this.recv = recv;
  }
  callInternal(thread: Thread, args: Value[], kwargs: Kwargs): Value {
    try {
      return this.impl(thread, args, kwargs, this);
    } catch (e) {
      // A result beyond the JS engine's string/array limits is a Starlark error, not a host crash.
      if (e instanceof RangeError && /Invalid (string|array|typed array) length/.test(e.message)) {
        throw new StarlarkEvalError(`${this.name}: result too large`);
      }
      throw e;
    }
  }
  /** Binds this method implementation to `recv`. */
  bind(recv: Value): Builtin {
    return new Builtin(this.name, this.impl, recv);
  }
}

export const isBuiltin = (x: unknown): x is Builtin => x instanceof Builtin;

/** The methods of a built-in type by name: unbound builtins that `getAttr` binds to the receiver. */
export type MethodTable = Readonly<Record<string, Builtin>>;
