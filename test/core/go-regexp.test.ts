/**
 * Go `regexp` semantics of src/core/go-regexp.ts. Expected values follow the documented behaviour
 * of Go's regexp package (golang/go src/regexp/regexp.go doc comments and its syntax in
 * src/regexp/syntax/doc.go), worked out by hand from those rules.
 */
import { describe, expect, it } from 'vitest';
import { compileGoRegexp, GoRegexpError, matchGoRegexp, quoteMeta } from '../../src/core/go-regexp.ts';

function goError(pattern: string): string {
  try {
    compileGoRegexp(pattern);
  } catch (e) {
    expect(e).toBeInstanceOf(GoRegexpError);
    return (e as Error).message;
  }
  throw new Error(`expected ${pattern} to be rejected`);
}

describe('Go syntax', () => {
  it('accepts the RE2 syntax Go accepts', () => {
    expect(matchGoRegexp('(?i)hello', 'HeLLo world')).toBe(true);
    expect(matchGoRegexp('^(?P<x>a)(?<y>b)$', 'ab')).toBe(true);
    expect(matchGoRegexp('a\\z', 'a\n')).toBe(false);
    expect(matchGoRegexp('a$', 'a\n')).toBe(false);
    expect(matchGoRegexp('(?m)a$', 'a\nb')).toBe(true);
    expect(matchGoRegexp('\\Aab', 'ab')).toBe(true);
    expect(matchGoRegexp('^\\Qa.b*c\\E$', 'a.b*c')).toBe(true);
    expect(matchGoRegexp('^\\Qa.b*c\\E$', 'axbbc')).toBe(false);
    expect(matchGoRegexp('^\\pL+$', 'héllo')).toBe(true);
    expect(matchGoRegexp('^\\p{Greek}+$', 'αβγ')).toBe(true);
    expect(matchGoRegexp('^[[:upper:]]+$', 'ABC')).toBe(true);
    expect(matchGoRegexp('^.$', '\n')).toBe(false);
    expect(matchGoRegexp('(?s)^.$', '\n')).toBe(true);
    expect(matchGoRegexp('^.$', '😀')).toBe(true);
    expect(matchGoRegexp('^\\x{1F600}$', '😀')).toBe(true);
    expect(matchGoRegexp('(?i)k', '\u212a')).toBe(true);
  });

  it('is leftmost-first (Perl), with non-greedy operators and (?U)', () => {
    expect(compileGoRegexp('a|ab').findString('ab')).toBe('a');
    expect(compileGoRegexp('a+?').findString('aaa')).toBe('a');
    expect(compileGoRegexp('(?U)a+').findString('aaa')).toBe('a');
    expect(compileGoRegexp('(?U)a+?').findString('aaa')).toBe('aaa');
  });

  it('rejects what Go rejects, with Go error text', () => {
    expect(goError('(a')).toBe('error parsing regexp: missing closing ): `(a`');
    expect(goError('a)')).toBe('error parsing regexp: unexpected ): `a)`');
    expect(goError('[z-a]')).toBe('error parsing regexp: invalid character class range: `z-a`');
    expect(goError('a**')).toBe('error parsing regexp: invalid nested repetition operator: `**`');
    expect(goError('*')).toBe('error parsing regexp: missing argument to repetition operator: `*`');
    expect(goError('[a')).toBe('error parsing regexp: missing closing ]: `[a`');
    expect(goError('\\8')).toBe('error parsing regexp: invalid escape sequence: `\\8`');
    expect(goError('\\C')).toBe('error parsing regexp: invalid escape sequence: `\\C`');
    expect(goError('(?=a)')).toBe('error parsing regexp: invalid or unsupported Perl syntax: `(?=`');
    expect(goError('(?P=n)')).toBe('error parsing regexp: invalid or unsupported Perl syntax: `(?P`');
    expect(goError('(?P<n!>a)')).toBe('error parsing regexp: invalid named capture: `(?P<n!>`');
    expect(goError('a{1001}')).toBe('error parsing regexp: invalid repeat count: `{1001}`');
    expect(goError('\\pX')).toBe('error parsing regexp: invalid character class range: `\\pX`');
    expect(goError('a\\')).toBe('error parsing regexp: trailing backslash at end of expression: ``');
    const deep = '('.repeat(1001) + ')'.repeat(1001);
    expect(goError(deep)).toBe(`error parsing regexp: expression nests too deeply: \`${deep}\``);
  });

  it('carries the Go error code and offending expression as data', () => {
    try {
      compileGoRegexp('x(y');
      expect.unreachable();
    } catch (e) {
      expect(e).toMatchObject({ name: 'GoRegexpError', code: 'missing closing )', expr: 'x(y' });
    }
  });

  it('allows a capture name used twice, as Go does (SubexpIndex picks the leftmost)', () => {
    const re = compileGoRegexp('(?P<x>a)(b)(?P<x>[c)])\\((?:d)');
    expect(re.subexpNames()).toEqual(['', 'x', '', 'x']);
    expect(re.subexpIndex('x')).toBe(1);
    expect(re.replaceAllString('abc(d', '${x}-$2-$3')).toBe('a-b-c');
  });
});

