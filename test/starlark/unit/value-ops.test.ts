// Operators, comparison, hashing, formatting and conversions of the value layer, as data:
// each case is [label, thunk, expected repr] or [label, thunk, {error: regexp}].
import { describe, expect, test } from 'vitest';
import type { Value } from '../../../src/starlark/value/contract.ts';
import { None } from '../../../src/starlark/value/contract.ts';
import * as ops from '../../../src/starlark/value/ops.ts';
import * as attrs from '../../../src/starlark/lib/attrs.ts';
import { Float, formatFloat } from '../../../src/starlark/value/float.ts';
import { List, Tuple } from '../../../src/starlark/value/list.ts';
import { Dict, type StarlarkSet } from '../../../src/starlark/value/hashtable.ts';
import { Bytes } from '../../../src/starlark/value/bytes.ts';
import { Struct } from '../../../src/starlark/value/struct.ts';
import { fromHostString, toHostString } from '../../../src/starlark/value/string.ts';
import { call, errorOf, meth, s } from './value-helpers.ts';

const F = (x: number): Float => new Float(x);
const L = (...xs: Value[]): List => new List(xs);
const T = (...xs: Value[]): Tuple => new Tuple(xs);
const big = (x: string): Value => ops.binary('*', ops.binary('+', 0, BigInt(x)), 1);

type Case = [string, () => Value, string | { error: RegExp }];

function run(cases: Case[]): void {
  test.each(cases)('%s', (_label, thunk, want) => {
    if (typeof want === 'string') expect(toHostString(ops.repr(thunk()))).toBe(want);
    else expect(errorOf(thunk)).toMatch(want.error);
  });
}

describe('int arithmetic', () => {
  run([
    ['safe add promotes', () => ops.binary('+', 2 ** 53 - 1, 2), '9007199254740993'],
    ['bigint demotes', () => ops.binary('-', ops.binary('+', 2 ** 53 - 1, 2), 2), '9007199254740991'],
    ['mul promotes', () => ops.binary('*', 2 ** 40, 2 ** 40), '1208925819614629174706176'],
    [
      'mul by zero is 0 not -0',
      () => ops.binary('/', 1, ops.binary('*', 0, -5)),
      { error: /floating-point division by zero/ },
    ],
    ['floored div', () => ops.binary('//', -7, 2), '-4'],
    ['floored mod', () => ops.binary('%', -7, 2), '1'],
    ['mod sign of divisor', () => ops.binary('%', 5, -3), '-1'],
    ['big floordiv', () => ops.binary('//', big('-100000000000000000000'), 3), '-33333333333333333334'],
    ['floordiv by zero', () => ops.binary('//', 1, 0), { error: /^floored division by zero$/ }],
    ['mod by zero', () => ops.binary('%', 1, 0), { error: /^integer modulo by zero$/ }],
    ['true division', () => ops.binary('/', 1, 4), '0.25'],
    ['div by zero', () => ops.binary('/', 1, 0), { error: /^floating-point division by zero$/ }],
    ['shift right floors', () => ops.binary('>>', -5, 1), '-3'],
    ['shift right huge', () => ops.binary('>>', -1, 1000), '-1'],
    ['shift left big', () => ops.binary('<<', 1, 100), '1267650600228229401496703205376'],
    ['shift too large', () => ops.binary('<<', 1, 512), { error: /^shift count too large: 512$/ }],
    ['negative shift', () => ops.binary('<<', 1, -1), { error: /^negative shift count: -1$/ }],
    ['and negative', () => ops.binary('&', -1, 0xff), '255'],
    ['xor big', () => ops.binary('^', big('18446744073709551615'), 1), '18446744073709551614'],
    ['invert', () => ops.unary('~', 5), '-6'],
    ['negate zero', () => ops.binary('/', 1, F(1)), '1.0'],
    ['bool is not a number', () => ops.binary('+', true, 1), { error: /^unknown binary op: bool \+ int$/ }],
    ['unary on string', () => ops.unary('-', 'a'), { error: /^unknown unary op: - string$/ }],
  ]);
});

