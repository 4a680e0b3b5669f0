/**
 * Methods of string (and bytes): spec §9. Strings are binary strings, so offsets are byte
 * offsets; case and class predicates work on decoded code points.
 */
import type { Kwargs, Thread, Value } from '../value/contract.ts';
import { None } from '../value/contract.ts';
import { Builtin } from '../value/builtin.ts';
import type { BuiltinImpl } from '../value/builtin.ts';
import { List, Tuple } from '../value/list.ts';
import { type Bytes } from '../value/bytes.ts';
import { ByteView, RuneView, bytesView } from '../value/views.ts';
import { failIn } from '../value/errors.ts';
import { typeNameOf } from '../value/repr.ts';
import { strFormat } from '../value/format.ts';
import { iterate } from '../value/ops.ts';
import { decodeRuneAt, fromHostString, isAscii, runeCount } from '../value/string.ts';
import { positional, wantBool, wantInt, wantString, wrongType } from './args.ts';
import type { MethodTable } from '../value/builtin.ts';

type StrImpl = (s: string, args: Value[], kwargs: Kwargs, name: string, thread: Thread) => Value;

function method(name: string, f: StrImpl): Builtin {
  const impl: BuiltinImpl = (thread, args, kwargs, self) => f(self.recv as string, args, kwargs, name, thread);
  return new Builtin(name, impl);
}

/** Python-style clamping of optional [start, end) byte offsets. */
function indices(fn: string, n: number, start: Value | undefined, end: Value | undefined): [number, number] {
  const clamp = (v: Value | undefined, label: number, dflt: number): number => {
    if (v === undefined || v === None) return dflt;
    let i = wantInt(fn, label, v);
    if (i < 0) i = Math.max(0, i + n);
    return Math.min(i, n);
  };
  return [clamp(start, 2, 0), clamp(end, 3, n)];
}

function runes(s: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.length;) {
    const r = decodeRuneAt(s, i),
      size = r & 7;
    out.push((r - size) / 8);
    i += size;
  }
  return out;
}

const LETTER = /\p{L}/u,
  DIGIT = /\p{Nd}/u,
  ALNUM = /[\p{L}\p{Nd}\p{Nl}\p{No}]/u;
const UPPER = /\p{Lu}/u,
  LOWER = /\p{Ll}/u,
  TITLECASE = /\p{Lt}/u;
const isSpaceRune = (c: number): boolean =>
  c === 32 ||
  (c >= 9 && c <= 13) ||
  c === 0x85 ||
  c === 0xa0 ||
  c === 0x1680 ||
  (c >= 0x2000 && c <= 0x200a) ||
  c === 0x2028 ||
  c === 0x2029 ||
  c === 0x202f ||
  c === 0x205f ||
  c === 0x3000;
const ch = (c: number): string => String.fromCodePoint(c);
const isUpperRune = (c: number): boolean => UPPER.test(ch(c)) || TITLECASE.test(ch(c));
const isLowerRune = (c: number): boolean => LOWER.test(ch(c));
const isCasedRune = (c: number): boolean => ch(c).toLowerCase() !== ch(c).toUpperCase();

function mapCase(s: string, f: (h: string) => string): string {
  if (isAscii(s)) return f(s);
  let out = '';
  for (const c of runes(s)) {
    // Go maps case rune by rune (simple case mapping): keep runes whose mapping is not one rune
    const h = ch(c),
      m = f(h);
    out += fromHostString(m.length === h.length || [...m].length === 1 ? m : h);
  }
  return out;
}
const lower = (s: string): string => mapCase(s, (h) => h.toLowerCase());
const upper = (s: string): string => mapCase(s, (h) => h.toUpperCase());

function allRunes(s: string, pred: (c: number) => boolean): boolean {
  if (s.length === 0) return false;
  for (const c of runes(s)) if (!pred(c)) return false;
  return true;
}

function countOccurrences(s: string, sub: string): number {
  if (sub.length === 0) return runeCount(s) + 1;
  let n = 0;
  for (let i = s.indexOf(sub); i >= 0; i = s.indexOf(sub, i + sub.length)) n++;
  return n;
}

