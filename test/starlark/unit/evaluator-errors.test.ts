// Dynamic errors: starlark-go's messages, the position of the failing operation, and the
// formatted backtrace.
import { describe, expect, it } from 'vitest';
import { execFile, isStarlarkEvalError, type StarlarkEvalError } from 'krmfn/starlark';
import type { Dialect } from 'krmfn/starlark';

function dynamicError(src: string, dialect: Dialect = {}): StarlarkEvalError {
  try {
    execFile({ filename: 'f.star', source: src, dialect });
  } catch (e) {
    if (!isStarlarkEvalError(e)) throw e;
    return e;
  }
  throw new Error('no error');
}

// [program, expected message, expected line:col of the innermost frame]
const cases: [string, string, string][] = [
  ['def f(a, b): pass\nf(1)', 'function f missing 1 argument (b)', '2:2'],
  ['def f(a, b, c): pass\nf()', 'function f missing 3 arguments (a, b, c)', '2:2'],
  ['def f(a): pass\nf(1, 2)', 'function f accepts 1 positional argument (2 given)', '2:2'],
  ['def f(a, b): pass\nf(1, 2, 3)', 'function f accepts 2 positional arguments (3 given)', '2:2'],
  ['def f(a, b=1): pass\nf(1, 2, 3)', 'function f accepts at most 2 positional arguments (3 given)', '2:2'],
  ['def f(a, *, b=1): pass\nf(1, 2)', 'function f accepts 1 positional argument (2 given)', '2:2'],
  ['def f(): pass\nf(1)', 'function f accepts no arguments (1 given)', '2:2'],
  ['def f(): pass\nf(1, x=2)', 'function f accepts no arguments (2 given)', '2:2'],
  ['def f(a): pass\nf(a=1, c=2)', 'function f got an unexpected keyword argument "c"', '2:2'],
  ['def f(a): pass\nf(1, a=2)', 'function f got multiple values for parameter "a"', '2:2'],
  ['def f(**kw): pass\nf(x=1, **{"x": 2})', 'function f got multiple values for parameter "x"', '2:2'],
  ['def f(a, *, b): pass\nf(1)', 'function f missing 1 argument (b)', '2:2'],
  ['def f(*a): pass\nf(*1)', 'argument after * must be iterable, not int', '2:2'],
  ['def f(**a): pass\nf(**1)', 'argument after ** must be a mapping, not int', '2:2'],
  ['def f(**a): pass\nf(**{1: 2})', 'keywords must be strings, not int', '2:2'],
  ['x = 1\nx()', 'invalid call of non-function (int)', '2:2'],
  ['f = lambda: 1\nf(2)', 'function lambda accepts no arguments (1 given)', '2:2'],
  ['def f():\n  return g()\ndef g():\n  return f()\nf()', 'function f called recursively', '4:11'],
  ['def f():\n  y = y + 1\nf()', 'local variable y referenced before assignment', '2:7'],
  ['def f():\n  def g():\n    return x\n  g()\n  x = 1\nf()', 'local variable x referenced before assignment', '3:12'],
  ['print(x)\nx = 1', 'global variable x referenced before assignment', '1:7'],
  ['a, b, c = [1, 2]', 'too few values to unpack (got 2, want 3)', '1:9'],
  ['a, b = 1, 2, 3', 'too many values to unpack (got 3, want 2)', '1:6'],
  ['a, b = 1', 'got int in sequence assignment', '1:6'],
  ['x = {"a": 1, "a": 2}', 'duplicate key: "a"', '1:17'],
  ['x = {1: 1, 1.0: 2}', 'duplicate key: 1.0', '1:15'],
  ['x = 1 // 0', 'floored division by zero', '1:7'],
  ['x = [1][5]', 'list index 5 out of range [-1:0]', '1:8'],
  ['x = {}["k"]', 'key "k" not in dict', '1:7'],
  ['x = 1 + "a"', 'unknown binary op: int + string', '1:7'],
  ['x = -"a"', 'unknown unary op: - string', '1:5'],
  ['x = 1 < "a"', 'int < string not implemented', '1:7'],
  ['x = (1).foo', 'int has no .foo field or method', '1:8'],
  ['x = [].apend', 'list has no .apend field or method (did you mean .append?)', '1:7'],
  ['x = [c for c in "abc"]', 'string value is not iterable', '1:8'],
  ['def f():\n  for c in 1:\n    pass\nf()', 'int value is not iterable', '2:3'],
  ['x = 1\nx[0] = 1', 'int value does not support item assignment', '2:2'],
  [
    'def f():\n  l = [1]\n  for x in l:\n    l.append(x)\nf()',
    'append: cannot append to list during iteration',
    '4:13',
  ],
  ['def f():\n  l = [1]\n  for x in l:\n    l[0] = 2\nf()', 'cannot assign to element of list during iteration', '4:6'],
  [
    'def f():\n  d = {"a": 1}\n  for k in d:\n    d[k] = 2\nf()',
    'cannot insert into hash table during iteration',
    '4:6',
  ],
  [
    'def f():\n  l = [1]\n  return [l.append(2) for x in l]\nf()',
    'append: cannot append to list during iteration',
    '3:19',
  ],
  ['fail("boom", 1)', 'fail: boom 1', '1:5'],
  ['def f(x):\n  return f(x)\nf(1)', 'function f called recursively', '2:11'],
];

