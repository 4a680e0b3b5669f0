// Evaluator: programs and the exact lines they print. Each case is an independent module run with
// the permissive dialect unless it says otherwise.
import { describe, expect, it } from 'vitest';
import {
  execFile,
  evalExpr,
  compileProgram,
  STRUCT_BUILTINS,
  List,
  isStarlarkEvalError,
  StarlarkThread,
} from 'krmfn/starlark';
import type { Dialect, Value } from 'krmfn/starlark';

const ALL: Dialect = { set: true, while: true, topLevelControl: true, globalReassign: true, recursion: true };

function run(src: string, dialect: Dialect = ALL, predeclared: Record<string, Value> = {}): string {
  const out: string[] = [];
  execFile({ filename: 't.star', source: src, dialect, predeclared, print: (m) => out.push(m) });
  return out.join('\n');
}

// [name, program, expected output]
const programs: [string, string, string][] = [
  [
    'arithmetic fast paths',
    'print(1 + 2 * 3 - 4 // 3 % 2, -7 // 2, -7 % 2, 5 % -3, 7 / 2, 2 << 3, 0xff & 0x0f, 1 | 6, 5 ^ 1, ~5, -(3))',
    '6 -4 1 -1 3.5 16 15 7 4 -6 -3',
  ],
  [
    'int promotion at 2^53',
    'print(9007199254740991 + 1, 2 * 9007199254740991, -9007199254740991 - 2, 0 * -5, -0)',
    '9007199254740992 18014398509481982 -9007199254740993 0 0',
  ],
  [
    'comparisons',
    'print(1 < 2, 2 <= 2, 3 > 4, 4 >= 4, "a" < "b", "b" < "ab", 1 == 1.0, 1 != 2, None == None, [1] == [1], (1, 2) != (1, 3))',
    'True True False True True False True True True True True',
  ],
  ['byte-wise string order', 'print("é"[0] > "z", "é" > "z", "Z" < "a")', 'True True True'],
  ['and/or return operands', 'print(0 or "x", 1 and 2, [] and 3, None or 0, not 0, not [1])', 'x 2 [] 0 True False'],
  [
    'precedence',
    'print(not 1 == 2, not 1 and 0, 1 + 2 < 4, 1 | 2 ^ 3 & 4, 1 << 2 + 1, -2 * 3, 2 * 3 % 4, 1 < 2 or 3 < 2 and False, not 0 in [0])',
    'True False True 3 8 -6 2 True False',
  ],
  ['conditional expression', 'x = 5\nprint("big" if x > 3 else "small", 1 if False else 2 if True else 3)', 'big 2'],
  [
    'in / not in',
    'print(1 in [1, 2], 3 not in (1, 2), "a" in {"a": 1}, "bc" in "abcd", 2 in range(3))',
    'True True True True True',
  ],
  ['string concat and repeat', 's = "ab"\ns += "c"\nprint(s + s, s * 2, len(s * 100))', 'abcabc abcabc 300'],
  [
    'list literal, index, slice',
    'a = [1, 2, 3, 4]\nprint(a[0], a[-1], a[1:3], a[::2], a[::-1], a[-2:])',
    '1 4 [2, 3] [1, 3] [4, 3, 2, 1] [3, 4]',
  ],
  [
    'tuple and dict literals',
    'print((), (1,), (1, 2), {}, {"a": 1, "b": [2]}, {1: 2}[1])',
    '() (1,) (1, 2) {} {"a": 1, "b": [2]} 2',
  ],
  ['tuple without parens', 'x = 1, 2\na, b = x\nprint(x, a, b)', '(1, 2) 1 2'],
  ['nested unpacking', 'a, (b, [c, d]) = 1, (2, [3, 4])\nprint(a, b, c, d)', '1 2 3 4'],
  ['swap', 'a, b = 1, 2\na, b = b, a\nprint(a, b)', '2 1'],
  [
    'augmented assignment on index and attribute',
    'd = {"a": [1, 2]}\nd["a"][0] += 10\nd["n"] = d.get("n", 0) + 1\nd["n"] *= 5\nprint(d)',
    '{"a": [11, 2], "n": 5}',
  ],
  ['list += mutates in place', 'a = [1]\nb = a\na += (2, 3)\nprint(a, b)', '[1, 2, 3] [1, 2, 3]'],
  ['dict |= updates in place', 'a = {"x": 1}\nb = a\na |= {"y": 2}\nprint(b)', '{"x": 1, "y": 2}'],
  ['dict | makes a new dict', 'a = {"x": 1}\nc = a | {"x": 3}\nprint(a, c)', '{"x": 1} {"x": 3}'],
  [
    'if / elif / else',
    'def f(x):\n  if x < 0:\n    return "neg"\n  elif x == 0:\n    return "zero"\n  else:\n    return "pos"\nprint(f(-1), f(0), f(1))',
    'neg zero pos',
  ],
  [
    'for with break and continue',
    'out = []\nfor i in range(10):\n  if i % 2 == 0:\n    continue\n  if i > 7:\n    break\n  out.append(i)\nprint(out)',
    '[1, 3, 5, 7]',
  ],
  [
    'for over tuple, dict, string elems, set',
    'r = []\nfor x in (1, 2):\n  r.append(x)\nfor k in {"a": 1, "b": 2}:\n  r.append(k)\nfor c in "xy".elems():\n  r.append(c)\nfor s in set([9]):\n  r.append(s)\nprint(r)',
    '[1, 2, "a", "b", "x", "y", 9]',
  ],
  [
    'for with tuple targets',
    'for k, v in {"a": 1}.items():\n  print(k, v)\nfor i, (a, b) in enumerate([(1, 2)]):\n  print(i, a, b)',
    'a 1\n0 1 2',
  ],
  [
    'range with step and negative step',
    'print([i for i in range(0, 10, 3)], [i for i in range(5, 0, -2)], list(range(0)))',
    '[0, 3, 6, 9] [5, 3, 1] []',
  ],
  ['while loop', 'n = 0\nwhile n < 5:\n  n += 1\n  if n == 3:\n    break\nprint(n)', '3'],
  [
    'return inside loops',
    'def find(xs, y):\n  for i, x in enumerate(xs):\n    while True:\n      return i\n  return -1\nprint(find([5], 5), find([], 1))',
    '0 -1',
  ],
  [
    'list comprehension with clauses',
    'print([(x, y) for x in range(3) for y in range(x, 3) if x != y if y > 0])',
    '[(0, 1), (0, 2), (1, 2)]',
  ],
  ['dict comprehension', 'print({k: v * 2 for k, v in [("a", 1), ("b", 2), ("a", 3)]})', '{"a": 6, "b": 4}'],
  ['nested comprehensions', 'print([[j for j in range(i)] for i in range(3)])', '[[], [0], [0, 1]]'],
  ['comprehension vars do not leak', 'x = 10\ny = [x for x in range(3)]\nprint(x, y)', '10 [0, 1, 2]'],
  ['comprehension in function', 'def f(n):\n  return [i * n for i in range(3) if i]\nprint(f(2))', '[2, 4]'],
  [
    'closures share cells',
    'def counter():\n  n = [0]\n  def inc():\n    n[0] += 1\n    return n[0]\n  return inc\nc = counter()\nprint(c(), c(), c())',
    '1 2 3',
  ],
  ['closure sees later assignment', 'def f():\n  def g():\n    return x\n  x = 42\n  return g()\nprint(f())', '42'],
  [
    'three-level free variables',
    'def outer(x):\n  def mid():\n    def inner():\n      return x * 2\n    return inner()\n  return mid()\nprint(outer(21))',
    '42',
  ],
  [
    'lambdas capture comprehension variables by cell',
    'fs = [lambda: i for i in range(3)]\nprint([f() for f in fs])',
    '[2, 2, 2]',
  ],
  ['lambda with defaults', 'fs = [lambda i=i: i for i in range(3)]\nprint([f() for f in fs])', '[0, 1, 2]'],
  [
    'parameter captured by a closure',
    'def f(a, *args, **kw):\n  return lambda: (a, args, kw)\nprint(f(1, 2, k=3)())',
    '(1, (2,), {"k": 3})',
  ],
  ['defaults evaluated once', 'def f(a, l=[]):\n  l.append(a)\n  return len(l)\nprint(f(1), f(2), f(3, []))', '1 2 1'],
  ['defaults evaluated at def time', 'x = 1\ndef f(a=x):\n  return a\nx = 2\nprint(f())', '1'],
  [
    'every parameter kind',
    'def f(a, b=2, *args, c, d=4, **kw):\n  return a, b, args, c, d, kw\nprint(f(1, c=3))\nprint(f(1, 5, 6, 7, c=8, z=9))\nprint(f(*[1, 2], **{"c": 3, "y": 4}))',
    '(1, 2, (), 3, 4, {})\n(1, 5, (6, 7), 8, 4, {"z": 9})\n(1, 2, (), 3, 4, {"y": 4})',
  ],
  [
    'keyword-only after bare star',
    'def f(a, *, b, c=3):\n  return a + b + c\nprint(f(1, b=2), f(a=1, c=0, b=1))',
    '6 2',
  ],
  ['keywords by name for positional params', 'def f(a, b):\n  return a - b\nprint(f(b=1, a=5), f(5, b=1))', '4 4'],
  [
    'star args from any iterable',
    'def f(*a):\n  return a\nprint(f(*range(3)), f(*"ab".elems()), f(*{"k": 1}))',
    '(0, 1, 2) ("a", "b") ("k",)',
  ],
  [
    'recursion with the dialect',
    'def fib(n):\n  return n if n < 2 else fib(n - 1) + fib(n - 2)\nprint(fib(15))',
    '610',
  ],
  [
    'function values',
    'def f(): pass\ng = lambda: 1\nprint(f, g, type(f), type(len), len, f == f, f != g)',
    '<function f> <function lambda> function builtin_function_or_method <built-in function len> True True',
  ],
  ['implicit None return', 'def f():\n  pass\ndef g():\n  return\nprint(f(), g())', 'None None'],
  [
    'builtins calling back into Starlark',
    'print(sorted([3, 1, 2], key=lambda x: -x), sorted(["b", "a"], reverse=True))',
    '[3, 2, 1] ["b", "a"]',
  ],
  [
    'method calls',
    'l = []\nl.append(1)\nl.extend([2, 3])\nprint(l, ",".join(["a", "b"]), "a-b".split("-"), {"a": 1}.get("b", 0))',
    '[1, 2, 3] a,b ["a", "b"] 0',
  ],
  ['print with sep', 'print(1, "a", [2], sep="|")\nprint()\nprint("x")', '1|a|[2]\n\nx'],
  ['strings are byte strings', 's = "héllo"\nprint(len(s), s[1:3], len("Ω"), "aΩb"[1] == "Ω"[0])', '6 é 2 True'],
  ['global reassignment with the dialect', 'x = 1\nx = x + 1\nx += 1\nprint(x)', '3'],
  ['semicolons', 'a = 1; b = 2; print(a + b)', '3'],
  [
    'top-level if and for with the dialect',
    'if True:\n  t = 1\nelse:\n  t = 2\nfor i in range(2):\n  t += i\nprint(t)',
    '2',
  ],
  ['struct predeclared', 's = struct(a=1, b="x")\nprint(s.a, s.b, s)', '1 x struct(a = 1, b = "x")'],
  ['sets with the dialect', 's = set([1, 2])\ns.add(3)\nprint(s, 2 in s)', 'set([1, 2, 3]) True'],
  ['deep expression nesting', 'print(' + '('.repeat(50) + '1' + ')'.repeat(50) + ')', '1'],
  ['long program', Array.from({ length: 300 }, (_, i) => `v${i} = ${i}`).join('\n') + '\nprint(v299 + v0)', '299'],
];