function find(s: string, args: Value[], kwargs: Kwargs, name: string, last: boolean, raise: boolean): number {
  positional(name, args, kwargs, 1, 3);
  const sub = wantString(name, 1, args[0]);
  const [a, b] = indices(name, s.length, args[1], args[2]);
  const body = s.slice(a, b);
  const i = last ? body.lastIndexOf(sub) : body.indexOf(sub);
  if (a > b || i < 0) {
    if (raise) failIn(name, 'substring not found');
    return -1;
  }
  return i + a;
}

function affix(s: string, args: Value[], kwargs: Kwargs, name: string, suffix: boolean): boolean {
  positional(name, args, kwargs, 1, 3);
  const [a, b] = indices(name, s.length, args[1], args[2]);
  const body = a <= b ? s.slice(a, b) : '';
  const x = args[0];
  const test = (p: string): boolean => (suffix ? body.endsWith(p) : body.startsWith(p));
  if (typeof x === 'string') return a <= b && test(x);
  if (x instanceof Tuple) {
    for (let i = 0; i < x.elems.length; i++) {
      const e = x.elems[i];
      if (typeof e !== 'string') failIn(name, `want string, got ${typeNameOf(e)}, for element ${i}`);
      if (a <= b && test(e)) return true;
    }
    return false;
  }
  return failIn(name, `got ${typeNameOf(x)}, want string or tuple of string`);
}

/** Splits on whitespace runs (`sep=None`), at most `max` splits (<0: unlimited), from the right if `right`. */
function splitSpace(s: string, max: number, right: boolean): string[] {
  const isSp = (i: number): number => {
    const c = s.charCodeAt(i);
    if (c < 0x80) return c === 32 || (c >= 9 && c <= 13) ? 1 : 0;
    const r = decodeRuneAt(s, i),
      size = r & 7;
    return isSpaceRune((r - size) / 8) ? size : 0;
  };
  const words: [number, number][] = [];
  for (let i = 0; i < s.length;) {
    const w = isSp(i);
    if (w > 0) {
      i += w;
      continue;
    }
    let j = i;
    while (j < s.length && isSp(j) === 0) j += decodeRuneAt(s, j) & 7;
    words.push([i, j]);
    i = j;
  }
  if (max < 0 || words.length <= max || words.length === 0) return words.map(([a, b]) => s.slice(a, b));
  if (!right) {
    // the remainder keeps its inner and far-side whitespace (Python's rule)
    const head = words.slice(0, max).map(([a, b]) => s.slice(a, b));
    return [...head, s.slice(words[max][0])];
  }
  const tail = words.slice(words.length - max).map(([a, b]) => s.slice(a, b));
  return [s.slice(0, words[words.length - max - 1][1]), ...tail];
}

function splitSep(s: string, sep: string, max: number, right: boolean): string[] {
  if (max < 0) return s.split(sep);
  const out: string[] = [];
  if (!right) {
    let i = 0;
    while (out.length < max) {
      const j = s.indexOf(sep, i);
      if (j < 0) break;
      out.push(s.slice(i, j));
      i = j + sep.length;
    }
    out.push(s.slice(i));
    return out;
  }
  let end = s.length;
  while (out.length < max) {
    const j = s.lastIndexOf(sep, end - sep.length);
    if (j < 0 || end - sep.length < 0) break;
    out.push(s.slice(j + sep.length, end));
    end = j;
  }
  out.push(s.slice(0, end));
  return out.reverse();
}

/** Approximate bytes one substring costs (string header + list slot), charged before it exists. */
export const PART_BYTES = 40;

/** Upper bound of the parts `split` makes: separators (or space runs) + 1, capped by maxsplit. */
function countParts(s: string, sep: string | null, max: number): number {
  let n = 1;
  const cap = max < 0 ? Infinity : max + 1;
  if (sep === null) {
    for (let i = 0; i < s.length && n < cap; i++) {
      const c = s.charCodeAt(i);
      if (c === 32 || (c >= 9 && c <= 13) || c >= 0x80) n++;
    }
    return n;
  }
  for (let i = s.indexOf(sep); i >= 0 && n < cap; i = s.indexOf(sep, i + sep.length)) n++;
  return n;
}

