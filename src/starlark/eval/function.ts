/**
 * User-defined Starlark functions (`def` and `lambda`): compiled code plus the values captured when
 * the `def` ran (defaults, free-variable cells). Argument binding follows starlark-go exactly,
 * including its error texts.
 */
import type { Callable, Kwargs, Thread, Value } from '../value/contract.ts';
import { None } from '../value/contract.ts';
import { Tuple, EMPTY_TUPLE } from '../value/list.ts';
import { Dict } from '../value/hashtable.ts';
import { freeze } from '../value/freeze.ts';
import { repr } from '../value/repr.ts';
import { fail } from '../value/errors.ts';
import { Cell, Frame } from './frame.ts';
import type { Slot } from './frame.ts';
import type { EvalThread } from './frame.ts';
import { toEvalError } from '../errors.ts';
import { binaryToHost } from '../syntax/utf8.ts';

/** A compiled statement: 0 = fall through, 1 = break, 2 = continue, 3 = return (value in `fr.ret`). */
export type Stmt = (fr: Frame) => number;

/** Compiled, immutable code of one function; shared by every closure made from the same `def`. */
export interface FuncCode {
  /** Binary name (`lambda` for lambdas). */
  readonly name: string;
  readonly file: string;
  readonly nlocals: number;
  /** Parameter names (binary): positional, keyword-only (then *args, **kwargs slots follow). */
  readonly paramNames: readonly string[];
  readonly numParams: number;
  readonly numKwonly: number;
  readonly hasVarargs: boolean;
  readonly hasKwargs: boolean;
  /** `numParams` when every parameter is positional (no *args, **kwargs, keyword-only), else -1:
   * a call with exactly that many positional arguments binds them directly. */
  readonly fastArity: number;
  /** Local slots that hold cells (captured by nested functions). */
  readonly cellSlots: readonly number[];
  readonly body: Stmt;
  /** The dialect allowed recursion when this function was compiled. */
  readonly recursion: boolean;
  /** Number of active calls (the recursion check). */
  active: number;
}

export class StarlarkFunction implements Callable {
  readonly starlarkType = 'function';
  readonly code: FuncCode;
  /** One entry per parameter (positional + keyword-only); undefined = required. */
  readonly defaults: (Value | undefined)[];
  readonly free: Cell[];
  /** Set once frozen (defaults and captured values are then frozen too). */
  frozen = false;
  constructor(code: FuncCode, defaults: (Value | undefined)[], free: Cell[]) {
    this.code = code;
    this.defaults = defaults;
    this.free = free;
  }
  get name(): string {
    return this.code.name;
  }
  callInternal(thread: Thread, args: Value[], kwargs: Kwargs): Value {
    return callFunction(thread as EvalThread, this, args, kwargs);
  }
  repr(out: string[]): void {
    out.push(`<function ${this.code.name}>`);
  }
  freeze(): void {
    if (this.frozen) return;
    this.frozen = true;
    for (const d of this.defaults) if (d !== undefined) freeze(d);
    for (const c of this.free) if (c.v !== undefined) freeze(c.v);
  }
}

function plural(n: number, word: string): string {
  return n === 1 ? word : word + 's';
}

