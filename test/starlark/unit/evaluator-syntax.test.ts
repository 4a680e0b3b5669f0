// Scanner and parser: token streams, decoded literals, and the first syntax error of each program
// (message and 1-based position, as starlark-go reports them).
import { describe, expect, it } from 'vitest';
import { parseFile, parseExpr, isStarlarkSyntaxError, Scanner } from 'krmfn/starlark';
import type { ParseOptions, Token } from 'krmfn/starlark';

function tokens(src: string): string[] {
  const sc = new Scanner('t.star', src);
  const out: string[] = [];
  for (let t: Token = sc.next(); ; t = sc.next()) {
    out.push(t.kind === 'ident' || t.kind === 'int' || t.kind === 'float' ? `${t.kind}:${t.raw}` : t.kind);
    if (t.kind === 'eof') return out;
  }
}

function firstError(src: string, opts: ParseOptions = {}): string {
  try {
    parseFile('f.star', src, opts);
  } catch (e) {
    if (!isStarlarkSyntaxError(e)) throw e;
    const x = e.errors[0];
    return `${x.line}:${x.col}: ${x.message}`;
  }
  return 'OK';
}

function literal(src: string): unknown {
  const x = parseExpr('e.star', src);
  if (x.k !== 'lit') throw new Error('not a literal: ' + x.k);
  return x.value;
}

describe('scanner', () => {
  const cases: [string, string][] = [
    ['x = 1\n', 'ident:x = int:1 newline eof'],
    ['def f():\n  pass\n', 'def ident:f ( ) : newline indent pass newline outdent eof'],
    [
      'if x:\n\tif y:\n\t\tz\n',
      'if ident:x : newline indent if ident:y : newline indent ident:z newline outdent outdent eof',
    ],
    // a tab advances to the next multiple of 8: 8 spaces and one tab are the same level
    ['if x:\n        a\n\tb\n', 'if ident:x : newline indent ident:a newline ident:b newline outdent eof'],
    ['f(1,\n  2)\n', 'ident:f ( int:1 , int:2 ) newline eof'],
    ['x = 1 \\\n + 2\n', 'ident:x = int:1 + int:2 newline eof'],
    ['# comment only\n\n  \nx\n', 'ident:x newline eof'],
    ['x\r\ny\rz', 'ident:x newline ident:y newline ident:z eof'],
    [
      'a+=b-=c*=d/=e//=f%=g&=h|=i^=j<<=k>>=l',
      'ident:a += ident:b -= ident:c *= ident:d /= ident:e //= ident:f %= ident:g &= ident:h |= ident:i ^= ident:j <<= ident:k >>= ident:l eof',
    ],
    [
      'a<b>c<=d>=e==f!=g<<h>>i**j//k',
      'ident:a < ident:b > ident:c <= ident:d >= ident:e == ident:f != ident:g << ident:h >> ident:i ** ident:j // ident:k eof',
    ],
    [
      'and break continue def elif else for if in lambda load not or pass return while',
      'and break continue def elif else for if in lambda load not or pass return while eof',
    ],
    ['assert class', 'ident:assert illegal eof'],
    [
      '0 00 0x1F 0o17 0b101 123 1.5 1. .5 1e10 1.5E-3',
      'int:0 int:00 int:0x1F int:0o17 int:0b101 int:123 float:1.5 float:1. float:.5 float:1e10 float:1.5E-3 eof',
    ],
    ['x.y', 'ident:x . ident:y eof'],
    ['héllo = 1', `ident:h\u00c3\u00a9llo = int:1 eof`],
  ];
  for (const [src, want] of cases) {
    it(JSON.stringify(src), () => expect(tokens(src).join(' ')).toBe(want));
  }

  it('columns count code points and tabs as one column', () => {
    const sc = new Scanner('t.star', 'é = "Ω" + x\n');
    const toks = [sc.next(), sc.next(), sc.next(), sc.next(), sc.next()];
    expect(toks.map((t) => `${t.pos.line}:${t.pos.col}`)).toEqual(['1:1', '1:3', '1:5', '1:9', '1:11']);
  });

  it('decodes big ints to bigint and keeps safe ints as numbers', () => {
    expect(literal('123')).toBe(123);
    expect(literal('9007199254740991')).toBe(9007199254740991);
    expect(literal('9007199254740992')).toBe(9007199254740992n);
    expect(literal('0x10000000000000000')).toBe(0x10000000000000000n);
    expect(literal('0o777')).toBe(511);
    expect(literal('0B11')).toBe(3);
  });
});