describe('dynamic errors', () => {
  for (const [src, msg, pos] of cases) {
    it(`${msg} <- ${JSON.stringify(src)}`, () => {
      const e = dynamicError(src);
      expect(e.message).toBe(msg);
      expect(`${e.line}:${e.col}`).toBe(pos);
      expect(e.code).toBe('starlark-runtime');
    });
  }

  it('fails at the right place after a global mutation: globals are frozen only at the end', () => {
    const e = dynamicError('l = [1]\nl.append(2)\nfreeze_me = l\nl[5]');
    expect(e.message).toBe('list index 5 out of range [-2:1]');
  });
});

describe('backtraces', () => {
  it('formats a Starlark traceback, outermost first', () => {
    const e = dynamicError('def f():\n  return 1 // 0\ndef g():\n  return f()\ng()');
    expect(e.format()).toBe(
      [
        'Traceback (most recent call last):',
        '  f.star:5:2: in <toplevel>',
        '  f.star:4:11: in g',
        '  f.star:2:12: in f',
        'Error: floored division by zero',
      ].join('\n'),
    );
    expect(e.backtrace.map((f) => f.name)).toEqual(['<toplevel>', 'g', 'f']);
  });

  it('names a failing builtin in the last line', () => {
    const e = dynamicError('def f():\n  fail("boom")\nf()');
    expect(e.format()).toBe(
      [
        'Traceback (most recent call last):',
        '  f.star:3:2: in <toplevel>',
        '  f.star:2:7: in f',
        'Error in fail: fail: boom',
      ].join('\n'),
    );
    expect(e.backtrace[e.backtrace.length - 1]).toEqual({ name: 'fail', file: '<builtin>', line: 0, col: 0 });
  });

  it('shows lambdas and frames inside builtins that call back', () => {
    const e = dynamicError('x = sorted([1, 2], key=lambda v: v // 0)');
    expect(e.format()).toBe(
      [
        'Traceback (most recent call last):',
        '  f.star:1:11: in <toplevel>',
        '  <builtin>: in sorted',
        '  f.star:1:36: in lambda',
        'Error: floored division by zero',
      ].join('\n'),
    );
  });

  it('reports positions in the file of each frame', () => {
    const lib = execFile({ filename: 'lib.star', source: 'def boom():\n  return {}["x"]\n' }).globals;
    try {
      execFile({ filename: 'main.star', source: 'load("lib.star", "boom")\nboom()', load: () => lib });
      throw new Error('no error');
    } catch (e) {
      if (!isStarlarkEvalError(e)) throw e;
      expect(e.backtrace.map((f) => `${f.file}:${f.line}:${f.col} ${f.name}`)).toEqual([
        'main.star:2:5 <toplevel>',
        'lib.star:2:12 boom',
      ]);
    }
  });

  it('decodes non-ASCII text in messages', () => {
    const e = dynamicError('x = {}["é"]');
    expect(e.message).toBe('key "é" not in dict');
  });
});
