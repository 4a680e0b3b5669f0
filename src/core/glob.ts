/**
 * File-name globs, without backtracking regular expressions.
 *
 * - `matchFilepath`: Go's `path/filepath.Match` on Unix (golang/go `src/path/filepath/match.go`),
 *   ported step by step: `*` and `?` never cross `/`, `[...]` / `[^...]` classes with ranges and `\`
 *   escapes, and `ErrBadPattern` reported only when matching reaches the malformed part. Its
 *   algorithm commits to the first position where each star-separated chunk matches, so a match
 *   costs O(|pattern| × |name|) whatever the pattern (`*a*a*a*a*a*a*a*a*c` included). This is the
 *   glob of `.krmignore` (through go-gitignore) and of kyaml's `MatchFilesGlob`.
 * - `compileDoublestar`: bmatcuk/doublestar-style globs (`**` across segments, `{a,b}`), compiled
 *   to a Go regular expression (src/core/go-regexp.ts), so matching is linear in the name.
 */
import { compileGoRegexp } from './go-regexp.ts';

/** Go's `filepath.ErrBadPattern` text. */
export const BAD_PATTERN = 'syntax error in pattern';

export interface FilepathMatch {
  matched: boolean;
  /** `BAD_PATTERN` when the pattern is malformed where matching reached (Go returns an error). */
  error?: string;
}

const NO: FilepathMatch = { matched: false };
const BAD: FilepathMatch = { matched: false, error: BAD_PATTERN };

/** Go's `filepath.Match(pattern, name)` with `/` as the separator. */
export function matchFilepath(pattern: string, name: string): FilepathMatch {
  let pat = pattern;
  let rest = name;
  while (pat.length > 0) {
    const { star, chunk, after } = scanChunk(pat);
    pat = after;
    if (star && chunk === '') return { matched: !rest.includes('/') };
    const first = matchChunk(chunk, rest);
    if (first.ok && (first.rest.length === 0 || pat.length > 0)) {
      rest = first.rest;
      continue;
    }
    if (first.bad) return BAD;
    let advanced = false;
    if (star) {
      for (let i = 0; i < rest.length && rest[i] !== '/'; i++) {
        const t = matchChunk(chunk, rest.slice(i + 1));
        if (t.ok) {
          if (pat.length === 0 && t.rest.length > 0) continue;
          rest = t.rest;
          advanced = true;
          break;
        }
        if (t.bad) return BAD;
      }
    }
    if (!advanced) return NO;
  }
  return { matched: rest.length === 0 };
}

function scanChunk(pattern: string): { star: boolean; chunk: string; after: string } {
  let p = pattern;
  let star = false;
  while (p.startsWith('*')) {
    p = p.slice(1);
    star = true;
  }
  let inRange = false;
  let i = 0;
  scan: for (; i < p.length; i++) {
    switch (p[i]) {
      case '\\':
        if (i + 1 < p.length) i++;
        break;
      case '[':
        inRange = true;
        break;
      case ']':
        inRange = false;
        break;
      case '*':
        if (!inRange) break scan;
        break;
    }
  }
  return { star, chunk: p.slice(0, i), after: p.slice(i) };
}

interface ChunkResult {
  ok: boolean;
  bad: boolean;
  rest: string;
}

/** The first code point of `s` and its length in UTF-16 units (Go decodes one rune). */
function firstRune(s: string): { cp: number; len: number } {
  const cp = s.codePointAt(0)!;
  return { cp, len: cp > 0xffff ? 2 : 1 };
}

