/**
 * `"fmt" % args` (spec §6) and `str.format` — starlark-go's subsets: no widths, precisions or
 * flags; `%F` is emitted literally; `{}` fields without format specs.
 */
import type { Value } from './contract.ts';
import { None } from './contract.ts';
import { Float, formatE, formatF, formatFloat } from './float.ts';
import { Tuple } from './list.ts';
import { Dict } from './hashtable.ts';
import { isMapping } from './capabilities.ts';
import { fail } from './errors.ts';
import { repr, str, typeNameOf } from './repr.ts';
import { decodeRuneAt, encodeRune } from './string.ts';
import { intFromIntegralDouble } from './int.ts';
import type { Int } from './int.ts';

/** int(x) for numbers as `%d` wants it: floats truncate, everything else is refused. */
function numberToInt(x: Value): Int {
  if (typeof x === 'number' || typeof x === 'bigint') return x;
  if (x instanceof Float) {
    const f = x.value;
    if (Number.isNaN(f)) fail('cannot convert float NaN to integer');
    if (!Number.isFinite(f)) fail('cannot convert float infinity to integer');
    return intFromIntegralDouble(Math.trunc(f));
  }
  return fail(`cannot convert ${typeNameOf(x)} to int`);
}

function lookupKey(mapping: Value, key: string): Value {
  if (mapping instanceof Dict) {
    const v = mapping.lookup(key);
    if (v === undefined) fail(`key not found: ${key}`);
    return v;
  }
  if (typeof mapping === 'object' && isMapping(mapping)) {
    const v = mapping.getKey(key);
    if (v === undefined) fail(`key not found: ${key}`);
    return v;
  }
  return fail('format requires a mapping');
}

/** `format % y`. */
export function percentFormat(format: string, y: Value): string {
  const args: readonly Value[] = y instanceof Tuple ? y.elems : [y];
  const isMap = y instanceof Dict || (typeof y === 'object' && y !== None && !(y instanceof Tuple) && isMapping(y));
  let out = '';
  let index = 0;
  let usedMapping = false;
  const n = format.length;
  for (let i = 0; i < n; i++) {
    const c0 = format.charCodeAt(i);
    if (c0 !== 37 /* % */) {
      let j = format.indexOf('%', i);
      if (j < 0) j = n;
      out += format.slice(i, j);
      i = j - 1;
      continue;
    }
    i++;
    if (i >= n) fail('incomplete format');
    let arg: Value | undefined;
    if (format[i] === '(') {
      const close = format.indexOf(')', i);
      if (close < 0) fail('incomplete format');
      const key = format.slice(i + 1, close);
      i = close + 1;
      if (i >= n) fail('incomplete format');
      if (!isMap) fail('format requires a mapping');
      arg = lookupKey(y, key);
      usedMapping = true;
    }
    const c = format[i];
    if (c === '%') {
      out += '%';
      continue;
    }
    if (arg === undefined) {
      if (!'srdioxXeEfFgGc'.includes(c)) fail(`unknown conversion %${c}`);
      if (index >= args.length) fail('not enough arguments for format string');
      arg = args[index++]!;
    }
    switch (c) {
      case 's':
        out += str(arg);
        break;
      case 'r':
        out += repr(arg);
        break;
      case 'd':
      case 'i':
      case 'o':
      case 'x':
      case 'X': {
        let v: Int;
        try {
          v = numberToInt(arg);
        } catch (e) {
          return fail(`%${c} format requires integer: ${(e as Error).message}`);
        }
        const radix = c === 'o' ? 8 : c === 'x' || c === 'X' ? 16 : 10;
        const s = v.toString(radix);
        out += c === 'X' ? s.toUpperCase() : s;
        break;
      }
      case 'e':
      case 'E':
      case 'f':
      case 'F':
      case 'g':
      case 'G': {
        let f: number;
        if (arg instanceof Float) f = arg.value;
        else if (typeof arg === 'number') f = arg;
        else if (typeof arg === 'bigint') f = Number(arg);
        else return fail(`%${c} format requires float, not ${typeNameOf(arg)}`);
        if (c === 'e' || c === 'E') out += formatE(f, c === 'E');
        else if (c === 'f') out += formatF(f);
        else if (c === 'F') out += '%F';
        else out += formatFloat(f, c === 'G');
        break;
      }
      case 'c':
        out += percentC(arg);
        break;
      default:
        fail(`unknown conversion %${c}`);
    }
  }
  if (!usedMapping && !isMap && index < args.length) fail('too many arguments for format string');
  if (!usedMapping && isMap && index < args.length && index > 0) fail('too many arguments for format string');
  return out;
}

function percentC(arg: Value): string {
  if (typeof arg === 'string') {
    const r = decodeRuneAt(arg, 0);
    if (arg.length === 0 || (r & 7) !== arg.length) fail('%c format requires a single-character string');
    return arg;
  }
  if (typeof arg === 'number' || typeof arg === 'bigint') {
    if (typeof arg === 'bigint' || arg < 0 || arg > 0x10ffff) {
      fail(`%c format requires a valid Unicode code point, got ${arg}`);
    }
    return encodeRune(arg);
  }
  return fail(`%c format requires int or single-character string, not ${typeNameOf(arg)}`);
}

/** `format.format(*args, **kwargs)`. `kwargs` lookups take binary-string names. */
export function strFormat(format: string, args: readonly Value[], kwargs: readonly [string, Value][] | null): string {
  let out = '';
  let auto: boolean | undefined;
  let next = 0;
  const n = format.length;
  for (let i = 0; i < n; i++) {
    const c = format[i];
    if (c === '}') {
      if (format[i + 1] === '}') {
        out += '}';
        i++;
        continue;
      }
      fail("format: single '}' in format");
    }
    if (c !== '{') {
      out += c;
      continue;
    }
    if (format[i + 1] === '{') {
      out += '{';
      i++;
      continue;
    }
    const close = format.indexOf('}', i + 1);
    if (close < 0) fail("format: unmatched '{' in format");
    let field = format.slice(i + 1, close);
    i = close;
    if (field.includes('{')) fail('format: nested replacement fields not supported');
    // field = name [ "!" conv ] [ ":" spec ]
    let spec = '';
    const colon = field.indexOf(':');
    if (colon >= 0) {
      spec = field.slice(colon + 1);
      field = field.slice(0, colon);
    }
    let conv = 's';
    const bang = field.indexOf('!');
    if (bang >= 0) {
      conv = field.slice(bang + 1);
      field = field.slice(0, bang);
      if (conv !== 's' && conv !== 'r') fail(`format: unknown conversion "${conv}"`);
    }
    if (spec !== '') fail(`format: format spec features not supported in replacement fields: ${spec}`);
    let arg: Value;
    if (field === '') {
      if (auto === false) fail('format: cannot switch from manual field specification to automatic field numbering');
      auto = true;
      if (next >= args.length) fail('format: tuple index out of range');
      arg = args[next++]!;
    } else if (/^[0-9]+$/.test(field)) {
      if (auto === true) fail('format: cannot switch from automatic field numbering to manual field specification');
      auto = false;
      const k = Number(field);
      if (k >= args.length) fail('format: tuple index out of range');
      arg = args[k]!;
    } else {
      if (field.includes('.')) fail('format: attribute syntax x.y is not supported in replacement fields');
      if (field.includes('[')) fail('format: element syntax a[i] is not supported in replacement fields');
      const kv = kwargs?.find((p) => p[0] === field);
      if (kv === undefined) fail(`format: keyword ${field} not found`);
      arg = kv[1];
    }
    out += conv === 'r' ? repr(arg) : str(arg);
  }
  return out;
}