describe('evaluator programs', () => {
  for (const [name, src, want] of programs) {
    it(name, () => expect(run(src, ALL, { struct: STRUCT_BUILTINS['struct'] })).toBe(want));
  }
});

describe('modules', () => {
  it('returns the globals, frozen after module init', () => {
    const r = execFile({ filename: 'm.star', source: 'x = [1]\ny = {"a": [2]}\ndef add():\n  x.append(2)\n' });
    expect(Object.keys(r.globals)).toEqual(['x', 'y', 'add']);
    const x = r.globals['x'];
    expect(x instanceof List && x.frozen).toBe(true);
    try {
      r.thread.call(r.globals['add'], [], null);
      throw new Error('no error');
    } catch (e) {
      if (!isStarlarkEvalError(e)) throw e;
      expect(e.message).toBe('append: cannot append to frozen list');
    }
  });

  it('freezes arbitrarily deep globals without exhausting the stack', () => {
    const r = execFile({
      filename: 'm.star',
      source:
        'def nest(n):\n  x = []\n  for i in range(n):\n    x = [x, (x,), {"k": x}]\n  return x\ndeep = nest(100000)\n',
    });
    let x = r.globals['deep'];
    let depth = 0;
    while (x instanceof List && x.elems.length > 0) {
      expect(x.frozen).toBe(true);
      x = x.elems[0];
      depth++;
    }
    expect(depth).toBe(100000);
  });

  it('freezes functions: their defaults and captured values', () => {
    const r = execFile({
      filename: 'm.star',
      source: 'def mk():\n  cap = [1]\n  def f(d=[2]):\n    return cap, d\n  return f\nf = mk()\n',
    });
    const [cap, d] = (r.thread.call(r.globals['f'], [], null) as unknown as { elems: List[] }).elems;
    expect(cap.frozen && d.frozen).toBe(true);
  });

  it('does not freeze predeclared values unless reachable from a global', () => {
    const items = new List([1]);
    execFile({ filename: 'm.star', source: 'items.append(2)\n', predeclared: { items } });
    expect(items.frozen).toBe(false);
    expect(items.elems).toEqual([1, 2]);
  });

  it('omits globals that were never assigned', () => {
    const r = execFile({
      filename: 'm.star',
      source: 'def f():\n  pass\nif False:\n  z = 1\n',
      dialect: { topLevelControl: true },
    });
    expect(Object.keys(r.globals)).toEqual(['f']);
  });

  it('loads through the host loader, binding file-locally', () => {
    const asked: string[] = [];
    const load = (m: string): Record<string, Value> => {
      asked.push(m);
      return execFile({ filename: m, source: 'a = 1\nb = 2\n_c = 3\ndef f(x):\n  return x * 10\n' }).globals;
    };
    const out: string[] = [];
    const r = execFile({
      filename: 'main.star',
      source: 'load("lib.star", "a", "f", bee="b")\nprint(a, bee, f(a))\nz = a\n',
      load,
      print: (m) => out.push(m),
    });
    expect(asked).toEqual(['lib.star']);
    expect(out).toEqual(['1 2 10']);
    expect(Object.keys(r.globals)).toEqual(['z']);
  });

  it('loadBindsGlobally makes loaded names globals', () => {
    const r = execFile({
      filename: 'main.star',
      source: 'load("lib.star", "a")\n',
      dialect: { loadBindsGlobally: true },
      load: () => ({ a: 5 }),
    });
    expect(r.globals).toEqual({ a: 5 });
  });

  const loadErrors: [string, ((m: string) => Record<string, Value>) | undefined, string][] = [
    ['load("m.star", "x")', undefined, 'load not implemented by this application'],
    [
      'load("m.star", "x")',
      () => {
        throw new Error('no such file');
      },
      'cannot load m.star: no such file',
    ],
    ['load("m.star", "nme")', () => ({ name: 1 }), 'load: name nme not found in module m.star (did you mean name?)'],
    ['load("m.star", "zzz")', () => ({ name: 1 }), 'load: name zzz not found in module m.star'],
  ];
  for (const [src, load, want] of loadErrors) {
    it(`load error: ${want}`, () => {
      try {
        execFile({ filename: 'main.star', source: src, ...(load !== undefined ? { load } : {}) });
        throw new Error('no error');
      } catch (e) {
        if (!isStarlarkEvalError(e)) throw e;
        expect(e.message).toBe(want);
        expect(e.line).toBe(1);
      }
    });
  }

  it('runs several modules on one thread', () => {
    const out: string[] = [];
    const thread = new StarlarkThread({ print: (m) => out.push(m) });
    execFile({ filename: 'a.star', source: 'print("a")', thread });
    execFile({ filename: 'b.star', source: 'print("b")', thread });
    expect(out).toEqual(['a', 'b']);
    expect(thread.steps).toBeGreaterThan(0);
  });

  it('gives a user function the thread it is called on', () => {
    const r = execFile({ filename: 'm.star', source: 'def f(x):\n  print("got", x)\n  return x + 1\n' });
    const out: string[] = [];
    const t2 = new StarlarkThread({ print: (m) => out.push(m) });
    expect(t2.call(r.globals['f'], [41], null)).toBe(42);
    expect(out).toEqual(['got 41']);
  });
});