function matchChunk(chunkIn: string, sIn: string): ChunkResult {
  let chunk = chunkIn;
  let s = sIn;
  const fail = (bad = false): ChunkResult => ({ ok: false, bad, rest: '' });
  while (chunk.length > 0) {
    if (s.length === 0) return fail();
    switch (chunk[0]) {
      case '[': {
        const r = firstRune(s);
        s = s.slice(r.len);
        chunk = chunk.slice(1);
        if (chunk.length === 0) return fail(true);
        const negated = chunk[0] === '^';
        if (negated) chunk = chunk.slice(1);
        let match = false;
        let nrange = 0;
        for (;;) {
          if (chunk.length > 0 && chunk[0] === ']' && nrange > 0) {
            chunk = chunk.slice(1);
            break;
          }
          const lo = getEsc(chunk);
          if (lo === null) return fail(true);
          chunk = lo.rest;
          let hi = lo.cp;
          if (chunk[0] === '-') {
            const h = getEsc(chunk.slice(1));
            if (h === null) return fail(true);
            chunk = h.rest;
            hi = h.cp;
          }
          if (lo.cp <= r.cp && r.cp <= hi) match = true;
          nrange++;
        }
        if (match === negated) return fail();
        break;
      }
      case '?': {
        if (s[0] === '/') return fail();
        s = s.slice(firstRune(s).len);
        chunk = chunk.slice(1);
        break;
      }
      default: {
        // `\c` matches c itself.
        if (chunk[0] === '\\') {
          chunk = chunk.slice(1);
          if (chunk.length === 0) return fail(true);
        }
        if (chunk[0] !== s[0]) return fail();
        s = s.slice(1);
        chunk = chunk.slice(1);
      }
    }
  }
  return { ok: true, bad: false, rest: s };
}

/** Go's `getEsc`: one possibly escaped character of a class; null for `ErrBadPattern`. */
function getEsc(chunkIn: string): { cp: number; rest: string } | null {
  let chunk = chunkIn;
  if (chunk.length === 0 || chunk[0] === '-' || chunk[0] === ']') return null;
  if (chunk[0] === '\\') {
    chunk = chunk.slice(1);
    if (chunk.length === 0) return null;
  }
  const r = firstRune(chunk);
  const rest = chunk.slice(r.len);
  if (rest.length === 0) return null;
  return { cp: r.cp, rest };
}

/** A compiled doublestar glob; `match` is linear in the name. */
export interface Glob {
  match(name: string): boolean;
}

/** Thrown for a glob that does not compile (Go's `ErrBadPattern` text). */
export class GlobSyntaxError extends Error {
  readonly pattern: string;
  constructor(pattern: string) {
    super(BAD_PATTERN);
    this.pattern = pattern;
    this.name = 'GlobSyntaxError';
  }
}

/**
 * bmatcuk/doublestar v4 `Match` semantics (its `match.go`): `*` and `?` stay inside one path
 * segment; `**` is special only as a whole segment (`a/**\/b` also matches `a/b`, a trailing `/**`
 * also matches the directory itself), elsewhere it is `*`; `[class]` / `[!class]` / `[^class]`
 * with ranges (in a reversed range such as `[z-a]` only the `z` matches, as in doublestar; not an
 * error); nested `{a,b}`
 * alternatives; `\` escapes. A malformed pattern (unclosed `[` or `{`, empty class, trailing `\`)
 * throws `GlobSyntaxError`, doublestar's `ErrBadPattern`.
 */
export function compileDoublestar(glob: string): Glob {
  const re = compileGoRegexp(`^${doublestarToRegexp(glob)}$`);
  return { match: (name) => re.matchString(name) };
}

/** One character as an RE2 literal (`/` kept readable: the `**` rules look for it). */
function literal(cp: number): string {
  return cp === 0x2f ? '/' : `\\x{${cp.toString(16)}}`;
}

const ANY_RUNE = '[\\x{0}-\\x{10ffff}]';
const NO_RUNE = '[^\\x{0}-\\x{10ffff}]';