function split(s: string, args: Value[], kwargs: Kwargs, name: string, right: boolean, thread: Thread): Value {
  // Positional only, as google/starlark-go string_split (UnpackPositionalArgs).
  positional(name, args, kwargs, 0, 2);
  const sepV = args[0] ?? None;
  const max = args[1] === undefined ? -1 : wantInt(name, 2, args[1]);
  // Both messages say "split", for rsplit too (google/starlark-go starlark/library.go string_split).
  if (sepV !== None && typeof sepV !== 'string') failIn('split', `got ${typeNameOf(sepV)} for separator, want string`);
  const sep = sepV === None ? null : (sepV as string);
  if (sep === '') failIn('split', 'empty separator');
  // Charged before any substring exists: the text plus every part's overhead.
  thread.alloc(s.length + PART_BYTES * countParts(s, sep, max));
  const parts = sep === null ? splitSpace(s, max, right) : splitSep(s, sep, max, right);
  return new List(parts);
}

/** Trims runes in `cutset` (null: whitespace) from the chosen ends. */
function trimRunes(s: string, cutset: string | null, left: boolean, right: boolean): string {
  let inSet: (c: number) => boolean;
  if (cutset === null) inSet = isSpaceRune;
  else {
    const set = new Set(runes(cutset));
    inSet = (c) => set.has(c);
  }
  let a = 0,
    b = s.length;
  if (left) {
    while (a < b) {
      const r = decodeRuneAt(s, a),
        size = r & 7;
      if (!inSet((r - size) / 8)) break;
      a += size;
    }
  }
  if (right) {
    while (b > a) {
      // find the start of the last rune
      let k = b - 1;
      while (k > a && (s.charCodeAt(k) & 0xc0) === 0x80 && b - k < 4) k--;
      let r = decodeRuneAt(s, k),
        size = r & 7;
      if (k + size !== b) {
        k = b - 1;
        r = decodeRuneAt(s, k);
        size = 1;
      }
      if (!inSet((r - size) / 8)) break;
      b = k;
    }
  }
  return s.slice(a, b);
}

function strip(s: string, args: Value[], kwargs: Kwargs, name: string, left: boolean, right: boolean): Value {
  positional(name, args, kwargs, 0, 1);
  const c = args[0];
  // An empty cutset strips whitespace (google/starlark-go HEAD string.star); None is refused.
  if (c === undefined || c === '') return trimRunes(s, null, left, right);
  return trimRunes(s, wantString(name, 1, c), left, right);
}

function partition(s: string, args: Value[], kwargs: Kwargs, name: string, last: boolean): Value {
  positional(name, args, kwargs, 1, 1);
  const sep = wantString(name, 1, args[0]);
  if (sep === '') failIn(name, 'empty separator');
  const i = last ? s.lastIndexOf(sep) : s.indexOf(sep);
  if (i < 0) return new Tuple(last ? ['', '', s] : [s, '', '']);
  return new Tuple([s.slice(0, i), sep, s.slice(i + sep.length)]);
}

/** Go `unicode.ToTitle` where it differs from ToUpper: the Latin digraphs map to their titlecase form. */
function toTitle(c: number): string {
  if (c >= 0x1c4 && c <= 0x1cc) return ch(0x1c5 + 3 * Math.floor((c - 0x1c4) / 3));
  if (c >= 0x1f1 && c <= 0x1f3) return ch(0x1f2);
  return ch(c).toUpperCase();
}

/** google/starlark-go HEAD library.go string_title: ToTitle after an uncased rune, else ToLower. */
function title(s: string): string {
  let out = '';
  let prevCased = false;
  for (const c of runes(s)) {
    const r = prevCased ? ch(c).toLowerCase() : toTitle(c);
    out += fromHostString(r);
    prevCased = isCasedRune(r.codePointAt(0)!);
  }
  return out;
}

