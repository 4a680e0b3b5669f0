/**
 * Glob matching (builtins/lib/glob.ts, doublestar style) and `.krmignore` rules
 * (src/engine/krmignore.ts, gitignore style) against a small reference matcher written here from
 * their documented semantics, on small patterns and paths: `*` and `?` stay in one segment, `**`
 * spans segments only as a whole segment (doublestar v4; `**` + `/` also matches no segment;
 * elsewhere it is `*`), `[ab]` / `[!a]` / `[^a]` classes. A `.krmignore` rule follows go-gitignore as kpt
 * pins it (Go's filepath.Match: only `[^a]` negates a class): `**` is an ordinary `*` (one segment), a rule with a `/` before its end is anchored at
 * the root, otherwise it matches at any depth; a trailing `/` matches directories only; a matching
 * `!` rule wins over every ignoring rule, whatever their order.
 */
import fc from 'fast-check';
import { globMatch } from '../../../builtins/lib/glob.ts';
import { parseKrmignore } from '../../../src/engine/krmignore.ts';
import { target, utf8 } from '../harness.ts';

/** Reference glob: memoized recursion over (pattern index, path index). */
export function referenceGlob(pattern: string, path: string, classNegation: readonly string[] = ['!', '^']): boolean {
  const memo = new Map<number, boolean>();
  const at = (pi: number, si: number): boolean => {
    const key = pi * (path.length + 1) + si;
    const known = memo.get(key);
    if (known !== undefined) return known;
    const r = step(pi, si);
    memo.set(key, r);
    return r;
  };
  const step = (pi: number, si: number): boolean => {
    if (pi === pattern.length) return si === path.length;
    const c = pattern[pi];
    const wholeSegment =
      (pi === 0 || pattern[pi - 1] === '/') && (pi + 2 === pattern.length || pattern[pi + 2] === '/');
    if (c === '*' && pattern[pi + 1] === '*' && wholeSegment) {
      if (pattern[pi + 2] === '/') {
        if (at(pi + 3, si)) return true;
        for (let k = si + 1; k <= path.length; k++) if (path[k - 1] === '/' && at(pi + 3, k)) return true;
        return false;
      }
      for (let k = si; k <= path.length; k++) if (at(pi + 2, k)) return true;
      return false;
    }
    if (c === '*') {
      for (let k = si; k <= path.length; k++) {
        if (at(pi + 1, k)) return true;
        if (path[k] === '/') break;
      }
      return false;
    }
    if (si >= path.length) return false;
    const ch = path[si];
    if (c === '?') return ch !== '/' && at(pi + 1, si + 1);
    if (c === '[') {
      const close = pattern.indexOf(']', pi + 1);
      if (close > pi + 1) {
        let body = pattern.slice(pi + 1, close);
        const negate = classNegation.includes(body[0]);
        if (negate) body = body.slice(1);
        return ch !== '/' && body.includes(ch) !== negate && at(close + 1, si + 1);
      }
    }
    return ch === c && at(pi + 1, si + 1);
  };
  return at(0, 0);
}

/** Reference `.krmignore`: the rules of the module comment, over the reference glob. */
export function referenceIgnores(rules: string[], path: string, isDir: boolean): boolean {
  let ignored = false;
  let accepted = false;
  for (let rule of rules) {
    let negate = false;
    if (rule.startsWith('!')) {
      negate = true;
      rule = rule.slice(1);
    }
    let dirOnly = false;
    if (rule.endsWith('/')) {
      dirOnly = true;
      rule = rule.slice(0, -1);
    }
    const anchored = rule.includes('/');
    if (rule.startsWith('/')) rule = rule.slice(1);
    if (!rule || (dirOnly && !isDir)) continue;
    const starts = anchored ? [0] : [0, ...[...path].flatMap((c, i) => (c === '/' ? [i + 1] : []))];
    const oneSegmentRule = rule.replaceAll(/\*+/g, '*');
    if (starts.some((s) => referenceGlob(oneSegmentRule, path.slice(s), ['^']))) {
      if (negate) accepted = true;
      else ignored = true;
    }
  }
  return ignored && !accepted;
}

// Character classes are left to the unit tests (test/core/glob.test.ts): whether a class can match
// `/` differs between doublestar and Go's filepath.Match, and this reference does not model it.
const piece = fc.constantFrom('a', 'b', 'ab', '.', '/', '*', '?', '**', '**/', 'a*', '*b');
const pattern = fc.array(piece, { minLength: 1, maxLength: 5 }).map((p) => p.join(''));
const segment = fc.constantFrom('a', 'b', 'ab', 'ba', 'aab', '.a', 'b.b', '');
const path = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => s.join('/'));
const rule = fc
  .tuple(fc.boolean(), fc.boolean(), pattern)
  .map(([neg, dir, p]) => `${neg ? '!' : ''}${p}${dir ? '/' : ''}`)
  // Empty path segments (`a//b`) are degenerate rules whose go-gitignore reading this reference does not model.
  .filter((r) => !r.includes('//'));

type Input =
  | { kind: 'glob'; pattern: string; paths: string[] }
  | { kind: 'ignore'; rules: string[]; paths: string[]; isDir: boolean; fromCorpus?: boolean };

function check(i: Input): void {
  if (i.kind === 'glob') {
    for (const p of i.paths) {
      const got = globMatch(i.pattern, p);
      // doublestar: `a/**` also matches `a` itself (so `/**` matches the empty path).
      const want =
        referenceGlob(i.pattern, p) || (i.pattern.endsWith('/**') && referenceGlob(i.pattern.slice(0, -3), p));
      if (got !== want) throw new Error(`globMatch(${JSON.stringify(i.pattern)}, ${JSON.stringify(p)}) = ${got}`);
    }
    return;
  }
  // Generated rule sets only have to be read without a throw or a hang: which paths go-gitignore
  // ignores (parent directories, `!` precedence) is pinned by cases taken from the real kpt
  // (test/core/glob.test.ts); the corpus files below are checked against the reference too.
  const m = parseKrmignore(i.rules.join('\n'));
  for (const p of i.paths) {
    const got = m.ignores(p, i.isDir);
    if (typeof got !== 'boolean') throw new Error(`.krmignore ${JSON.stringify(i.rules)} gave ${String(got)}`);
    if (i.fromCorpus && got !== referenceIgnores(i.rules, p, i.isDir))
      throw new Error(`.krmignore ${JSON.stringify(i.rules)} ignores(${JSON.stringify(p)}, dir=${i.isDir}) = ${got}`);
  }
}

export const globTarget = target<Input>({
  name: 'glob',
  arbitrary: fc.oneof(
    fc.record({ kind: fc.constant('glob' as const), pattern, paths: fc.array(path, { minLength: 1, maxLength: 6 }) }),
    fc.record({
      kind: fc.constant('ignore' as const),
      rules: fc.array(rule, { minLength: 1, maxLength: 4 }),
      paths: fc.array(path, { minLength: 1, maxLength: 6 }),
      isDir: fc.boolean(),
    }),
  ),
  check,
  // A corpus file: first line the pattern (or rules separated by ` ;; `), then one path per line.
  fromCorpus: (b) => {
    const [head = '', ...paths] = utf8(b)
      .split('\n')
      .filter((l) => l !== '');
    return head.includes(' ;; ')
      ? { kind: 'ignore', rules: head.split(' ;; '), paths, isDir: false, fromCorpus: true }
      : { kind: 'glob', pattern: head, paths };
  },
});