/** Binds `args`/`kwargs` into a fresh locals array (starlark-go's rules and messages). */
export function bindArgs(fn: StarlarkFunction, args: Value[], kwargs: Kwargs): Slot[] {
  const code = fn.code;
  const locals = new Array<Slot>(code.nlocals);
  const nparams = code.numParams;
  if (nparams === 0 && !code.hasVarargs && !code.hasKwargs) {
    const given = args.length + (kwargs === null ? 0 : kwargs.length);
    if (given > 0) fail(`function ${code.name} accepts no arguments (${given} given)`);
    return locals;
  }
  const npos = nparams - code.numKwonly;
  let n = args.length;
  if (n > npos) {
    if (!code.hasVarargs) {
      if (npos === 0) fail(`function ${code.name} accepts no arguments (${n} given)`);
      let someDefault = false;
      for (let i = 0; i < npos; i++) if (fn.defaults[i] !== undefined) someDefault = true;
      fail(
        `function ${code.name} accepts ${someDefault ? 'at most ' : ''}${npos} ${plural(npos, 'positional argument')} (${n} given)`,
      );
    }
    n = npos;
  }
  for (let i = 0; i < n; i++) locals[i] = args[i];
  let slot = nparams;
  if (code.hasVarargs) {
    locals[slot++] = args.length > n ? new Tuple(args.slice(n)) : EMPTY_TUPLE;
  }
  let kwdict: Dict | null = null;
  if (code.hasKwargs) {
    kwdict = new Dict();
    locals[slot] = kwdict;
  }
  if (kwargs !== null) {
    const names = code.paramNames;
    for (const [k, v] of kwargs) {
      let i = -1;
      for (let j = 0; j < nparams; j++) {
        if (names[j] === k) {
          i = j;
          break;
        }
      }
      if (i >= 0) {
        if (locals[i] !== undefined) fail(`function ${code.name} got multiple values for parameter ${repr(k)}`);
        locals[i] = v;
        continue;
      }
      if (kwdict === null) fail(`function ${code.name} got an unexpected keyword argument ${repr(k)}`);
      const before = kwdict.size;
      kwdict.insert(k, v);
      if (kwdict.size === before) fail(`function ${code.name} got multiple values for parameter ${repr(k)}`);
    }
  }
  if (n < nparams) {
    let missing: string[] | null = null;
    for (let i = n; i < nparams; i++) {
      if (locals[i] !== undefined) continue;
      const d = fn.defaults[i];
      if (d === undefined) (missing ??= []).push(code.paramNames[i]);
      else locals[i] = d;
    }
    if (missing !== null) {
      fail(
        `function ${code.name} missing ${missing.length} ${plural(missing.length, 'argument')} (${missing.join(', ')})`,
      );
    }
  }
  return locals;
}

/** Calls a Starlark function: binding, depth/recursion checks, frame push, error tracing. */
export function callFunction(th: EvalThread, fn: StarlarkFunction, args: Value[], kwargs: Kwargs): Value {
  const code = fn.code;
  if (--th.tick <= 0) th.poll();
  let locals: Slot[];
  if (kwargs === null && args.length === code.fastArity) {
    // Fast path: exactly the positional parameters.
    locals = args.length === code.nlocals ? args : args.concat(new Array(code.nlocals - args.length));
  } else {
    locals = bindArgs(fn, args, kwargs);
  }
  return enter(th, fn, locals);
}

/** Runs `fn`'s body with bound `locals` (which it takes ownership of). */
export function enter(th: EvalThread, fn: StarlarkFunction, locals: Slot[]): Value {
  const code = fn.code;
  if (code.active > 0 && !code.recursion) fail(`function ${code.name} called recursively`);
  if (th.depth >= th.maxDepth) th.overflow();
  const cells = code.cellSlots;
  for (let i = 0; i < cells.length; i++) {
    const s = cells[i];
    locals[s] = new Cell(locals[s] as Value | undefined);
  }
  const fr = new Frame(th, locals, fn.free, code.name, code.file);
  th.frames.push(fr);
  th.depth++;
  code.active++;
  try {
    code.body(fr);
    const r = fr.ret;
    return r === undefined ? None : r;
  } catch (e) {
    throw traced(th, e);
  } finally {
    code.active--;
    th.depth--;
    th.frames.pop();
  }
}

/**
 * Converts `e` to a Starlark error and, the first time, attaches the current call stack and
 * decodes the message (value-layer messages are binary strings) for the host.
 */
export function traced(th: EvalThread, e: unknown): Error {
  const err = toEvalError(e);
  if (!err.traced) {
    err.traced = true;
    err.message = binaryToHost(err.message);
    err.backtrace = th.callStack();
  }
  return err;
}
