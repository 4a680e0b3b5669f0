/**
 * The `json` module (starlark-go lib/json): encode, decode, indent, encode_indent.
 * Strings stay binary (UTF-8 bytes) on both sides; dict keys are sorted by `encode`.
 */
import { Bytes } from '../value/bytes.ts';
import { attrNames, getAttr } from './attrs.ts';
import type { Value } from '../value/contract.ts';
import { None } from '../value/contract.ts';
import { Builtin } from '../value/builtin.ts';
import { Float, formatFloat, formatG } from '../value/float.ts';
import { STARLARK_GO_HEAD, type StarlarkGoRelease } from '../release.ts';
import { List, Tuple } from '../value/list.ts';
import { Dict } from '../value/hashtable.ts';
import { Struct, Module } from '../value/struct.ts';
import { fail, failIn, isEvalError, rethrowIn } from '../value/errors.ts';
import { isIterableValue, toArray } from '../value/ops.ts';
import { typeNameOf } from '../value/repr.ts';
import { decodeRuneAt, encodeRune, quote } from '../value/string.ts';
import { hasAttrs, isMapping } from '../value/capabilities.ts';
import { chargeRunning } from '../value/alloc-sink.ts';
import { positional, unpack, wantString } from './args.ts';

const HEX = '0123456789abcdef';

/** JSON string literal of a binary string; invalid UTF-8 becomes \ufffd. */
const PLAIN_JSON = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

export function jsonQuote(s: string): string {
  if (PLAIN_JSON.test(s)) return '"' + s + '"';
  let out = '"';
  for (let i = 0; i < s.length;) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      i++;
      switch (c) {
        case 34:
          out += '\\"';
          continue;
        case 92:
          out += '\\\\';
          continue;
        case 8:
          out += '\\b';
          continue;
        case 12:
          out += '\\f';
          continue;
        case 10:
          out += '\\n';
          continue;
        case 13:
          out += '\\r';
          continue;
        case 9:
          out += '\\t';
          continue;
      }
      out += c < 0x20 || c === 0x7f ? '\\u00' + HEX[c >> 4] + HEX[c & 15] : s[i - 1];
      continue;
    }
    const r = decodeRuneAt(s, i),
      size = r & 7;
    if (size === 1) out += '\\ufffd';
    else out += s.substr(i, size);
    i += size;
  }
  return out + '"';
}

/** The state of one encoding: the containers being written (cycle check) and the float format. */
interface EncodeWalk {
  readonly path: unknown[];
  readonly float: (x: number) => string;
}

function encodeValue(out: string[], x: Value, w: EncodeWalk): void {
  switch (typeof x) {
    case 'string':
      // Charged as produced (see ../value/alloc-sink.ts); the final text is not charged again.
      if (x.length > 64) chargeRunning(x.length + 2);
      out.push(jsonQuote(x));
      return;
    case 'number':
    case 'bigint':
      out.push(String(x));
      return;
    case 'boolean':
      out.push(x ? 'true' : 'false');
      return;
  }
  if (x === None) {
    out.push('null');
    return;
  }
  if (x instanceof Float) {
    if (!Number.isFinite(x.value)) fail(`cannot encode non-finite float ${formatFloat(x.value)}`);
    out.push(w.float(x.value));
    return;
  }
  if (w.path.includes(x)) fail(`cycle in JSON structure`);
  w.path.push(x);
  try {
    if (x instanceof Dict || (isMapping(x) && typeof (x as { keys?: unknown }).keys === 'function')) {
      const entries: [string, Value][] = [];
      const pairs =
        x instanceof Dict
          ? x.entries()
          : (x as unknown as { keys(): Value[] })
              .keys()
              .map((k) => [k, (x as unknown as { getKey(k: Value): Value }).getKey(k)] as [Value, Value]);
      for (const [k, v] of pairs) {
        if (typeof k !== 'string') fail(`${typeNameOf(x)} has ${typeNameOf(k)} key, want string`);
        entries.push([k, v]);
      }
      entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      writeObject(out, entries, w, (k) => `in ${typeNameOf(x)} key ${quote(k)}: `);
    } else if (x instanceof List || x instanceof Tuple) {
      writeArray(out, x.elems, w, typeNameOf(x));
    } else if (x instanceof Struct || x instanceof Module) {
      const names = x instanceof Struct ? x.names : Object.keys(x.members).sort();
      writeObject(
        out,
        names.map((n) => [n, x.attr(n)!]),
        w,
        (k) => `in field .${k}: `,
      );
    } else if (isIterableValue(x)) {
      writeArray(out, toArray(x), w, typeNameOf(x));
    } else if (hasAttrs(x)) {
      const names = x.attrNames().slice().sort();
      writeObject(
        out,
        names.map((n) => [n, x.attr(n)!]),
        w,
        (k) => `in field .${k}: `,
      );
    } else if (x instanceof Bytes) {
      // Not iterable in starlark-go but a HasAttrs (its one method, `elems`), so lib/json/json.go
      // encodes it field by field and fails on the bound method.
      const names = attrNames(x);
      writeObject(
        out,
        names.map((n) => [n, getAttr(x, n)]),
        w,
        (k) => `in field .${k}: `,
      );
    } else {
      fail(`cannot encode ${typeNameOf(x)} as JSON`);
    }
  } finally {
    w.path.pop();
  }
}