describe('float arithmetic and formatting', () => {
  run([
    ['mixed add', () => ops.binary('+', 1, F(0.5)), '1.5'],
    ['float floordiv', () => ops.binary('//', F(7.5), 2), '3.0'],
    ['float floordiv zero', () => ops.binary('//', F(1), F(0)), { error: /^floored division by zero$/ }],
    ['float mod sign', () => ops.binary('%', F(-1), F(3)), '2.0'],
    ['float mod zero', () => ops.binary('%', F(1), 0), { error: /^floating-point modulo by zero$/ }],
    ['int too large for float', () => ops.binary('+', ops.binary('<<', 1, 1100 - 600), F(1)), '3.273390607896142e+150'],
  ]);
  test.each([
    [1e6, '1e+06'],
    [123456, '123456.0'],
    [1234567, '1.234567e+06'],
    [1e-5, '1e-05'],
    [0.0001, '0.0001'],
    [5e-324, '5e-324'],
    [1.7976931348623157e308, '1.7976931348623157e+308'],
    [0.1 + 0.2, '0.30000000000000004'],
    [3, '3.0'],
    [-0, '-0.0'],
    [Infinity, '+inf'],
    [-Infinity, '-inf'],
    [NaN, 'nan'],
    [1e21, '1e+21'],
    [1.5, '1.5'],
    [100000, '100000.0'],
    [-2.5e-7, '-2.5e-07'],
  ])('str(%s) == %s', (x, want) => {
    expect(formatFloat(x)).toBe(want);
  });
});

describe('comparison and equality', () => {
  const nan = F(NaN);
  run([
    ['int == float', () => ops.equal(1, F(1)), 'True'],
    ['exact int/float', () => ops.equal(ops.binary('+', ops.binary('<<', 1, 53), 1), F(2 ** 53)), 'False'],
    ['nan == nan', () => ops.equal(nan, F(NaN)), 'True'],
    ['nan < inf false', () => ops.compare('<', nan, F(Infinity)), 'False'],
    ['sorted nan last', () => call('sorted', [L(7, 3, nan, 1)]), '[1, 3, 7, nan]'],
    ['max with nan', () => call('max', [L(1, nan, 3)]), 'nan'],
    ['strings by bytes', () => ops.compare('<', s('z'), s('é')), 'True'],
    ['lists lexicographic', () => ops.compare('<', L(1, 2), L(1, 2, 0)), 'True'],
    ['tuple ==', () => ops.equal(T(1, 'a'), T(1, 'a')), 'True'],
    ['mixed types ==', () => ops.equal(1, 'a'), 'False'],
    ['mixed types <', () => ops.compare('<', 1, 'a'), { error: /^int < string not implemented$/ }],
    ['dict ordering', () => ops.compare('<', new Dict(), new Dict()), { error: /^dict < dict not implemented$/ }],
    ['range ==', () => ops.equal(call('range', [0]), call('range', [2, 1])), 'True'],
    ['set subset', () => ops.compare('<', call('set', [L(1)]), call('set', [L(1, 2)])), 'True'],
    [
      'cyclic compare',
      () => {
        const a = L();
        a.elems.push(a);
        const b = L();
        b.elems.push(b);
        return ops.equal(a, b);
      },
      { error: /comparison exceeded maximum recursion depth/ },
    ],
  ]);
});

describe('hashing and dicts', () => {
  run([
    [
      '1 and 1.0 same key',
      () => {
        const d = new Dict();
        d.insert(1, 'a');
        return ops.getIndex(d, F(1));
      },
      '"a"',
    ],
    [
      'first key kept',
      () => {
        const d = new Dict();
        d.insert(1, 'a');
        d.insert(F(1), 'b');
        return d;
      },
      '{1: "b"}',
    ],
    [
      'tuple keys',
      () => {
        const d = new Dict();
        d.insert(T(1, 'x'), 1);
        return ops.contains(d, T(1, 'x'));
      },
      'True',
    ],
    [
      'bytes vs string keys',
      () => {
        const d = new Dict();
        d.insert('a', 1);
        return ops.contains(d, new Bytes('a'));
      },
      'False',
    ],
    ['unhashable list', () => new Dict().insert(L(), 1) as unknown as Value, { error: /^unhashable type: list$/ }],
    [
      'unhashable in tuple',
      () => new Dict().insert(T(1, L()), 1) as unknown as Value,
      { error: /^unhashable type: list$/ },
    ],
    [
      'unhashable range',
      () => new Dict().insert(call('range', [1]), 1) as unknown as Value,
      { error: /^unhashable: range$/ },
    ],
    ['missing key', () => ops.getIndex(new Dict(), 'b'), { error: /^key "b" not in dict$/ }],
    [
      'struct key',
      () => {
        const d = new Dict();
        d.insert(new Struct([['a', 1]]), 1);
        return ops.contains(d, new Struct([['a', 1]]));
      },
      'True',
    ],
    ['hash string', () => call('hash', ['hello']), '99162322'],
    ['hash bytes', () => call('hash', [new Bytes('a')]), '3826002220'],
    ['hash int', () => call('hash', [1]), { error: /^hash: got int, want string or bytes$/ }],
    [
      'dict union',
      () => {
        const a = new Dict();
        a.insert('a', 1);
        const b = new Dict();
        b.insert('b', 2);
        b.insert('a', 3);
        return ops.binary('|', a, b);
      },
      '{"a": 3, "b": 2}',
    ],
    [
      'reinsert moves to end',
      () => {
        const d = new Dict();
        d.insert('a', 1);
        d.insert('b', 2);
        d.delete('a');
        d.insert('a', 1);
        return d;
      },
      '{"b": 2, "a": 1}',
    ],
  ]);
});

