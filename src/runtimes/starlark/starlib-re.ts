/**
 * `load("re.star", "re")`: qri-io/starlib v0.5.0 `re/re.go`, over Go's RE2 `regexp` semantics
 * (src/core/go-regexp.ts: linear time, Go syntax and error texts).
 *
 * Upstream's shapes, reproduced on purpose:
 * - `search(pattern, string)` → `[start, end]` (UTF-8 byte offsets) of the first match, or None;
 * - `match(pattern, string)` → a list with one tuple per match: the whole match and every group
 *   (unmatched groups `""`) — every match, not only one at the start;
 * - `findall(pattern, string)` → a tuple of the whole matches (groups ignored);
 * - `split(pattern, string, maxsplit=0)` → a tuple, Go's `Split` with n = maxsplit or -1;
 * - `sub(pattern, repl, string, count=0)` → Go's `ReplaceAllString` (`$1`/`${name}` expansion);
 *   `count` is ignored, and an invalid pattern returns None instead of failing (upstream bug);
 * - `compile(pattern)` → a `regexp` value (str/repr: the pattern; hashable; falsy when the pattern
 *   is empty) with the same methods minus `pattern`; `flags` arguments are accepted and ignored.
 */
import { compileGoRegexp, GoRegexpError, type GoRegexp } from '../../core/go-regexp.ts';
import { Builtin, List, Module, None, Tuple, fail, fromHostString, toHostString } from '../../starlark/index.ts';
import type { Kwargs, Thread, Value } from '../../starlark/index.ts';
import { unpack, wantInt, wantString } from '../../starlark/lib/args.ts';

function compile(pattern: string): GoRegexp {
  try {
    return compileGoRegexp(toHostString(pattern));
  } catch (e) {
    if (e instanceof GoRegexpError) fail(e.message);
    throw e;
  }
}

/** UTF-8 length of `s.slice(0, end)` (a host string). */
function byteOffset(s: string, end: number): number {
  let n = 0;
  for (let i = 0; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < end) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

const strings = (xs: readonly string[] | null): Tuple => new Tuple((xs ?? []).map(fromHostString));

function reSearch(re: GoRegexp, s: string): Value {
  const host = toHostString(s);
  const m = re.findStringIndex(host);
  return m ? new List([byteOffset(host, m[0]), byteOffset(host, m[1])]) : None;
}

function reMatch(re: GoRegexp, s: string): Value {
  return new List((re.findAllStringSubmatch(toHostString(s), -1) ?? []).map((m) => strings(m)));
}

function reSplit(re: GoRegexp, s: string, maxsplit: number): Value {
  return strings(re.split(toHostString(s), maxsplit === 0 ? -1 : maxsplit));
}

function reFindall(re: GoRegexp, s: string): Value {
  return strings(re.findAllString(toHostString(s), -1));
}

function reSub(re: GoRegexp, repl: string, s: string): Value {
  return fromHostString(re.replaceAllString(toHostString(s), toHostString(repl)));
}

type Op = 'search' | 'match' | 'split' | 'findall' | 'sub';

/**
 * Parameter lists after `pattern` (module functions) or as methods: upstream's UnpackArgs specs,
 * where `split`'s and `sub`'s `flags` has no `?` (so a positional `maxsplit`/`count` makes it
 * required; see unpack in src/starlark/lib/args.ts). `flags`, `count` are type-checked, then unused.
 */
const PARAMS: Readonly<Record<Op, readonly string[]>> = {
  search: ['string', 'flags?'],
  match: ['string', 'flags?'],
  split: ['string', 'maxsplit?', 'flags'],
  findall: ['string', 'flags?'],
  sub: ['repl', 'string', 'count?', 'flags'],
};

function run(op: Op, thread: Thread, re: GoRegexp, v: (Value | undefined)[], l: string[]): Value {
  // Type checks in parameter order, as UnpackArgs converts them.
  const params = PARAMS[op];
  let s = '';
  let repl = '';
  let maxSplit = 0;
  params.forEach((p, i) => {
    if (v[i] === undefined) return;
    const name = p.replace('?', '');
    if (name === 'string') s = wantString(op, l[i], v[i]);
    else if (name === 'repl') repl = wantString(op, l[i], v[i]);
    else if (name === 'maxsplit') maxSplit = wantInt(op, l[i], v[i]);
    else wantInt(op, l[i], v[i]); // count, flags: checked, unused upstream
  });
  thread.alloc(2 * s.length);
  switch (op) {
    case 'search':
      return reSearch(re, s);
    case 'match':
      return reMatch(re, s);
    case 'findall':
      return reFindall(re, s);
    case 'split':
      return reSplit(re, s, maxSplit);
    case 'sub':
      return reSub(re, repl, s);
  }
}

function moduleFunction(op: Op): Builtin {
  return new Builtin(op, (thread: Thread, args: Value[], kwargs: Kwargs) => {
    const { values, labels } = unpack(op, args, kwargs, ['pattern', ...PARAMS[op]], thread.release);
    const pattern = wantString(op, labels[0], values[0]!);
    if (op === 'sub') {
      let re: GoRegexp;
      try {
        re = compileGoRegexp(toHostString(pattern));
      } catch (e) {
        if (e instanceof GoRegexpError) return None;
        throw e;
      }
      return run(op, thread, re, values.slice(1), labels.slice(1));
    }
    return run(op, thread, compile(pattern), values.slice(1), labels.slice(1));
  });
}

const METHODS: Readonly<Record<Op, Builtin>> = Object.fromEntries(
  (Object.keys(PARAMS) as Op[]).map((op) => [
    op,
    new Builtin(op, (thread: Thread, args: Value[], kwargs: Kwargs, self: Builtin) => {
      const { values, labels } = unpack(op, args, kwargs, PARAMS[op], thread.release);
      return run(op, thread, (self.recv as Regex).re, values, labels);
    }),
  ]),
) as Record<Op, Builtin>;

/**
 * starlib's `*Regex` value. Hashed by identity: upstream hashes the pattern but has no equality
 * of its own, so only the same value finds its dict entry (`re.compile("a") != re.compile("a")`).
 */
export class Regex {
  readonly starlarkType = 'regexp';
  readonly re: GoRegexp;
  private readonly pattern: string;
  constructor(pattern: string, re: GoRegexp) {
    this.pattern = pattern;
    this.re = re;
  }
  attr(name: string): Value | undefined {
    const m = Object.prototype.hasOwnProperty.call(METHODS, name) ? METHODS[name as Op] : undefined;
    return m ? m.bind(this) : undefined;
  }
  attrNames(): string[] {
    return Object.keys(METHODS).sort();
  }
  truth(): boolean {
    return this.pattern !== '';
  }
  repr(out: string[]): void {
    out.push(this.pattern);
  }
  str(): string {
    return this.pattern;
  }
  freeze(): void {}
}

const compileBuiltin = new Builtin('compile', (thread: Thread, args: Value[], kwargs: Kwargs) => {
  const { values, labels } = unpack('compile', args, kwargs, ['pattern', 'flags?'], thread.release);
  const pattern = wantString('compile', labels[0], values[0]!);
  if (values[1] !== undefined) wantInt('compile', labels[1], values[1]);
  return new Regex(pattern, compile(pattern));
});

export const RE_MODULE = new Module('re', {
  compile: compileBuiltin,
  search: moduleFunction('search'),
  match: moduleFunction('match'),
  split: moduleFunction('split'),
  findall: moduleFunction('findall'),
  sub: moduleFunction('sub'),
});