describe('linear time', () => {
  it('finishes ^(a|a?)+$ on a 100k-character input', () => {
    const re = compileGoRegexp('^(a|a?)+$');
    expect(re.matchString('a'.repeat(100_000))).toBe(true);
    expect(re.matchString('a'.repeat(100_000) + 'b')).toBe(false);
  });

  it('finishes nested quantifiers over a long non-matching input', () => {
    const re = compileGoRegexp('(x+x+)+y');
    expect(re.matchString('x'.repeat(100_000))).toBe(false);
    expect(re.replaceAllString('x'.repeat(50_000), 'z')).toBe('x'.repeat(50_000));
  });
});

describe('finding', () => {
  const axb = compileGoRegexp('a(x*)b');

  it('FindString / FindStringIndex / FindStringSubmatch(Index)', () => {
    expect(axb.findString('-axxb-')).toBe('axxb');
    expect(axb.findString('none')).toBe('');
    expect(axb.findStringIndex('-axxb-')).toEqual([1, 5]);
    expect(axb.findStringIndex('none')).toBeNull();
    expect(axb.findStringSubmatch('-axxb-')).toEqual(['axxb', 'xx']);
    expect(axb.findStringSubmatchIndex('-ab-')).toEqual([1, 3, 2, 2]);
    expect(compileGoRegexp('(a)|(b)').findStringSubmatch('b')).toEqual(['b', '', 'b']);
    expect(compileGoRegexp('(a)|(b)').findStringSubmatchIndex('b')).toEqual([0, 1, -1, -1, 0, 1]);
  });

  it('FindAllString with n', () => {
    const re = compileGoRegexp('a.');
    expect(re.findAllString('paranormal', -1)).toEqual(['ar', 'an', 'al']);
    expect(re.findAllString('paranormal', 2)).toEqual(['ar', 'an']);
    expect(re.findAllString('graal', -1)).toEqual(['aa']);
    expect(re.findAllString('none', -1)).toBeNull();
    expect(re.findAllString('paranormal', 0)).toBeNull();
  });

  it('FindAllStringSubmatch(Index)', () => {
    expect(axb.findAllStringSubmatch('-ab-axb-', -1)).toEqual([
      ['ab', ''],
      ['axb', 'x'],
    ]);
    expect(axb.findAllStringSubmatchIndex('-axxb-ab-', -1)).toEqual([
      [1, 5, 2, 4],
      [6, 8, 7, 7],
    ]);
    expect(axb.findAllStringIndex('-axxb-ab-', 1)).toEqual([[1, 5]]);
  });

  it('skips an empty match right after a previous match, and steps over whole code points', () => {
    expect(compileGoRegexp('a*').findAllString('baaac', -1)).toEqual(['', 'aaa', '']);
    expect(compileGoRegexp('').findAllStringIndex('😀a', -1)).toEqual([
      [0, 0],
      [2, 2],
      [3, 3],
    ]);
  });

  it('sees the text before the search position as context (\\b, ^)', () => {
    expect(compileGoRegexp('\\bfoo').findAllStringIndex('afoo foo', -1)).toEqual([[5, 8]]);
    expect(compileGoRegexp('^x').findAllString('xx', -1)).toEqual(['x']);
  });
});