describe('strings and bytes', () => {
  run([
    ['len counts bytes', () => ops.len(s('héllo')), '6'],
    ['slice bytes', () => ops.slice(s('héllo'), 1, 3, None), '"é"'],
    ['index byte', () => ops.getIndex(s('aΩb'), 1), '"\\xce"'],
    ['negative step', () => ops.slice('hello', None, None, -2), '"olh"'],
    ['zero step', () => ops.slice('hello', None, None, 0), { error: /^zero is not a valid slice step$/ }],
    ['not iterable', () => ops.iterate('abc') as unknown as Value, { error: /^string value is not iterable$/ }],
    [
      'in needs string',
      () => ops.contains('abc', 1),
      { error: /^'in <string>' requires string as left operand, not int$/ },
    ],
    ['repeat non-positive', () => ops.binary('*', 'ab', -1), '""'],
    ['repeat', () => ops.binary('*', 2, 'ab'), '"abab"'],
    ['bytes index is bytes', () => ops.getIndex(new Bytes('abc'), 0), 'b"a"'],
    ['bytes in int', () => ops.contains(new Bytes('abc'), 98), 'True'],
    [
      'bytes in string',
      () => ops.contains(new Bytes('abc'), 'a'),
      { error: /^'in bytes' requires bytes or int as left operand, not string$/ },
    ],
    ['repr escapes', () => s('\x07\x7f"\\') + '\xff', '"\\a\\x7f\\"\\\\\\xff"'],
    ['repr unicode', () => s('é\u00a0'), '"é\\u00a0"'],
    ['bytes repr', () => new Bytes('a\xffb'), 'b"a\\xffb"'],
    ['str of bytes', () => ops.str(new Bytes('a\xff')), '"a\uFFFD"'],
    ['bytes()', () => call('bytes', [L(104, 105)]), 'b"hi"'],
    ['bytes() range', () => call('bytes', [L(256)]), { error: /^bytes: at index 0, 256 out of range/ }],
    ['ord', () => call('ord', [s('é')]), '233'],
    ['ord long', () => call('ord', ['ab']), { error: /^ord: string encodes 2 Unicode code points, want 1$/ }],
    ['chr', () => call('chr', [233]), '"é"'],
    [
      'chr range',
      () => call('chr', [0x110000]),
      { error: /^chr: Unicode code point U\+110000 out of range \(>0x10FFFF\)$/ },
    ],
    ['elems', () => call('list', [meth('ab', 'elems')]), '["a", "b"]'],
    ['codepoints', () => call('list', [meth(s('aé'), 'codepoints')]), '["a", "é"]'],
    ['codepoint_ords', () => call('list', [meth(s('aé'), 'codepoint_ords')]), '[97, 233]'],
    ['elems repr', () => meth('abc', 'elems'), '"abc".elems()'],
    ['bytes elems', () => call('list', [meth(new Bytes('ab'), 'elems')]), '[97, 98]'],
  ]);
});

