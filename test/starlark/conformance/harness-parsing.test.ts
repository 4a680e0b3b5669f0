// The pure parts of the chunked test-file format: chunk splitting, options, `###` expectations,
// Go string literals and RE2 translation (docs/starlark.md, "Test files").
import { describe, expect, it } from 'vitest';
import { splitChunks, chunkOptions } from '../../../src/starlark/testing/chunks.ts';
import { unquoteGoString } from '../../../src/starlark/testing/go-string.ts';
import { compileRe2 } from '../../../src/starlark/testing/re2.ts';
import { parseExpectations, TestHarnessError } from '../../../src/starlark/testing/expectations.ts';
import { floatsClose } from '../../../src/starlark/testing/assert-module.ts';
import { joinPath } from '../../../src/starlark/testing/paths.ts';

describe('splitChunks', () => {
  it('splits on lines that are exactly ---, keeping file line numbers', () => {
    const chunks = splitChunks('a = 1\nb = 2\n---\nc = 3\n--- not a separator\n---\nd\r\ne');
    expect(chunks.map((c) => [c.startLine, c.text])).toEqual([
      [1, 'a = 1\nb = 2'],
      [4, 'c = 3\n--- not a separator'],
      [7, 'd\ne'],
    ]);
    expect(chunks[1].source).toBe('\n\n\nc = 3\n--- not a separator');
    expect(chunks[2].source.split('\n').length - 1).toBe(7);
  });
  it('treats a file without separators as one chunk', () => {
    expect(splitChunks('x').map((c) => c.source)).toEqual(['x']);
  });
  it('normalises CR and CRLF before splitting', () => {
    expect(splitChunks('a\r\n---\r\nb\rc').map((c) => c.text)).toEqual(['a', 'b\nc']);
  });
});

describe('chunkOptions', () => {
  it('finds option:NAME anywhere, like upstream', () => {
    expect([...chunkOptions('# option:set option:globalreassign\nx = "option:recursion"')].sort()).toEqual([
      'globalreassign',
      'recursion',
      'set',
    ]);
    expect([...chunkOptions('# option:nosuch')]).toEqual([]);
    expect([...chunkOptions('#option:while option:toplevelcontrol option:loadbindsglobally')].sort()).toEqual([
      'loadbindsglobally',
      'toplevelcontrol',
      'while',
    ]);
  });
});

describe('unquoteGoString', () => {
  it.each([
    ['"abc"', 'abc'],
    ['"a\\"b"', 'a"b'],
    ['"\\\\d+"', '\\d+'],
    ['"\\t\\n\\a\\v\\f\\r\\b"', '\t\n\x07\v\f\r\b'],
    ['"\\x41\\101"', 'AA'],
    ['"\\xc3\\xa9"', 'é'],
    ['"\\u00e9\\U0001F600"', 'é😀'],
    ['"é"', 'é'],
    ['`raw \\d "quotes"`', 'raw \\d "quotes"'],
    ['""', ''],
  ])('%s', (lit, want) => {
    expect(unquoteGoString(lit)).toBe(want);
  });
  it.each(['abc', '"abc', "'abc'", '"a"b"', '"\\q"', '"\\x4"', '"\\400"', '"\\ud800"', '`a`b`', '"a" # more'])(
    'rejects %s',
    (lit) => {
      expect(unquoteGoString(lit)).toBeNull();
    },
  );
});

describe('compileRe2', () => {
  const matches = (re: string, s: string): boolean => {
    const r = compileRe2(re);
    if (!r.ok) throw new Error(r.error);
    return r.regexp.test(s);
  };
  it('matches unanchored', () => {
    expect(matches('b+', 'abbbc')).toBe(true);
    expect(matches('^b', 'abc')).toBe(false);
  });
  it('translates RE2-only forms', () => {
    expect(matches('(?i)hello', 'HeLLo')).toBe(true);
    expect(matches('(?s)a.b', 'a\nb')).toBe(true);
    expect(matches('(?P<x>ab)c', 'abc')).toBe(true);
    expect(matches('\\Aab', 'abc')).toBe(true);
    expect(matches('\\Aab', 'cab')).toBe(false);
    expect(matches('bc\\z', 'abc')).toBe(true);
    expect(matches('bc\\z', 'abcd')).toBe(false);
    expect(matches('\\Q1+1\\E=2', '1+1=2')).toBe(true);
    expect(matches('[[:digit:]]+x', 'a12x')).toBe(true);
    expect(matches('[^[:space:]]', '   ')).toBe(false);
    expect(matches('[]a]', ']')).toBe(true);
    expect(matches('"a\\"', '"a"')).toBe(true);
  });
  it('rejects what JS cannot express', () => {
    expect(compileRe2('a(?i)b').ok).toBe(false);
    expect(compileRe2('(?U)a+').ok).toBe(false);
    expect(compileRe2('\\C').ok).toBe(false);
    expect(compileRe2('(unclosed').ok).toBe(false);
  });
});

describe('parseExpectations', () => {
  it('keys expectations by file line', () => {
    const ex = parseExpectations('t.star', 'x = 1\ny = f() ### "oops \\\\d"\nz ### `raw`', 10);
    expect([...ex.values()].map((e) => [e.line, e.pattern])).toEqual([
      [11, 'oops \\d'],
      [12, 'raw'],
    ]);
    expect(ex.get(11)!.regexp.test('oops 7')).toBe(true);
  });
  it('reports a malformed literal or regexp as a harness error with its line', () => {
    expect(() => parseExpectations('t.star', '\nx ### oops', 1)).toThrow(TestHarnessError);
    expect(() => parseExpectations('t.star', '\nx ### oops', 1)).toThrow('t.star:2: not a quoted regexp: oops');
    expect(() => parseExpectations('t.star', 'x ### "("', 1)).toThrow(/t\.star:1: error parsing regexp/);
  });
});

describe('floatsClose', () => {
  it('accepts adjacent doubles and NaN = NaN, rejects more', () => {
    expect(floatsClose(0.1 + 0.2, 0.3)).toBe(true);
    expect(floatsClose(1, 1 + Number.EPSILON)).toBe(true);
    expect(floatsClose(1, 1 + 2 * Number.EPSILON)).toBe(false);
    expect(floatsClose(NaN, NaN)).toBe(true);
    expect(floatsClose(NaN, 1)).toBe(false);
    expect(floatsClose(5e-324, -5e-324)).toBe(false);
    expect(floatsClose(0, -0)).toBe(true);
    expect(floatsClose(-1, -(1 + Number.EPSILON))).toBe(true);
  });
});

describe('joinPath', () => {
  it('resolves load names against the loading file', () => {
    expect(joinPath('test/suite', 'testdata/lib.star')).toBe('test/suite/testdata/lib.star');
    expect(joinPath('test/suite', '../x.star')).toBe('test/x.star');
    expect(joinPath('', 'a.star')).toBe('a.star');
    expect(joinPath('/abs/dir', './b.star')).toBe('/abs/dir/b.star');
  });
});