function doublestarToRegexp(glob: string): string {
  let re = '';
  let i = 0;
  const atSegmentStart = (): boolean => i === 0 || glob[i - 1] === '/';
  while (i < glob.length) {
    const c = glob[i];
    if (c === '*') {
      if (glob[i + 1] === '*' && atSegmentStart()) {
        if (i + 2 === glob.length) {
          // `a/**` matches below a and a itself; a leading `**` matches everything.
          if (re.endsWith('/')) re = `${re.slice(0, -1)}(?:/.*)?`;
          else re += '.*';
          i += 2;
          continue;
        }
        if (glob[i + 2] === '/') {
          re += '(?:.*/)?';
          i += 3;
          continue;
        }
      }
      while (glob[i] === '*') i++;
      re += '[^/]*';
    } else if (c === '?') {
      re += '[^/]';
      i++;
    } else if (c === '\\') {
      if (i + 1 >= glob.length) throw new GlobSyntaxError(glob);
      const cp = glob.codePointAt(i + 1)!;
      re += literal(cp);
      i += 1 + (cp > 0xffff ? 2 : 1);
    } else if (c === '[') {
      const { regexp, end } = classToRegexp(glob, i);
      re += regexp;
      i = end;
    } else if (c === '{') {
      const close = matchingBrace(glob, i + 1);
      if (close < 0) throw new GlobSyntaxError(glob);
      const alternatives = topLevelAlternatives(glob.slice(i + 1, close));
      re += `(?:${alternatives.map(doublestarToRegexp).join('|')})`;
      i = close + 1;
    } else {
      const cp = glob.codePointAt(i)!;
      re += literal(cp);
      i += cp > 0xffff ? 2 : 1;
    }
  }
  return re;
}

/** The class opening at `start` as an RE2 class, and the index after its `]`. */
function classToRegexp(glob: string, start: number): { regexp: string; end: number } {
  let i = start + 1;
  const negate = glob[i] === '!' || glob[i] === '^';
  if (negate) i++;
  if (i >= glob.length || glob[i] === ']') throw new GlobSyntaxError(glob);
  const items: string[] = [];
  let last: number | undefined;
  while (i < glob.length && glob[i] !== ']') {
    let cp = glob.codePointAt(i)!;
    i += cp > 0xffff ? 2 : 1;
    if (cp === 0x2d /* - */ && last !== undefined && i < glob.length && glob[i] !== ']') {
      if (glob[i] === '\\') i++;
      const hi = glob.codePointAt(i)!;
      i += hi > 0xffff ? 2 : 1;
      // doublestar has already compared `last` on its own, so it stays in the class.
      if (last <= hi) items.push(`${literal(last)}-${literal(hi)}`);
      last = undefined;
      continue;
    }
    if (cp === 0x5c /* \ */) {
      if (i >= glob.length) throw new GlobSyntaxError(glob);
      cp = glob.codePointAt(i)!;
      i += cp > 0xffff ? 2 : 1;
    }
    items.push(literal(cp));
    last = cp;
  }
  if (i >= glob.length) throw new GlobSyntaxError(glob);
  const body = items.join('');
  const regexp = body === '' ? (negate ? ANY_RUNE : NO_RUNE) : `[${negate ? '^' : ''}${body}]`;
  return { regexp, end: i + 1 };
}

/** doublestar's `indexMatchedClosingAlt`: the `}` closing a `{` just before `from`, or -1. */
function matchingBrace(glob: string, from: number): number {
  let open = 1;
  for (let i = from; i < glob.length; i++) {
    if (glob[i] === '\\') i++;
    else if (glob[i] === '{') open++;
    else if (glob[i] === '}' && --open === 0) return i;
  }
  return -1;
}

/** The comma-separated alternatives of a brace body, nested braces kept whole. */
function topLevelAlternatives(body: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '\\') i++;
    else if (body[i] === '{') depth++;
    else if (body[i] === '}') depth--;
    else if (body[i] === ',' && depth === 0) {
      out.push(body.slice(from, i));
      from = i + 1;
    }
  }
  out.push(body.slice(from));
  return out;
}