function istitle(s: string): boolean {
  let cased = false,
    prevCased = false;
  // google/starlark-go HEAD library.go string_istitle: only ASCII capitals and titlecase letters
  // may start a word; any other uppercase letter makes the string not a title.
  for (const c of runes(s)) {
    if ((c >= 0x41 && c <= 0x5a) || TITLECASE.test(ch(c))) {
      if (prevCased) return false;
      prevCased = cased = true;
    } else if (isLowerRune(c)) {
      if (!prevCased) return false;
      prevCased = cased = true;
    } else if (isUpperRune(c)) {
      return false;
    } else prevCased = false;
  }
  return cased;
}

function replace(s: string, args: Value[], kwargs: Kwargs, name: string, thread: Thread): Value {
  return replaceImpl(s, args, kwargs, name, thread);
}

/** Replacements `replace` will make (for charging the result before building it). */
function countReplacements(s: string, old: string, count: number): number {
  if (old === '') {
    let runesPlusOne = 1;
    for (let i = 0; i < s.length && runesPlusOne < count; i += decodeRuneAt(s, i) & 7) runesPlusOne++;
    return Math.min(count, runesPlusOne);
  }
  let n = 0;
  for (let i = s.indexOf(old); i >= 0 && n < count; i = s.indexOf(old, i + old.length)) n++;
  return n;
}

function replaceImpl(s: string, args: Value[], kwargs: Kwargs, name: string, thread: Thread): string {
  positional(name, args, kwargs, 2, 3);
  const old = wantString(name, 1, args[0]);
  const neu = wantString(name, 2, args[1]);
  let count = args[2] === undefined ? -1 : wantInt(name, 3, args[2]);
  if (count < 0) count = Infinity;
  const resultLength = s.length + countReplacements(s, old, count) * (neu.length - old.length);
  if (resultLength > 64) thread.alloc(resultLength);
  if (old === '') {
    // insert at every rune boundary, like Go's strings.Replace
    let out = '';
    let n = 0;
    let i = 0;
    for (; i <= s.length;) {
      if (n < count) {
        out += neu;
        n++;
      } else break;
      if (i === s.length) {
        i++;
        break;
      }
      const size = decodeRuneAt(s, i) & 7;
      out += s.substr(i, size);
      i += size;
    }
    return out + (i <= s.length ? s.slice(i) : '');
  }
  if (count === Infinity) return s.split(old).join(neu);
  let out = '',
    i = 0,
    n = 0;
  while (n < count) {
    const j = s.indexOf(old, i);
    if (j < 0) break;
    out += s.slice(i, j) + neu;
    i = j + old.length;
    n++;
  }
  return out + s.slice(i);
}

function join(s: string, args: Value[], kwargs: Kwargs, name: string, thread: Thread): Value {
  positional(name, args, kwargs, 1, 1);
  const x = args[0];
  const parts: string[] = [];
  const add = (v: Value): void => {
    if (typeof v !== 'string') failIn(name, `in list, want string, got ${typeNameOf(v)}`);
    parts.push(v);
  };
  if (x instanceof List || x instanceof Tuple) {
    // Charged before joining: the result's exact length.
    let total = s.length * Math.max(0, x.elems.length - 1);
    for (const v of x.elems) total += typeof v === 'string' ? v.length : 0;
    if (total > 64) thread.alloc(total);
    for (const v of x.elems) add(v);
    return parts.join(s);
  } else {
    if (typeof x !== 'object' || typeof (x as { iterate?: unknown }).iterate !== 'function')
      wrongType(name, 1, x, 'iterable');
    const it = iterate(x);
    try {
      for (let v = it.next(); v !== undefined; v = it.next()) add(v);
    } finally {
      it.done();
    }
  }
  const r = parts.join(s);
  if (r.length > 64) thread.alloc(r.length);
  return r;
}

function splitlines(s: string, args: Value[], kwargs: Kwargs, name: string): Value {
  // Positional only, as google/starlark-go string_splitlines.
  positional(name, args, kwargs, 0, 1);
  const keep = args[0] === undefined ? false : wantBool(name, 1, args[0]);
  const out: string[] = [];
  let i = 0;
  while (i < s.length) {
    const j = s.indexOf('\n', i);
    if (j < 0) {
      out.push(s.slice(i));
      break;
    }
    out.push(s.slice(i, keep ? j + 1 : j));
    i = j + 1;
  }
  return new List(out);
}