describe('evalExpr', () => {
  it('evaluates an expression against predeclared names', () => {
    expect(evalExpr({ filename: '<expr>', source: 'x * 2 + len([1, 2])', predeclared: { x: 20 } })).toBe(42);
    expect(evalExpr({ filename: '<expr>', source: '[y for y in range(3)]\n' }) instanceof List).toBe(true);
  });
  it('reports errors with an <expr> frame', () => {
    try {
      evalExpr({ filename: '<expr>', source: '1 // 0' });
      throw new Error('no error');
    } catch (e) {
      if (!isStarlarkEvalError(e)) throw e;
      expect(e.format()).toBe(
        'Traceback (most recent call last):\n  <expr>:1:3: in <expr>\nError: floored division by zero',
      );
    }
  });
});

describe('compileProgram', () => {
  it('parses and resolves once, runs many times with fresh globals and new predeclared values', () => {
    const prog = compileProgram({
      filename: 'p.star',
      source: 'load("m.star", "k")\nout = [n * k for n in items]\n',
      predeclared: ['items'],
    });
    expect(prog.loads).toEqual(['m.star']);
    expect(prog.predeclaredNames).toEqual(['items']);
    const a = prog.run({ predeclared: { items: new List([1, 2]) }, load: () => ({ k: 10 }) });
    const b = prog.run({ predeclared: { items: new List([3]) }, load: () => ({ k: 2 }) });
    expect((a.globals['out'] as List).elems).toEqual([10, 20]);
    expect((b.globals['out'] as List).elems).toEqual([6]);
  });
  it('reports a predeclared name a run did not supply when it is used', () => {
    const prog = compileProgram({
      filename: 'p.star',
      source: 'def f():\n  return ctx\nx = 1\n',
      predeclared: ['ctx'],
    });
    const r = prog.run();
    expect(r.globals['x']).toBe(1);
    expect(() => r.thread.call(r.globals['f'], [], null)).toThrow('undefined: ctx');
  });
  it('reports static errors when made', () => {
    expect(() => compileProgram({ filename: 'p.star', source: 'x = y\n' })).toThrow('p.star:1:5: undefined: y');
  });
});
