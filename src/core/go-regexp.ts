/**
 * Go `regexp` semantics for every regular expression a user writes in a config (search-replace,
 * apply-setters, Starlark's `re`, ...): Go's RE2 syntax (`(?i)`, `(?P<name>…)`, `\z`, `\Q…\E`,
 * `\pL`, `[[:alpha:]]`), Go's error text, and the `regexp.Regexp` operations with Go's rules for
 * successive matches, empty matches, `$` expansion and `Split` (golang/go `src/regexp/regexp.go`,
 * `src/regexp/syntax/parse.go`).
 *
 * Engine: `re2js`, a maintained JavaScript port of RE2/J (Russ Cox's RE2 in Java), chosen because
 * (1) matching is linear in the input (NFA/DFA simulation, no backtracking: `^(a|a?)+$` on 100k
 * characters is one pass), (2) its parser is a line-by-line port of Go's `regexp/syntax`, so the
 * accepted syntax, leftmost-first (Perl) semantics and error texts are Go's, (3) it is pure
 * JavaScript with no dependencies, so it bundles for browsers (no WASM to load asynchronously, unlike
 * `re2-wasm`). This module only adapts its Java-style matcher to Go's API; it never falls back to
 * JavaScript's backtracking `RegExp`.
 *
 * Positions: indices are offsets into the JavaScript string (UTF-16 code units), where Go reports
 * byte offsets into UTF-8. Every "advance one character" step moves by one code point, as Go moves
 * by one rune, so the matches found are Go's.
 */
import { RE2JS, RE2JSSyntaxException, type Matcher } from 're2js';

/** Go's `regexp/syntax.ErrorCode` strings (golang/go `src/regexp/syntax/parse.go`). */
export type GoRegexpErrorCode =
  | 'invalid character class'
  | 'invalid character class range'
  | 'invalid escape sequence'
  | 'invalid named capture'
  | 'invalid or unsupported Perl syntax'
  | 'invalid nested repetition operator'
  | 'invalid repeat count'
  | 'invalid UTF-8'
  | 'missing closing ]'
  | 'missing closing )'
  | 'missing argument to repetition operator'
  | 'trailing backslash at end of expression'
  | 'unexpected )'
  | 'expression nests too deeply'
  | 'expression too large'
  | 'regexp/syntax: internal error';

/**
 * A pattern Go's `regexp.Compile` rejects. `message` is Go's `(*syntax.Error).Error()` text:
 * ``error parsing regexp: CODE: `EXPR` ``.
 */
export class GoRegexpError extends Error {
  readonly code: GoRegexpErrorCode;
  /** The offending part of the pattern, as Go reports it. */
  readonly expr: string;
  constructor(code: GoRegexpErrorCode, expr: string) {
    super(`error parsing regexp: ${code}: \`${expr}\``);
    this.name = 'GoRegexpError';
    this.code = code;
    this.expr = expr;
  }
}

/**
 * re2js reports these three codes without an expression; Go's parser attaches "" to a trailing
 * backslash and the whole pattern to the two size limits (`Parse`'s recover in parse.go).
 */
const WHOLE_PATTERN_CODES: ReadonlySet<string> = new Set(['expression nests too deeply', 'expression too large']);

function toGoError(pattern: string, e: unknown): GoRegexpError {
  if (e instanceof RE2JSSyntaxException) {
    const code = e.getDescription() as GoRegexpErrorCode;
    const expr = e.getPattern();
    if (expr !== null && expr !== undefined) return new GoRegexpError(code, expr);
    return new GoRegexpError(code, WHOLE_PATTERN_CODES.has(code) ? pattern : '');
  }
  return new GoRegexpError('regexp/syntax: internal error', pattern);
}

/** Go's `regexp.Compile`: throws `GoRegexpError` with Go's message for an invalid pattern. */
export function compileGoRegexp(pattern: string): GoRegexp {
  try {
    const re = RE2JS.compile(pattern);
    return new GoRegexp(pattern, re, groupNamesOf(re));
  } catch (e) {
    if (!(e instanceof RE2JSSyntaxException) || e.getDescription() !== 'duplicate capture group name') {
      throw toGoError(pattern, e);
    }
  }
  // Go accepts a name used twice (`SubexpIndex` then picks the leftmost); re2js rejects it. Group
  // numbers depend only on the parentheses, so compile the pattern without the names and keep them.
  const { unnamed, names } = splitCaptureNames(pattern);
  try {
    return new GoRegexp(pattern, RE2JS.compile(unnamed), names);
  } catch (e) {
    throw toGoError(pattern, e);
  }
}

