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
import { repr, typeNameOf } from './repr.ts';
import { decodeRuneAt, encodeRune } from './string.ts';
import { intFromIntegralDouble } from './int.ts';
import type { Int } from './int.ts';
import { STARLARK_GO_HEAD, type StarlarkGoRelease } from '../release.ts';

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

/**
 * `format % y`, step for step as google/starlark-go starlark/eval.go `interpolate`: `%%` is a
 * literal; every other conversion (keyed or positional) uses up one argument slot; unused
 * positional arguments are an error, for a mapping too before the 2023-11-21 release (#520).
 */
export function percentFormat(format: string, y: Value, release: StarlarkGoRelease = STARLARK_GO_HEAD): string {
  const args: readonly Value[] = y instanceof Tuple ? y.elems : [y];
  const isMap = y instanceof Dict || (typeof y === 'object' && y !== None && !(y instanceof Tuple) && isMapping(y));
  let out = '';
  let index = 0;
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
    if (format[i] === '%') {
      out += '%';
      continue;
    }
    let arg: Value;
    if (format[i] === '(') {
      const close = format.indexOf(')', i);
      if (close < 0) fail('incomplete format key');
      arg = lookupKey(y, format.slice(i + 1, close));
      i = close + 1;
    } else {
      if (index >= args.length) fail('not enough arguments for format string');
      arg = args[index]!;
    }
    if (i >= n) fail('incomplete format');
    const c = format[i];
    index++;
    switch (c) {
      case 's':
        // A string as is; anything else (bytes too) as its repr.
        out += typeof arg === 'string' ? arg : repr(arg);
        break;
      case 'r':
        out += repr(arg);
        break;
      case '%':
        out += '%';
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
  if (index < args.length && !(isMap && release.has('interpolateMappingUnused'))) {
    fail('too many arguments for format string');
  }
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
    const field = format.slice(i + 1, close);
    i = close;
    // As google/starlark-go starlark/library.go string_format: name, then "!conv", then ":spec";
    // the argument is looked up before the spec and the conversion are checked.
    let name = field;
    let conv = 's';
    let spec = '';
    const bang = field.indexOf('!');
    if (bang < 0) {
      const colon = field.indexOf(':');
      if (colon >= 0) {
        name = field.slice(0, colon);
        spec = field.slice(colon + 1);
      }
    } else {
      name = field.slice(0, bang);
      const rest = field.slice(bang + 1);
      const colon = rest.indexOf(':');
      conv = colon < 0 ? rest : rest.slice(0, colon);
      if (colon >= 0) spec = rest.slice(colon + 1);
    }
    let arg: Value;
    const index = decimalIndex(name);
    if (name === '') {
      if (auto === false) fail('format: cannot switch from manual field specification to automatic field numbering');
      auto = true;
      if (next >= args.length) fail('format: tuple index out of range');
      arg = args[next++]!;
    } else if (index !== undefined) {
      if (auto === true) fail('format: cannot switch from automatic field numbering to manual field specification');
      auto = false;
      if (index >= args.length) fail('format: tuple index out of range');
      arg = args[index]!;
    } else {
      const kv = kwargs?.find((p) => p[0] === name);
      if (kv === undefined) {
        if (name.includes('.')) fail(`format: attribute syntax x.y is not supported in replacement fields: ${name}`);
        if (name.includes('[')) fail(`format: element syntax a[i] is not supported in replacement fields: ${name}`);
        if (name.includes('{')) fail('format: nested replacement fields not supported');
        fail(`format: keyword ${name} not found`);
      }
      arg = kv[1];
    }
    if (spec !== '') fail(`format spec features not supported in replacement fields: ${spec}`);
    if (conv !== 's' && conv !== 'r') fail(`format: unknown conversion ${goQuote(conv)}`);
    // "!s" writes a string as is and any other value as its repr (bytes too: b"...").
    out += conv === 's' && typeof arg === 'string' ? arg : repr(arg);
  }
  return out;
}

/** starlark-go's `decimal`: the digits as an index, undefined if not all digits or past int64. */
function decimalIndex(s: string): number | undefined {
  if (s === '' || !/^[0-9]+$/.test(s)) return undefined;
  return BigInt(s) > 9223372036854775807n ? undefined : Number(s);
}

/** Go's %q of a short ASCII-or-UTF-8 host string (the conversion name in the error). */
function goQuote(s: string): string {
  return JSON.stringify(s);
}
