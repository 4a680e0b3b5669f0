/**
 * Compiled calls, including `*args`/`**kwargs` unpacking with starlark-go's error texts.
 */
import type { Value } from '../value/contract.ts';
import { List, Tuple } from '../value/list.ts';
import { Dict } from '../value/hashtable.ts';
import { fail } from '../value/errors.ts';
import { getIndex, isIterableValue, toArray, typeName } from '../value/ops.ts';
import type { ArgKind } from '../syntax/ast.ts';
import type { Frame } from '../eval/frame.ts';
import { StarlarkFunction, callFunction } from '../eval/function.ts';
import { callOther } from '../eval/call.ts';
import type { Ex } from './runtime.ts';

/** One compiled argument of a call. */
export interface ArgPart {
  kind: ArgKind;
  name: string | null;
  x: Ex;
}

/**
 * A call `f(args)`. Calls with positional arguments only take a fast path (no argument
 * unpacking); Starlark functions are entered directly, other callables via `callOther`.
 */
export function callExpr(f: Ex, parts: ArgPart[], p: number): Ex {
  const simple = parts.every((a) => a.kind === 'pos');
  if (simple) {
    const xs = parts.map((a) => a.x);
    const n = xs.length;
    const invoke = (fr: Frame, fn: Value, a: Value[]): Value => {
      fr.pos = p;
      if (fn instanceof StarlarkFunction) return callFunction(fr.th, fn, a, null);
      return callOther(fr.th, fn, a, null);
    };
    switch (n) {
      case 0:
        return (fr) => invoke(fr, f(fr), []);
      case 1: {
        const a0 = xs[0];
        return (fr) => {
          const fn = f(fr);
          return invoke(fr, fn, [a0(fr)]);
        };
      }
      case 2: {
        const a0 = xs[0],
          a1 = xs[1];
        return (fr) => {
          const fn = f(fr);
          const v0 = a0(fr);
          return invoke(fr, fn, [v0, a1(fr)]);
        };
      }
      default:
        return (fr) => {
          const fn = f(fr);
          const a = new Array<Value>(n);
          for (let i = 0; i < n; i++) a[i] = xs[i](fr);
          return invoke(fr, fn, a);
        };
    }
  }
  return (fr) => {
    const fn = f(fr);
    const pos: Value[] = [];
    let kw: [string, Value][] | null = null;
    for (const part of parts) {
      const v = part.x(fr);
      switch (part.kind) {
        case 'pos':
          pos.push(v);
          break;
        case 'named':
          (kw ??= []).push([part.name!, v]);
          break;
        case 'star': {
          if (v instanceof Tuple || v instanceof List) {
            for (const e of v.elems) pos.push(e);
          } else {
            fr.pos = p;
            if (!isIterableValue(v)) fail(`argument after * must be iterable, not ${typeName(v)}`);
            for (const e of toArray(v)) pos.push(e);
          }
          break;
        }
        case 'starstar': {
          fr.pos = p;
          if (!(v instanceof Dict)) {
            if (
              typeof v === 'object' &&
              v !== null &&
              typeof (v as { getKey?: unknown }).getKey === 'function' &&
              isIterableValue(v)
            ) {
              for (const k of toArray(v)) {
                if (typeof k !== 'string') fail(`keywords must be strings, not ${typeName(k)}`);
                (kw ??= []).push([k, getIndex(v, k)]);
              }
              break;
            }
            fail(`argument after ** must be a mapping, not ${typeName(v)}`);
          }
          for (const k of v.keys()) {
            if (typeof k !== 'string') fail(`keywords must be strings, not ${typeName(k)}`);
            (kw ??= []).push([k, v.lookup(k)!]);
          }
          break;
        }
      }
    }
    fr.pos = p;
    if (fn instanceof StarlarkFunction) return callFunction(fr.th, fn, pos, kw);
    return callOther(fr.th, fn, pos, kw);
  };
}