/** Re-throws a nested encoding error with `context` in front (`at list index 1: ...`). */
function within(context: () => string, f: () => void): void {
  try {
    f();
  } catch (e) {
    if (isEvalError(e) && !e.traced && e.code === 'starlark-runtime') fail(context() + e.message);
    throw e;
  }
}

function writeObject(out: string[], entries: [string, Value][], w: EncodeWalk, ctx: (k: string) => string): void {
  out.push('{');
  entries.forEach(([k, v], i) => {
    if (i > 0) out.push(',');
    out.push(jsonQuote(k), ':');
    within(
      () => ctx(k),
      () => encodeValue(out, v, w),
    );
  });
  out.push('}');
}

function writeArray(out: string[], elems: readonly Value[], w: EncodeWalk, type: string): void {
  out.push('[');
  elems.forEach((v, i) => {
    if (i > 0) out.push(',');
    within(
      () => `at ${type} index ${i}: `,
      () => encodeValue(out, v, w),
    );
  });
  out.push(']');
}

/**
 * `json.encode(x)` as a binary string; throws unprefixed errors. Floats are written as `str` writes
 * them, or with Go's `%g` for releases before google/starlark-go #564 (src/starlark/release.ts).
 */
export function jsonEncode(x: Value, release: StarlarkGoRelease = STARLARK_GO_HEAD): string {
  const out: string[] = [];
  encodeValue(out, x, { path: [], float: release.has('jsonFloatDecimalPoint') ? formatFloat : formatG });
  return out.join('');
}

// --- decoding ------------------------------------------------------------------------------------

