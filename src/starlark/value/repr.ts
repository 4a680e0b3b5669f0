/**
 * `repr` and `str` for every value (spec §2): Go-style quoting, `%g` floats, `[...]`/`{...}` for
 * cycles. Writers append to an array that the entry points join once.
 */
import { chargeRunning } from './alloc-sink.ts';
import type { Value } from './contract.ts';
import { None } from './contract.ts';
import { Float, formatFloat } from './float.ts';
import { List, Tuple } from './list.ts';
import { Dict, StarlarkSet } from './hashtable.ts';
import { Bytes } from './bytes.ts';
import { Range } from './range.ts';
import { Builtin } from './builtin.ts';
import { Struct, Module } from './struct.ts';
import { quote, toValidUtf8 } from './string.ts';
import { hasRepr, hasStr } from './capabilities.ts';
import type { Callable } from './contract.ts';

export function repr(x: Value): string {
  if (typeof x === 'string') return quote(x);
  if (typeof x === 'number') return String(x);
  const out: string[] = [];
  writeValue(out, x, []);
  return out.join('');
}

/** `str(x)`: strings unquoted, bytes decoded (invalid UTF-8 → U+FFFD), else repr. */
export function str(x: Value): string {
  if (typeof x === 'string') return x;
  if (typeof x === 'number') return String(x);
  if (x instanceof Bytes) return toValidUtf8(x.data);
  if (typeof x === 'object' && hasStr(x)) return x.str();
  return repr(x);
}

/** Appends the repr of `x` to `out`. `path` holds the containers currently being written. */
export function writeValue(out: string[], x: Value, path: unknown[]): void {
  switch (typeof x) {
    case 'string':
      // Charged as produced: shared strings repeat in the text (see ./alloc-sink.ts).
      if (x.length > 64) chargeRunning(x.length + 2);
      out.push(quote(x));
      return;
    case 'number':
      out.push(String(x));
      return;
    case 'bigint':
      out.push(x.toString());
      return;
    case 'boolean':
      out.push(x ? 'True' : 'False');
      return;
  }
  if (x === None) {
    out.push('None');
    return;
  }
  if (x instanceof Float) {
    out.push(formatFloat(x.value));
    return;
  }
  if (x instanceof List) {
    if (path.includes(x)) {
      out.push('[...]');
      return;
    }
    path.push(x);
    out.push('[');
    writeElems(out, x.elems, path);
    out.push(']');
    path.pop();
    return;
  }
  if (x instanceof Tuple) {
    out.push('(');
    writeElems(out, x.elems, path);
    out.push(x.elems.length === 1 ? ',)' : ')');
    return;
  }
  if (x instanceof Dict) {
    if (path.includes(x)) {
      out.push('{...}');
      return;
    }
    path.push(x);
    out.push('{');
    let first = true;
    for (const [hk, v] of x.map) {
      if (!first) out.push(', ');
      first = false;
      writeValue(out, x.keyFor(hk), path);
      out.push(': ');
      writeValue(out, v, path);
    }
    out.push('}');
    path.pop();
    return;
  }
  if (x instanceof StarlarkSet) {
    if (path.includes(x)) {
      out.push('set(...)');
      return;
    }
    path.push(x);
    out.push('set([');
    writeElems(out, x.keys(), path);
    out.push('])');
    path.pop();
    return;
  }
  if (x instanceof Bytes) {
    if (x.data.length > 64) chargeRunning(x.data.length + 3);
    out.push(quote(x.data, true));
    return;
  }
  if (x instanceof Range) {
    const [a, b, k] = x.bounds();
    out.push(k !== 1 ? `range(${a}, ${b}, ${k})` : a !== 0 ? `range(${a}, ${b})` : `range(${b})`);
    return;
  }
  if (x instanceof Builtin) {
    if (x.recv !== undefined) out.push(`<built-in method ${x.name} of ${typeNameOf(x.recv)} value>`);
    else out.push(`<built-in function ${x.name}>`);
    return;
  }
  if (x instanceof Struct) {
    out.push('struct(');
    for (let i = 0; i < x.names.length; i++) {
      if (i > 0) out.push(', ');
      out.push(x.names[i], ' = ');
      writeValue(out, x.values[i], path);
    }
    out.push(')');
    return;
  }
  if (x instanceof Module) {
    out.push(`<module "${x.name}">`);
    return;
  }
  if (hasRepr(x)) {
    if (path.includes(x)) {
      out.push('...');
      return;
    }
    path.push(x);
    x.repr(out, path);
    path.pop();
    return;
  }
  if (x.starlarkType === 'function') {
    out.push(`<function ${(x as unknown as Callable).name}>`);
    return;
  }
  out.push(`<${x.starlarkType}>`);
}

function writeElems(out: string[], elems: readonly Value[], path: unknown[]): void {
  for (let i = 0; i < elems.length; i++) {
    if (i > 0) out.push(', ');
    writeValue(out, elems[i], path);
  }
}

/** `type(x)`. */
export function typeNameOf(x: Value): string {
  switch (typeof x) {
    case 'string':
      return 'string';
    case 'number':
    case 'bigint':
      return 'int';
    case 'boolean':
      return 'bool';
    default:
      return x.starlarkType;
  }
}
