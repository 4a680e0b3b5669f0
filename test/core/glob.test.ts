/**
 * src/core/glob.ts: Go's filepath.Match (cases worked out from the grammar documented in golang/go
 * src/path/filepath/match.go) and doublestar globs, both without backtracking blow-ups.
 */
import { describe, expect, it } from 'vitest';
import { BAD_PATTERN, compileDoublestar, GlobSyntaxError, matchFilepath } from '../../src/core/glob.ts';

describe('matchFilepath (Go filepath.Match)', () => {
  const cases: Array<[string, string, boolean, string?]> = [
    ['*.yaml', 'a.yaml', true],
    ['*.yaml', 'd/a.yaml', false],
    ['*', 'a/b', false],
    ['a?c', 'abc', true],
    ['a?c', 'a/c', false],
    ['a*/b', 'abc/b', true],
    ['a*b*c', 'axxbyyc', true],
    ['a*b*c', 'axxbyy', false],
    ['[^a]b', 'bb', true],
    ['[^a]b', 'ab', false],
    ['[!a]b', '!b', true],
    ['[a-c]x', 'bx', true],
    ['[\\]]', ']', true],
    ['\\*', '*', true],
    ['\\*', 'a', false],
    ['é?', 'éü', true],
    ['[z-a]', 'm', false],
    ['a[', 'a', false],
    ['a[', 'b', false],
    ['[', 'a', false, BAD_PATTERN],
    ['*[', 'ab', false, BAD_PATTERN],
    ['[]', 'a', false, BAD_PATTERN],
    ['[a-]', 'a', false, BAD_PATTERN],
    ['x\\', 'x', false],
  ];
  for (const [pattern, name, matched, error] of cases) {
    it(`${pattern} ~ ${name}`, () => {
      expect(matchFilepath(pattern, name)).toEqual(error ? { matched, error } : { matched });
    });
  }

  it('finishes long wildcard chains on long names', () => {
    expect(matchFilepath(`${'*a'.repeat(30)}*c`, 'a'.repeat(20_000)).matched).toBe(false);
    expect(matchFilepath(`${'*a'.repeat(30)}*c`, `${'a'.repeat(20_000)}c`).matched).toBe(true);
  });
});

describe('compileDoublestar', () => {
  it('spans segments with ** and expands {a,b}', () => {
    const g = compileDoublestar('a/**/b.yaml');
    expect(g.match('a/b.yaml')).toBe(true);
    expect(g.match('a/x/y/b.yaml')).toBe(true);
    expect(g.match('b/x/b.yaml')).toBe(false);
    expect(compileDoublestar('*.{yaml,yml}').match('x.yml')).toBe(true);
    expect(compileDoublestar('*.{yaml,yml}').match('d/x.yml')).toBe(false);
    expect(compileDoublestar('[!a]*').match('b.yaml')).toBe(true);
  });

  it('finishes long wildcard chains on long names', () => {
    expect(compileDoublestar(`${'*a'.repeat(30)}*c`).match('a'.repeat(20_000))).toBe(false);
    expect(compileDoublestar(`${'**/a'.repeat(20)}x`).match('a/'.repeat(5_000))).toBe(false);
  });

  it('treats a reversed range as doublestar does: only its first character matches', () => {
    const g = compileDoublestar('[z-a].yaml');
    expect(g.match('z.yaml')).toBe(true);
    expect(g.match('m.yaml')).toBe(false);
  });

  it('** is special only as a whole segment; a trailing /** matches the directory too', () => {
    expect(compileDoublestar('a/**.yaml').match('a/x/y.yaml')).toBe(false);
    expect(compileDoublestar('a/**.yaml').match('a/y.yaml')).toBe(true);
    expect(compileDoublestar('a/**').match('a')).toBe(true);
    expect(compileDoublestar('a/**').match('a/b/c')).toBe(true);
    expect(compileDoublestar('**').match('a/b/c')).toBe(true);
    expect(compileDoublestar('{a,{b,c}}/*.yaml').match('c/x.yaml')).toBe(true);
  });

  it('reports malformed globs with Go ErrBadPattern text, not a RegExp error', () => {
    for (const bad of ['[]', '[abc', '{a,b', 'a\\']) {
      expect(() => compileDoublestar(bad)).toThrow(GlobSyntaxError);
      expect(() => compileDoublestar(bad)).toThrow(BAD_PATTERN);
    }
  });
});