class Decoder {
  i = 0;
  readonly s: string;
  constructor(s: string) {
    this.s = s;
  }
  err(msg: string): never {
    return fail(`at offset ${this.i}, ${msg}`);
  }
  skip(): void {
    const s = this.s;
    while (this.i < s.length) {
      const c = s.charCodeAt(this.i);
      if (c === 32 || c === 9 || c === 10 || c === 13) this.i++;
      else break;
    }
  }
  unexpected(): never {
    if (this.i >= this.s.length) return this.err('unexpected end of file');
    return this.err(`unexpected character ${charRepr(this.s[this.i])}`);
  }
  /** `<context>, got <c>, want <what>` (or end of file). */
  want(context: string, what: string): never {
    if (this.i >= this.s.length) return this.err('unexpected end of file');
    return this.err(`${context}got ${charRepr(this.s[this.i])}, want ${what}`);
  }
  value(depth: number): Value {
    if (depth > 1000) this.err('nesting too deep');
    this.skip();
    const s = this.s;
    const c = s[this.i];
    switch (c) {
      case '{': {
        this.i++;
        const d = new Dict();
        this.skip();
        if (s[this.i] === '}') {
          this.i++;
          return d;
        }
        for (;;) {
          this.skip();
          if (s[this.i] !== '"') this.unexpected();
          const k = this.string();
          this.skip();
          if (s[this.i] !== ':') this.want('after object key, ', "':'");
          this.i++;
          d.insert(k, this.value(depth + 1));
          this.skip();
          if (s[this.i] === ',') {
            this.i++;
            continue;
          }
          if (s[this.i] === '}') {
            this.i++;
            return d;
          }
          this.want('in object, ', "',' or '}'");
        }
      }
      case '[': {
        this.i++;
        const elems: Value[] = [];
        this.skip();
        if (s[this.i] === ']') {
          this.i++;
          return new List(elems);
        }
        for (;;) {
          elems.push(this.value(depth + 1));
          this.skip();
          if (s[this.i] === ',') {
            this.i++;
            continue;
          }
          if (s[this.i] === ']') {
            this.i++;
            return new List(elems);
          }
          this.want('in array, ', "',' or ']'");
        }
      }
      case '"':
        return this.string();
      case 't':
        return this.word('true', true);
      case 'f':
        return this.word('false', false);
      case 'n':
        return this.word('null', None);
    }
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.number();
    return this.unexpected();
  }
  word(w: string, v: Value): Value {
    if (this.s.startsWith(w, this.i)) {
      this.i += w.length;
      return v;
    }
    return this.unexpected();
  }
  number(): Value {
    // scan the maximal run of number characters, then validate it as a whole (Go's approach)
    const start = this.i;
    let j = start;
    while (j < this.s.length && '0123456789.eE+-'.includes(this.s[j])) j++;
    const text = this.s.slice(start, j);
    const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/.exec(text);
    if (m === null) return this.err(`invalid number: ${text}`);
    this.i = j;
    if (m[2] !== undefined || m[3] !== undefined) {
      const f = Number(text);
      if (!Number.isFinite(f)) {
        this.i = start;
        this.err(`invalid number: ${text}`);
      }
      return new Float(f);
    }
    const b = BigInt(text);
    return b >= -9007199254740991n && b <= 9007199254740991n ? Number(b) : b;
  }
  string(): string {
    const s = this.s;
    const start = this.i;
    this.i++; // opening quote
    let out = '';
    for (;;) {
      if (this.i >= s.length) {
        this.i = start;
        this.err('unclosed string literal');
      }
      const c = s.charCodeAt(this.i);
      if (c === 34) {
        this.i++;
        return out;
      }
      if (c < 0x20) this.err(`control character in string`);
      if (c !== 92) {
        let j = this.i + 1;
        while (j < s.length) {
          const d = s.charCodeAt(j);
          if (d === 34 || d === 92 || d < 0x20) break;
          j++;
        }
        out += s.slice(this.i, j);
        this.i = j;
        continue;
      }
      const e = s[this.i + 1];
      this.i += 2;
      switch (e) {
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case '/':
          out += '/';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          let cp = this.hex4();
          if (cp >= 0xd800 && cp < 0xdc00 && s[this.i] === '\\' && s[this.i + 1] === 'u') {
            const save = this.i;
            this.i += 2;
            const lo = this.hex4();
            if (lo >= 0xdc00 && lo < 0xe000) cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
            else this.i = save;
          }
          out += encodeRune(cp >= 0xd800 && cp < 0xe000 ? 0xfffd : cp);
          break;
        }
        default:
          this.i -= 2;
          if (e === undefined) this.err('unclosed string literal');
          this.err(`invalid character ${charRepr(e)} in string escape code`);
      }
    }
  }
  hex4(): number {
    const h = this.s.slice(this.i, this.i + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(h)) this.err('invalid escape');
    this.i += 4;
    return parseInt(h, 16);
  }
}

/** Go's `%q` of a byte as a rune literal: `'x'`, `'\''`, `'\\'`, `'\n'`, `'\x00'`. */
function charRepr(c: string): string {
  const code = c.charCodeAt(0);
  switch (c) {
    case "'":
      return "'\\''";
    case '\\':
      return "'\\\\'";
    case '\n':
      return "'\\n'";
    case '\t':
      return "'\\t'";
    case '\r':
      return "'\\r'";
  }
  return code >= 0x20 && code < 0x7f ? `'${c}'` : `'\\x${code.toString(16).padStart(2, '0')}'`;
}

/** Parses a JSON binary string; throws unprefixed errors. */
export function jsonDecode(s: string): Value {
  const d = new Decoder(s);
  const v = d.value(0);
  d.skip();
  if (d.i < s.length) d.err(`unexpected character ${charRepr(s[d.i])} after value`);
  return v;
}