describe('string and bytes literals decode to binary strings', () => {
  const cases: [string, string][] = [
    [String.raw`"a\tb\n"`, 'a\tb\n'],
    [String.raw`'\a\b\f\v\r\\\'\"'`, '\x07\b\f\v\r\\\'"'],
    [String.raw`"\101\x41\u0041\U00000041"`, 'AAAA'],
    [String.raw`"\0"`, '\0'],
    ['"é"', '\xc3\xa9'],
    [String.raw`"\u00e9"`, '\xc3\xa9'],
    [String.raw`"\U0001F600"`, '\xf0\x9f\x98\x80'],
    [String.raw`b"\xff\377"`, '\xff\xff'],
    [String.raw`b"\u00e9"`, '\xc3\xa9'],
    [String.raw`r"a\nb"`, 'a\\nb'],
    [String.raw`r"a\"b"`, 'a\\"b'],
    [String.raw`rb"\x00"`, '\\x00'],
    [String.raw`br'\t'`, '\\t'],
    ['"""a\nb"""', 'a\nb'],
    ["'''it's'''", "it's"],
    ['"a\\\nb"', 'ab'],
    ['"""x\r\ny"""', 'x\ny'],
  ];
  for (const [src, want] of cases) {
    it(src, () => expect(literal(src)).toBe(want));
  }
  it('marks bytes literals', () => {
    const x = parseExpr('e.star', 'b"x"');
    expect(x.k === 'lit' && x.type).toBe('bytes');
  });
});

describe('first syntax error', () => {
  const cases: [string, string][] = [
    ['f(2 ** 3)', "1:7: got '**', want ','"],
    ['x = 1 +\n', '1:8: got newline, want primary expression'],
    ['if True:\npass', '2:5: got pass, want indent'],
    ['a = 1\n  b = 2', '2:3: got indent, want primary expression'],
    ['x = [1, 2', "1:10: got end of file, want ']'"],
    ['def f(:', "1:8: got ':', want ')'"],
    ['1 < 2 < 3', '1:8: < does not associate with < (use parens)'],
    ['1 == 2 in 3', '1:10: == does not associate with in (use parens)'],
    ['x = 012', '1:5: obsolete form of octal literal; use 0o12'],
    ['x = 09', '1:5: invalid int literal'],
    ['x = 0x', '1:5: invalid hex literal'],
    ['x = 1e309', '1:5: invalid float literal'],
    ['x = 1.2e', '1:9: invalid float literal'],
    ['x = "\\xff"', '1:5: non-ASCII hex escape \\xff (use \\u00FF for the UTF-8 encoding of U+00FF)'],
    ['x = "\\377"', '1:5: non-ASCII octal escape \\377 (use \\u00FF for the UTF-8 encoding of U+00FF)'],
    ['x = "\\q"', '1:5: invalid escape sequence \\q'],
    ['x = "\\uD800"', '1:5: invalid Unicode code point U+D800'],
    ['x = "\\x-0"', '1:5: invalid escape sequence \\x-0'],
    ['x = "\\x4"', '1:5: truncated escape sequence \\x4'],
    ['x = "\\u12g4 and more"', '1:5: invalid escape sequence \\u12g4'],
    ['x = "\\U1234"', '1:5: truncated escape sequence \\U1234'],
    ['x = "\\U00110000"', '1:5: code point out of range: \\U00110000 (max \\U0010ffff)'],
    ['x = "abc', '1:5: unexpected EOF in string'],
    ['x = "ab\nc"', '1:5: unexpected newline in string'],
    ['x = """abc', '1:5: unexpected EOF in string'],
    ['if x:\n    a\n  b', '3:3: unindent does not match any outer indentation level'],
    ['x = \\ 1', '1:6: stray backslash in program'],
    ['!x', "1:1: unexpected input character '!'"],
    [')', "1:1: unexpected ')'"],
    ['x = $', "1:5: unexpected input character '$'"],
    ['load("a")', '1:5: load statement must import at least 1 symbol'],
    ['load(a, "b")', '1:7: first operand of load statement must be a string literal'],
    ['load("a", b)', '1:13: load operand must be "b" or b="originalname" (want \'=\' after b)'],
    ['load("a", b=c)', '1:14: original name of loaded symbol must be quoted: b="originalname"'],
    ['load("a", 1)', '1:12: load operand must be "name" or localname="name" (got int literal)'],
    ['[x for x in 1, 2]', "1:15: got ',', want ']', for, or if"],
    ['f(x for x in y)', "1:8: got for, want ','"],
    ['f(a.b=1)', '1:7: keyword argument must have form name=expr'],
    ['x = 1 if 2', '1:7: conditional expression without else clause'],
    ['class Foo: pass', '1:1: got class, want primary expression'],
    ['x = 1;;', "1:7: got ';', want primary expression"],
    ['x = 1, 2,', '1:9: unparenthesized tuple with trailing comma'],
    ['a not b', '1:8: got identifier, want in'],
    ['def 1(): pass', '1:6: not an identifier'],
    ['x = y = 1', "1:8: got '=', want newline"],
  ];
  for (const [src, want] of cases) {
    it(JSON.stringify(src), () => expect(firstError(src)).toBe(want));
  }
});