describe('% formatting and str.format', () => {
  const pct = (f: string, x: Value): Value => ops.binary('%', f, x);
  run([
    ['basic', () => pct('%d %s %r', T(3, 'a', 'b')), '"3 a \\"b\\""'],
    ['hex negative', () => pct('%x', -255), '"-ff"'],
    ['octal', () => pct('%o', 8), '"10"'],
    ['%d truncates float', () => pct('%d', F(3.9)), '"3"'],
    ['%d bool', () => pct('%d', true), { error: /^%d format requires integer: cannot convert bool to int$/ }],
    ['%g', () => pct('%g', F(3)), '"3.0"'],
    ['%G', () => pct('%G', F(1e20)), '"1E+20"'],
    ['%e', () => pct('%e', F(1.5)), '"1.500000e+00"'],
    ['%f', () => pct('%f', F(1.5)), '"1.500000"'],
    ['%F literal', () => pct('%F', F(1.5)), '"%F"'],
    ['%c', () => pct('%c%c', T(65, s('é'))), '"Aé"'],
    [
      'mapping',
      () => {
        const d = new Dict();
        d.insert('a', 1);
        return pct('%(a)s-%(a)r', d);
      },
      '"1-1"',
    ],
    ['missing key', () => pct('%(b)s', new Dict()), { error: /^key not found: b$/ }],
    ['needs mapping', () => pct('%(b)s', 1), { error: /^format requires a mapping$/ }],
    ['width', () => pct('%5d', 1), { error: /^unknown conversion %5$/ }],
    ['precision', () => pct('%.2f', F(1)), { error: /^unknown conversion %\.$/ }],
    ['not enough', () => pct('%s %s', 1), { error: /^not enough arguments for format string$/ }],
    ['too many', () => pct('%s', T(1, 2)), { error: /^too many arguments for format string$/ }],
    ['incomplete', () => pct('abc%', 1), { error: /^incomplete format$/ }],
    ['format fields', () => meth('{} {x} {{}} {!r}', 'format', [1, 'q'], [['x', 2]]), '"1 2 {} \\"q\\""'],
    ['format manual', () => meth('{1}{0}', 'format', ['a', 'b']), '"ba"'],
    ['format index', () => meth('{2}', 'format', ['a']), { error: /^format: tuple index out of range$/ }],
    ['format keyword', () => meth('{k}', 'format', []), { error: /^format: keyword k not found$/ }],
    ['format unmatched', () => meth('{', 'format', []), { error: /^format: unmatched '\{' in format$/ }],
    ['format single }', () => meth('}', 'format', []), { error: /^format: single '\}' in format$/ }],
    [
      'format spec',
      () => meth('{:5}', 'format', [1]),
      { error: /format spec features not supported in replacement fields: 5/ },
    ],
    [
      'format mixing',
      () => meth('{}{0}', 'format', [1]),
      { error: /cannot switch from automatic field numbering to manual/ },
    ],
  ]);
});