/** Re-indents JSON text like Go's `json.Indent` (compact scalars, one member per line). */
export function jsonIndent(s: string, prefix: string, indent: string): string {
  try {
    jsonDecode(s); // validate
  } catch (e) {
    if (!isEvalError(e) || e.code !== 'starlark-runtime') throw e;
    const m = /^at offset (\d+), /.exec(e.message);
    const at = m === null ? s.length : Number(m[1]);
    if (at >= s.length) fail('unexpected end of JSON input');
    fail(`invalid character ${charRepr(s[at])} looking for beginning of value`);
  }
  let out = '';
  let depth = 0;
  let needIndent = false;
  const nl = (): string => '\n' + prefix + indent.repeat(depth);
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') continue;
    if (needIndent && c !== ']' && c !== '}') {
      needIndent = false;
      depth++;
      out += nl();
    }
    if (c === '"') {
      let j = i + 1;
      while (s[j] !== '"') j += s[j] === '\\' ? 2 : 1;
      out += s.slice(i, j + 1);
      i = j;
      continue;
    }
    if (c === '{' || c === '[') {
      out += c;
      needIndent = true;
    } else if (c === '}' || c === ']') {
      if (needIndent) needIndent = false;
      else {
        depth--;
        out += nl();
      }
      out += c;
    } else if (c === ',') out += ',' + nl();
    else if (c === ':') out += ': ';
    else out += c;
  }
  return out;
}

const encode = new Builtin('json.encode', (thread, args, kwargs) => {
  positional('json.encode', args, kwargs, 1, 1);
  try {
    return jsonEncode(args[0], thread.release);
  } catch (e) {
    rethrowIn('json.encode', e);
  }
});

const decode = new Builtin('json.decode', (thread, args, kwargs) => {
  // Before google/starlark-go #466, decode took exactly one positional argument.
  if (!thread.release.has('jsonDecodeDefault')) positional('json.decode', args, kwargs, 1, 1);
  const { values, labels } = unpack('json.decode', args, kwargs, ['x', 'default?'], thread.release);
  // `x` is positional-only (google/starlark-go lib/json/json.go decode).
  if (args.length < 1) failIn('json.decode', 'unexpected keyword argument x');
  const s = wantString('json.decode', labels[0], values[0]!);
  thread.alloc(2 * s.length);
  try {
    return jsonDecode(s);
  } catch (e) {
    if (values[1] !== undefined && isEvalError(e) && !e.traced && e.code === 'starlark-runtime') return values[1];
    rethrowIn('json.decode', e);
  }
});

function keywordOnly(name: string, kwargs: [string, Value][] | null): { prefix: string; indent: string } {
  let prefix = '',
    indent = '\t';
  for (const [k, v] of kwargs ?? []) {
    if (k === 'prefix') prefix = wantString(name, '"prefix"', v);
    else if (k === 'indent') indent = wantString(name, '"indent"', v);
    else failIn(name, `unexpected keyword argument "${k}"`);
  }
  return { prefix, indent };
}

const indent = new Builtin('json.indent', (_t, args, kwargs) => {
  if (args.length !== 1) failIn('json.indent', `got ${args.length} arguments, want 1`);
  const s = wantString('json.indent', 1, args[0]);
  const o = keywordOnly('json.indent', kwargs);
  try {
    return jsonIndent(s, o.prefix, o.indent);
  } catch (e) {
    rethrowIn('json.indent', e);
  }
});

const encodeIndent = new Builtin('json.encode_indent', (thread, args, kwargs) => {
  if (args.length !== 1) failIn('json.encode_indent', `got ${args.length} arguments, want 1`);
  const o = keywordOnly('json.encode_indent', kwargs);
  try {
    return jsonIndent(jsonEncode(args[0], thread.release), o.prefix, o.indent);
  } catch (e) {
    rethrowIn('json.encode_indent', e);
  }
});

/** The `json` module value (`<module "json">`), as google/starlark-go has it at HEAD. */
export const JSON_MODULE: Module = new Module(
  'json',
  Object.freeze({
    encode,
    decode,
    indent,
    encode_indent: encodeIndent,
  }),
);

const JSON_MODULE_BEFORE_ENCODE_INDENT: Module = new Module('json', Object.freeze({ encode, decode, indent }));

/** The `json` module of a release: `encode_indent` only since google/starlark-go #615. */
export function jsonModuleOf(release: StarlarkGoRelease): Module {
  return release.has('jsonEncodeIndent') ? JSON_MODULE : JSON_MODULE_BEFORE_ENCODE_INDENT;
}