describe('first syntax error before google/starlark-go 2024-03-29 (#533) and 2025-05-30 (#591)', () => {
  const old = { primaryErrorAtTokenStart: false, reservedWordTokens: false };
  const cases: [string, string][] = [
    ['x = 1 +\n', '2:1: got newline, want primary expression'],
    ['class Foo: pass', '1:6: got illegal token, want primary expression'],
    ['x = 1;;', "1:8: got ';', want primary expression"],
    ['x = 1 del', '1:10: got illegal token, want newline'],
  ];
  for (const [src, want] of cases) {
    it(JSON.stringify(src), () => expect(firstError(src, old)).toBe(want));
  }
  it('HEAD names the reserved word', () => expect(firstError('x = 1 del')).toBe('1:10: got del, want newline'));
});

describe('grammar accepted', () => {
  const ok = [
    'x = (1, 2,)\ny = [1, 2,]\nz = {1: 2,}\n',
    'def f(a, b=1, *args, c, d=2, **kw): pass\n',
    'def f(*, a): pass\n',
    'f = lambda x, *y, **z: x if y else z\n',
    'g = lambda: 1\n',
    'x = [a for a in b if a for c in a if not c]\n',
    'x = {k: v for k, v in y}\n',
    'x = a[1:2:3], a[::], a[:], a[1:], a[:2], a[::2]\n',
    'x = -a.b[1](2).c\n',
    'x = not not a\n',
    'x = a not in b and c in d or e\n',
    'if a: pass\nelif b: pass\nelse: pass\n',
    'for a, b in c: pass\n',
    'for (a, b) in c: pass\n',
    'while x: x -= 1\n',
    'x = 1; y = 2;\n',
    'load("m", "a", b = "c")\n',
    'f(*a, **b)\nf(a, *b, **c)\nf(a, b=1, *c, **d)\n',
    'f(*a,)\nf(**b,)\nf(a, *b, **c,)\n',
    'x = 1 if a else 2 if b else 3\n',
    'x = lambda: lambda: 1\n',
    'x = "a" "b"'.replace(' "b"', '') + '\n',
    'def f():\n  return\n',
    'if x:\n  pass\n# trailing comment',
    'x = 1  # comment\n',
    '   \n',
    '',
  ];
  for (const src of ok) {
    it(JSON.stringify(src), () => expect(firstError(src)).toBe('OK'));
  }
});

describe('positions of operations', () => {
  it('records operator, call, index and dot positions', () => {
    const x = parseExpr('e.star', 'a.b(c)[d] + 1');
    expect(x.k).toBe('binary');
    if (x.k !== 'binary') return;
    expect(x.pos).toEqual({ line: 1, col: 11 });
    const idx = x.x;
    expect(idx.k).toBe('index');
    expect(idx.pos).toEqual({ line: 1, col: 7 });
    if (idx.k !== 'index') return;
    expect(idx.x.k).toBe('call');
    expect(idx.x.pos).toEqual({ line: 1, col: 4 });
    if (idx.x.k !== 'call') return;
    expect(idx.x.fn.pos).toEqual({ line: 1, col: 2 });
  });
  it('parseExpr rejects trailing input', () => {
    expect(() => parseExpr('e.star', '1 2')).toThrow('got int literal after expression, want EOF');
  });
});