const noArgs =
  (f: (s: string) => Value): StrImpl =>
  (s, args, kwargs, name) => {
    positional(name, args, kwargs, 0, 0);
    return f(s);
  };

const table: Record<string, StrImpl> = {
  capitalize: noArgs((s) => {
    if (s.length === 0) return s;
    const size = decodeRuneAt(s, 0) & 7;
    return upper(s.slice(0, size)) + lower(s.slice(size));
  }),
  codepoint_ords: noArgs((s) => new RuneView('string.codepoint_ords', s)),
  codepoints: noArgs((s) => new RuneView('string.codepoints', s)),
  count: (s, args, kwargs, name) => {
    positional(name, args, kwargs, 1, 3);
    const sub = wantString(name, 1, args[0]);
    const [a, b] = indices(name, s.length, args[1], args[2]);
    if (a > b) return 0;
    return countOccurrences(s.slice(a, b), sub);
  },
  elem_ords: noArgs((s) => new ByteView('string.elem_ords', s)),
  elems: noArgs((s) => new ByteView('string.elems', s)),
  endswith: (s, a, k, n) => affix(s, a, k, n, true),
  find: (s, a, k, n) => find(s, a, k, n, false, false),
  format: (s, args, kwargs, _name, thread) => {
    const r = strFormat(s, args, kwargs);
    if (r.length > 64) thread.alloc(r.length);
    return r;
  },
  index: (s, a, k, n) => find(s, a, k, n, false, true),
  isalnum: noArgs((s) => allRunes(s, (c) => ALNUM.test(ch(c)))),
  isalpha: noArgs((s) => allRunes(s, (c) => LETTER.test(ch(c)))),
  isdigit: noArgs((s) => allRunes(s, (c) => DIGIT.test(ch(c)))),
  islower: noArgs((s) => {
    const rs = runes(s);
    return rs.some(isCasedRune) && !rs.some(isUpperRune) && lower(s) === s;
  }),
  isspace: noArgs((s) => allRunes(s, isSpaceRune)),
  istitle: noArgs(istitle),
  isupper: noArgs((s) => {
    const rs = runes(s);
    return rs.some(isCasedRune) && !rs.some(isLowerRune) && upper(s) === s;
  }),
  join,
  lower: noArgs(lower),
  lstrip: (s, a, k, n) => strip(s, a, k, n, true, false),
  partition: (s, a, k, n) => partition(s, a, k, n, false),
  removeprefix: (s, args, kwargs, name) => {
    positional(name, args, kwargs, 1, 1);
    const p = wantString(name, 1, args[0]);
    return s.startsWith(p) ? s.slice(p.length) : s;
  },
  removesuffix: (s, args, kwargs, name) => {
    positional(name, args, kwargs, 1, 1);
    const p = wantString(name, 1, args[0]);
    return p.length > 0 && s.endsWith(p) ? s.slice(0, s.length - p.length) : s;
  },
  replace,
  rfind: (s, a, k, n) => find(s, a, k, n, true, false),
  rindex: (s, a, k, n) => find(s, a, k, n, true, true),
  rpartition: (s, a, k, n) => partition(s, a, k, n, true),
  rsplit: (s, a, k, n, t) => split(s, a, k, n, true, t),
  rstrip: (s, a, k, n) => strip(s, a, k, n, false, true),
  split: (s, a, k, n, t) => split(s, a, k, n, false, t),
  splitlines,
  startswith: (s, a, k, n) => affix(s, a, k, n, false),
  strip: (s, a, k, n) => strip(s, a, k, n, true, true),
  title: noArgs(title),
  upper: noArgs(upper),
};

export const stringMethods: MethodTable = Object.freeze(
  Object.fromEntries(Object.entries(table).map(([k, f]) => [k, method(k, f)])),
);

export const bytesMethods: MethodTable = Object.freeze({
  elems: new Builtin('elems', (_t, args, kwargs, self) => {
    positional('elems', args, kwargs, 0, 0);
    return bytesView(self.recv as Bytes);
  }),
});