function groupNamesOf(re: RE2JS): string[] {
  const names: string[] = new Array<string>(re.groupCount() + 1).fill('');
  for (const [name, index] of Object.entries(re.namedGroups())) names[index] = name;
  return names;
}

/**
 * The pattern with every `(?P<name>` / `(?<name>` turned into `(`, and the name of each group
 * (`''` for unnamed ones, index 0 the whole match). Skips escapes, `\Q…\E` and character classes,
 * where parentheses are literal. Only called on patterns re2js parsed up to a repeated name.
 */
function splitCaptureNames(pattern: string): { unnamed: string; names: string[] } {
  const names = [''];
  let out = '';
  let i = 0;
  while (i < pattern.length) {
    const ch = pattern[i];
    if (pattern.startsWith('\\Q', i)) {
      const end = pattern.indexOf('\\E', i + 2);
      const stop = end < 0 ? pattern.length : end + 2;
      out += pattern.slice(i, stop);
      i = stop;
    } else if (ch === '\\') {
      out += pattern.slice(i, i + 2);
      i += 2;
    } else if (ch === '[') {
      const stop = classEnd(pattern, i);
      out += pattern.slice(i, stop);
      i = stop;
    } else if (ch === '(' && /^\(\?P?<[^=!]/.test(pattern.slice(i, i + 5))) {
      const close = pattern.indexOf('>', i);
      if (close < 0) return { unnamed: out + pattern.slice(i), names };
      names.push(pattern.slice(pattern.indexOf('<', i) + 1, close));
      out += '(';
      i = close + 1;
    } else {
      if (ch === '(' && pattern[i + 1] !== '?') names.push('');
      out += ch;
      i++;
    }
  }
  return { unnamed: out, names };
}

/** Index just past the character class opening at `start` (Go's `parseClass` rules for `]`). */
function classEnd(pattern: string, start: number): number {
  let i = start + 1;
  if (pattern[i] === '^') i++;
  if (pattern[i] === ']') i++;
  while (i < pattern.length && pattern[i] !== ']') {
    if (pattern.startsWith('[:', i) && pattern.indexOf(':]', i + 2) >= 0) {
      i = pattern.indexOf(':]', i + 2) + 2;
    } else {
      i += pattern[i] === '\\' ? 2 : 1;
    }
  }
  return i + 1;
}

/** Go's `regexp.MatchString(pattern, s)`. */
export function matchGoRegexp(pattern: string, s: string): boolean {
  return compileGoRegexp(pattern).matchString(s);
}

const META = new Set('\\.+*?()|[]{}^$');

/** Go's `regexp.QuoteMeta`: escapes `\.+*?()|[]{}^$`, so the result matches `s` literally. */
export function quoteMeta(s: string): string {
  let out = '';
  for (const ch of s) out += META.has(ch) ? `\\${ch}` : ch;
  return out;
}

/** Width of the code point at `i` (Go steps one rune; past the end the width is 0). */
function charWidth(s: string, i: number): number {
  if (i >= s.length) return 0;
  const c = s.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
    const d = s.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return 2;
  }
  return 1;
}

/** A Go-style match: pairs of [start, end) per group, -1 for a group that did not participate. */
type MatchIndex = number[];

/**
 * A compiled Go regular expression. Methods are Go's, lower-camel-cased; `null` stands for Go's nil
 * result, `''` for an unmatched group's text and `-1` for its index, as in Go.
 */
export class GoRegexp {
  readonly #source: string;
  readonly #re: RE2JS;
  readonly #names: readonly string[];

  /** Use `compileGoRegexp`. */
  constructor(source: string, re: RE2JS, names: readonly string[]) {
    this.#source = source;
    this.#re = re;
    this.#names = names;
  }

  /** The source text (Go's `String()`). */
  toString(): string {
    return this.#source;
  }

  /** Number of parenthesized subexpressions (Go's `NumSubexp`). */
  numSubexp(): number {
    return this.#names.length - 1;
  }