describe('replacing', () => {
  const axb = compileGoRegexp('a(x*)b');

  it('ReplaceAllString expands $ references by Go Expand rules', () => {
    expect(axb.replaceAllString('-ab-axxb-', 'T')).toBe('-T-T-');
    expect(axb.replaceAllString('-ab-axxb-', '$1')).toBe('--xx-');
    expect(axb.replaceAllString('-ab-axxb-', '$1W')).toBe('---');
    expect(axb.replaceAllString('-ab-axxb-', '${1}W')).toBe('-W-xxW-');
    expect(axb.replaceAllString('-ab-', '$$1')).toBe('-$1-');
    expect(axb.replaceAllString('-ab-', '${1')).toBe('-${1-');
    expect(axb.replaceAllString('-ab-', '$')).toBe('-$-');
    expect(axb.replaceAllString('-axb-', '$10')).toBe('--');
    expect(axb.replaceAllString('-axb-', '$01')).toBe('--');
    expect(axb.replaceAllString('-axb-', '$0')).toBe('-axb-');
    const named = compileGoRegexp('a(?P<1W>x*)b');
    expect(named.replaceAllString('-ab-axxb-', '$1W')).toBe('--xx-');
    const person = compileGoRegexp('(?P<first>\\w+) (?P<last>\\w+)');
    expect(person.replaceAllString('Ada Lovelace', '${last}, $first')).toBe('Lovelace, Ada');
    expect(person.replaceAllString('Ada Lovelace', '$missing.')).toBe('.');
  });

  it('ReplaceAllLiteralString and ReplaceAllStringFunc substitute verbatim', () => {
    expect(axb.replaceAllLiteralString('-ab-axxb-', '$1')).toBe('-$1-$1-');
    expect(axb.replaceAllLiteralString('-ab-axxb-', '${1}')).toBe('-${1}-${1}-');
    expect(axb.replaceAllStringFunc('-ab-axxb-', (m) => m.toUpperCase())).toBe('-AB-AXXB-');
  });

  it('replaces empty matches as Go does', () => {
    expect(compileGoRegexp('a*').replaceAllString('baaac', 'x')).toBe('xbxcx');
    expect(compileGoRegexp('').replaceAllString('abc', '-')).toBe('-a-b-c-');
    expect(compileGoRegexp('').replaceAllString('', 'x')).toBe('x');
    expect(compileGoRegexp('b*').replaceAllString('abc', '-')).toBe('-a-c-');
  });
});

describe('splitting, names, quoting', () => {
  it('Split', () => {
    expect(compileGoRegexp('a*').split('abaabaccadaaae', 5)).toEqual(['', 'b', 'b', 'c', 'cadaaae']);
    const a = compileGoRegexp('a');
    expect(a.split('banana', -1)).toEqual(['b', 'n', 'n', '']);
    expect(a.split('apple', 0)).toBeNull();
    expect(a.split('grape', 1)).toEqual(['grape']);
    expect(a.split('papaya', 2)).toEqual(['p', 'paya']);
    expect(a.split('', -1)).toEqual(['']);
    const zp = compileGoRegexp('z+');
    expect(zp.split('pizza', -1)).toEqual(['pi', 'a']);
    expect(zp.split('pizza', 2)).toEqual(['pi', 'a']);
  });

  it('SubexpNames / SubexpIndex / NumSubexp', () => {
    const re = compileGoRegexp('(?P<first>[a-zA-Z]+) (?P<last>[a-zA-Z]+)(x)?');
    expect(re.subexpNames()).toEqual(['', 'first', 'last', '']);
    expect(re.numSubexp()).toBe(3);
    expect(re.subexpIndex('last')).toBe(2);
    expect(re.subexpIndex('')).toBe(-1);
    expect(re.subexpIndex('nope')).toBe(-1);
    expect(compileGoRegexp('(a){0}').findStringSubmatchIndex('b')).toEqual([0, 0, -1, -1]);
  });

  it('QuoteMeta escapes exactly Go metacharacters', () => {
    expect(quoteMeta('Escaping symbols like: .+*?()|[]{}^$')).toBe(
      'Escaping symbols like: \\.\\+\\*\\?\\(\\)\\|\\[\\]\\{\\}\\^\\$',
    );
    expect(quoteMeta('a-b/c#')).toBe('a-b/c#');
    const q = compileGoRegexp(`^${quoteMeta('1.5*[x]')}$`);
    expect(q.matchString('1.5*[x]')).toBe(true);
    expect(q.matchString('105*[x]')).toBe(false);
  });
});