describe('containers, indexing, iteration locks, freezing', () => {
  run([
    ['list index range', () => ops.getIndex(L(1, 2, 3), 5), { error: /^list index 5 out of range \[-3:2\]$/ }],
    ['empty list index', () => ops.getIndex(L(), 0), { error: /^index 0 out of range: empty list$/ }],
    ['negative index', () => ops.getIndex(L(1, 2, 3), -1), '3'],
    ['list slice', () => ops.slice(L(0, 1, 2, 3, 4), 1, None, 2), '[1, 3]'],
    ['range slice', () => ops.slice(call('range', [10]), 2, None, 3), 'range(2, 10, 3)'],
    ['range repr', () => call('range', [1, 10, 2]), 'range(1, 10, 2)'],
    ['range in', () => ops.contains(call('range', [0, 10, 2]), 4), 'True'],
    [
      'range in string',
      () => ops.contains(call('range', [3]), 'a'),
      { error: /^'in <range>' requires integer as left operand, not string$/ },
    ],
    ['list concat', () => ops.binary('+', L(1), L(2)), '[1, 2]'],
    ['tuple repr', () => T(1), '(1,)'],
    ['set ops', () => ops.binary('-', call('set', [L(1, 2, 3)]), call('set', [L(2)])), 'set([1, 3])'],
    ['set | list', () => ops.binary('|', call('set', [L(1)]), L(2)), { error: /^unknown binary op: set \| list$/ }],
    [
      'item assignment',
      () => {
        ops.setIndex('abc', 0, 'x');
        return None;
      },
      { error: /^string value does not support item assignment$/ },
    ],
    ['unhandled index', () => ops.getIndex(1, 1), { error: /^unhandled index operation int\[int\]$/ }],
    [
      'cyclic repr',
      () => {
        const a = L(1);
        a.elems.push(a);
        return ops.repr(a);
      },
      '"[1, [...]]"',
    ],
    [
      'frozen append',
      () => {
        const a = L();
        ops.freeze(a);
        return meth(a, 'append', [1]);
      },
      { error: /^append: cannot append to frozen list$/ },
    ],
    [
      'frozen dict',
      () => {
        const d = new Dict();
        ops.freeze(d);
        ops.setIndex(d, 'a', 1);
        return None;
      },
      { error: /^cannot insert into frozen hash table$/ },
    ],
    [
      'frozen set no-op add',
      () => {
        const x = call('set', [L(1)]) as StarlarkSet;
        ops.freeze(x);
        return meth(x, 'add', [1]);
      },
      { error: /^add: cannot insert into frozen hash table$/ },
    ],
    [
      'append during iteration',
      () => {
        const a = L(1);
        const it = ops.iterate(a);
        try {
          return meth(a, 'append', [2]);
        } finally {
          it.done();
        }
      },
      { error: /^append: cannot append to list during iteration$/ },
    ],
    [
      'assign during iteration',
      () => {
        const a = L(1);
        const it = ops.iterate(a);
        try {
          ops.setIndex(a, 0, 2);
          return None;
        } finally {
          it.done();
        }
      },
      { error: /^cannot assign to element of list during iteration$/ },
    ],
    [
      'dict existing key during iteration',
      () => {
        const d = new Dict();
        d.insert('a', 1);
        const it = ops.iterate(d);
        try {
          ops.setIndex(d, 'a', 2);
          return None;
        } finally {
          it.done();
        }
      },
      { error: /^cannot insert into hash table during iteration$/ },
    ],
    [
      'frozen empty clear is no mutation',
      () => {
        const x = call('set', [L()]) as StarlarkSet;
        ops.freeze(x);
        return meth(x, 'clear');
      },
      'None',
    ],
    [
      'frozen clear',
      () => {
        const d = new Dict();
        d.insert(1, 1);
        ops.freeze(d);
        return meth(d, 'clear');
      },
      { error: /^clear: cannot clear frozen hash table$/ },
    ],
    [
      'frozen setdefault existing',
      () => {
        const d = new Dict();
        d.insert('a', 1);
        ops.freeze(d);
        return meth(d, 'setdefault', ['a', 2]);
      },
      '1',
    ],
    [
      'frozen setdefault new',
      () => {
        const d = new Dict();
        ops.freeze(d);
        return meth(d, 'setdefault', ['a', 2]);
      },
      { error: /^setdefault: cannot insert into frozen hash table$/ },
    ],
    [
      'frozen discard absent',
      () => {
        const x = call('set', [L(1)]) as StarlarkSet;
        ops.freeze(x);
        return meth(x, 'discard', [5]);
      },
      { error: /^discard: cannot delete from frozen hash table$/ },
    ],
    [
      'deep freeze is iterative',
      () => {
        let x: Value = L();
        for (let i = 0; i < 100000; i++) x = L(x);
        ops.freeze(x);
        let y = x as List;
        while (y.elems.length > 0) y = y.elems[0] as List;
        return y.frozen;
      },
      'True',
    ],
    [
      'lock released',
      () => {
        const a = L(1);
        const it = ops.iterate(a);
        it.done();
        meth(a, 'append', [2]);
        return a;
      },
      '[1, 2]',
    ],
    [
      'attr hint',
      () => attrs.getAttr(L(), 'apend'),
      { error: /^list has no \.apend field or method \(did you mean \.append\?\)$/ },
    ],
    ['struct attr', () => attrs.getAttr(new Struct([['a', 1]]), 'b'), { error: /^struct has no \.b attribute$/ }],
    [
      'struct repr',
      () =>
        new Struct([
          ['b', 'x'],
          ['a', 1],
        ]),
      'struct(a = 1, b = "x")',
    ],
    [
      'struct setfield',
      () => {
        ops.setField(new Struct([]), 'x', 1);
        return None;
      },
      { error: /^can't assign to \.x field of struct$/ },
    ],
    ['builtin method repr', () => attrs.getAttr('', 'join'), '<built-in method join of string value>'],
    [
      'builtin repr',
      () => call('repr', [call('dir', [L()])]),
      '"[\\"append\\", \\"clear\\", \\"extend\\", \\"index\\", \\"insert\\", \\"pop\\", \\"remove\\"]"',
    ],
  ]);
  test('host strings round-trip through the binary form', () => {
    for (const x of ['', 'abc', 'héllo', '日本語', '😀']) expect(toHostString(fromHostString(x))).toBe(x);
    expect(fromHostString('é')).toBe('\xc3\xa9');
  });
});