  /** Names of the subexpressions, `''` for unnamed ones; index 0 is the whole match (Go's `SubexpNames`). */
  subexpNames(): string[] {
    return [...this.#names];
  }

  /** Index of the first subexpression with this name, or -1 (Go's `SubexpIndex`). */
  subexpIndex(name: string): number {
    return name === '' ? -1 : this.#names.indexOf(name);
  }

  matchString(s: string): boolean {
    return this.#re.matcher(s).find();
  }

  findString(s: string): string {
    const m = this.#execute(this.#re.matcher(s), s, 0, 1);
    return m === null ? '' : s.slice(m[0], m[1]);
  }

  findStringIndex(s: string): [number, number] | null {
    const m = this.#execute(this.#re.matcher(s), s, 0, 1);
    return m === null ? null : [m[0], m[1]];
  }

  findStringSubmatch(s: string): string[] | null {
    const m = this.#execute(this.#re.matcher(s), s, 0);
    return m === null ? null : submatchTexts(s, m);
  }

  findStringSubmatchIndex(s: string): number[] | null {
    return this.#execute(this.#re.matcher(s), s, 0);
  }

  /** All successive non-overlapping matches, at most `n` of them (`n < 0`: all). */
  findAllString(s: string, n: number): string[] | null {
    return nullIfEmpty(this.#allMatches(s, n, 1).map((m) => s.slice(m[0], m[1])));
  }

  findAllStringIndex(s: string, n: number): Array<[number, number]> | null {
    return nullIfEmpty(this.#allMatches(s, n, 1).map((m): [number, number] => [m[0], m[1]]));
  }

  findAllStringSubmatch(s: string, n: number): string[][] | null {
    return nullIfEmpty(this.#allMatches(s, n).map((m) => submatchTexts(s, m)));
  }

  findAllStringSubmatchIndex(s: string, n: number): number[][] | null {
    return nullIfEmpty(this.#allMatches(s, n));
  }

  /** Replaces every match with `repl`, expanding `$1`, `${1}`, `$name`, `${name}` and `$$` (Go's `Expand`). */
  replaceAllString(src: string, repl: string): string {
    return this.#replaceAll(src, (m) => this.expandString(repl, src, m), repl.includes('$') ? undefined : 1);
  }

  /** Replaces every match with `repl` verbatim. */
  replaceAllLiteralString(src: string, repl: string): string {
    return this.#replaceAll(src, () => repl, 1);
  }

  /** Replaces every match with `repl(matchedText)` verbatim. */
  replaceAllStringFunc(src: string, repl: (match: string) => string): string {
    return this.#replaceAll(src, (m) => repl(src.slice(m[0], m[1])), 1);
  }

  /**
   * Go's `Expand` on strings: `$name` takes the longest run of letters, digits and `_` (so `$1x` is
   * the group named `1x`, empty), `${name}` is delimited, `$$` is `$`, a malformed `$` stays literal;
   * an out-of-range, unmatched or unknown group expands to nothing.
   */
  expandString(template: string, src: string, match: readonly number[]): string {
    let out = '';
    let rest = template;
    for (;;) {
      const dollar = rest.indexOf('$');
      if (dollar < 0) break;
      out += rest.slice(0, dollar);
      rest = rest.slice(dollar + 1);
      if (rest.startsWith('$')) {
        out += '$';
        rest = rest.slice(1);
        continue;
      }
      const ref = extractReference(rest);
      if (ref === null) {
        out += '$';
        continue;
      }
      rest = rest.slice(ref.length);
      const group = ref.num >= 0 ? ref.num : this.#names.indexOf(ref.name, 1);
      if (group >= 0 && 2 * group + 1 < match.length && match[2 * group] >= 0) {
        out += src.slice(match[2 * group], match[2 * group + 1]);
      }
    }
    return out + rest;
  }

  /**
   * Slices `s` around the matches (Go's `Split`): `n > 0` at most n substrings, the last one the
   * unsplit rest; `n == 0` null (Go's nil); `n < 0` all of them.
   */
  split(s: string, n: number): string[] | null {
    if (n === 0) return null;
    if (this.#source.length > 0 && s.length === 0) return [''];
    const matches = this.#allMatches(s, n, 1);
    const parts: string[] = [];
    let begin = 0;
    let end = 0;
    for (const m of matches) {
      if (n > 0 && parts.length >= n - 1) break;
      end = m[0]!;
      if (m[1] !== 0) parts.push(s.slice(begin, end));
      begin = m[1]!;
    }
    if (end !== s.length) parts.push(s.slice(begin));
    return parts;
  }

  /**
   * The leftmost match starting the search at `pos` (with the text before `pos` as context), as
   * index pairs for the first `groups` groups (Go's `doExecute` with ncap = 2 × groups).
   */
  #execute(matcher: Matcher, s: string, pos: number, groups = this.#names.length): MatchIndex | null {
    if (pos > s.length || !matcher.find(pos)) return null;
    const out: MatchIndex = new Array<number>(2 * groups);
    for (let g = 0; g < groups; g++) {
      out[2 * g] = matcher.start(g);
      out[2 * g + 1] = matcher.end(g);
    }
    return out;
  }

  /** Go's `allMatches`: an empty match right after the previous match is skipped. */
  #allMatches(s: string, n: number, groups = this.#names.length): MatchIndex[] {
    const limit = n < 0 ? s.length + 1 : n;
    const matcher = this.#re.matcher(s);
    const out: MatchIndex[] = [];
    let pos = 0;
    let prevMatchEnd = -1;
    while (out.length < limit && pos <= s.length) {
      const m = this.#execute(matcher, s, pos, groups);
      if (m === null) break;
      let accept = true;
      if (m[1] === pos) {
        if (m[0] === prevMatchEnd) accept = false;
        const width = charWidth(s, pos);
        pos = width > 0 ? pos + width : s.length + 1;
      } else {
        pos = m[1]!;
      }
      prevMatchEnd = m[1]!;
      if (accept) out.push(m);
    }
    return out;
  }

  /** Go's `replaceAll`: no replacement for an empty match immediately after another match. */
  #replaceAll(src: string, repl: (m: MatchIndex) => string, groups = this.#names.length): string {
    const matcher = this.#re.matcher(src);
    const parts: string[] = [];
    let lastMatchEnd = 0;
    let searchPos = 0;
    while (searchPos <= src.length) {
      const m = this.#execute(matcher, src, searchPos, groups);
      if (m === null) break;
      parts.push(src.slice(lastMatchEnd, m[0]));
      if (m[1] > lastMatchEnd || m[0] === 0) parts.push(repl(m));
      lastMatchEnd = m[1]!;
      const width = charWidth(src, searchPos);
      if (searchPos + width > m[1]) searchPos += width;
      else if (searchPos + 1 > m[1]) searchPos++;
      else searchPos = m[1]!;
    }
    parts.push(src.slice(lastMatchEnd));
    return parts.join('');
  }
}

function submatchTexts(s: string, m: MatchIndex): string[] {
  const out: string[] = [];
  for (let i = 0; i < m.length; i += 2) out.push(m[i] >= 0 ? s.slice(m[i], m[i + 1]) : '');
  return out;
}

function nullIfEmpty<T>(list: T[]): T[] | null {
  return list.length === 0 ? null : list;
}

const NAME_CHAR = /[\p{L}\p{Nd}_]/u;

/**
 * Go's `extract`: the reference after a `$`, as `name` or `{name}`; `num` is its group number when
 * the name is decimal without a leading zero (and below 1e8), else -1. `length` counts the
 * characters consumed after the `$`.
 */
function extractReference(str: string): { name: string; num: number; length: number } | null {
  if (str === '') return null;
  const brace = str.startsWith('{');
  let i = brace ? 1 : 0;
  const start = i;
  while (i < str.length) {
    const ch = String.fromCodePoint(str.codePointAt(i)!);
    if (!NAME_CHAR.test(ch)) break;
    i += ch.length;
  }
  if (i === start) return null;
  const name = str.slice(start, i);
  if (brace) {
    if (str[i] !== '}') return null;
    i++;
  }
  let num = 0;
  for (const ch of name) {
    if (ch < '0' || ch > '9' || num >= 1e8) {
      num = -1;
      break;
    }
    num = num * 10 + (ch.charCodeAt(0) - 48);
  }
  if (name.startsWith('0') && name.length > 1) num = -1;
  return { name, num, length: i };
}
