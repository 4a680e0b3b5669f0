// Resolver: every static rule of spec §10.1, all errors reported at once (sorted by position),
// and the dialect options of §10.2.
import { describe, expect, it } from 'vitest';
import { checkFile, isStarlarkSyntaxError } from 'krmfn/starlark';
import type { Dialect } from 'krmfn/starlark';

function errors(src: string, dialect: Dialect = {}, predeclared: string[] = []): string[] {
  const pre: Record<string, null> = {};
  for (const p of predeclared) pre[p] = null;
  try {
    checkFile({ filename: 'f.star', source: src, dialect, predeclared: pre as never });
  } catch (e) {
    if (!isStarlarkSyntaxError(e)) throw e;
    expect(e.code).toBe('starlark-resolve');
    return e.errors.map((x) => `${x.line}:${x.col}: ${x.message}`);
  }
  return [];
}

const ALL: Dialect = { set: true, while: true, topLevelControl: true, globalReassign: true };

// [source, dialect, expected errors]
const cases: [string, Dialect, string[]][] = [
  // names
  ['x = y', {}, ['1:5: undefined: y']],
  ['abc = 1\ndef f():\n  return abd', {}, ['3:10: undefined: abd (did you mean abc?)']],
  ['def f(my_value):\n  return MyValue', {}, ['2:10: undefined: MyValue (did you mean my_value?)']],
  ['x = lenn', {}, ['1:5: undefined: lenn']], // universal names are never suggested
  ['bbc = 1\nabd = 2\ny = abc', {}, ['3:5: undefined: abc (did you mean abd?)']], // ties: alphabetical
  ['len = 1\nx = len', {}, []], // top-level names may shadow universal ones
  ['def f():\n  return g()\ndef g():\n  return 1', {}, []], // globals used before their def
  ['def f():\n  x = 1\n  def g():\n    return x\n  return g', {}, []],
  ['x = [y for y in [1]]\nz = y', {}, ['2:5: undefined: y']], // comprehension block
  ['def f():\n  return [a for a in b for b in [[1]]]', {}, ['2:22: undefined: b']], // first operand is outside
  ['def f():\n  return [a for b in [[1]] for a in b]', {}, []],
  ['x = [1 for a in a]', {}, ['1:17: undefined: a']], // first operand resolved outside
  // global reassignment
  ['x = 1\nx = 2', {}, ['2:1: cannot reassign global x declared at f.star:1:1']],
  ['x = 1\nx += 1', {}, ['2:1: cannot reassign global x declared at f.star:1:1']],
  ['def f(): pass\ndef f(): pass', {}, ['2:5: cannot reassign global f declared at f.star:1:5']],
  ['x = 1\nx = 2\nx += 3', { globalReassign: true }, []],
  ['load("m", "a")\na = 1', {}, ['2:1: cannot reassign local a declared at f.star:1:12']],
  ['a = 1\nload("m", "a")', {}, ['2:12: cannot reassign top-level a']],
  ['load("m", "a")\nload("m", "a")', {}, ['2:12: cannot reassign top-level a']],
  ['load("m", "a")\nload("m", "a")', { globalReassign: true }, []],
  ['def f():\n  x = 1\n  x = 2\n  x += 1', {}, []],
  // with GlobalReassign, top-level uses see only the names bound before them (legacy semantics)
  ['_ = x\nx = 1', { globalReassign: true }, ['1:5: undefined: x']],
  ['_ = x\nx = 1', {}, []],
  ['a = len\nlen = 1\nb = len', { globalReassign: true }, []],
  ['x = x + 1', { globalReassign: true }, ['1:5: undefined: x']],
  ['(a) += 5', { globalReassign: true }, ['1:2: undefined: a']],
  ['def f():\n  return later\nlater = 1', { globalReassign: true }, []],
  ['y = [later for _ in [1]]\nlater = 1', { globalReassign: true }, []],
  ['_ = x\nload("m", "x")', { globalReassign: true }, ['1:5: undefined: x']],
  ['for i in [1]:\n  j = i\nk = i + j', { globalReassign: true, topLevelControl: true }, []],
  // top-level control
  ['if True:\n  pass', {}, ['1:1: if statement not within a function']],
  ['for x in []:\n  pass', {}, ['1:1: for loop not within a function']],
  ['for x in []:\n  pass', { globalReassign: true }, ['1:1: for loop not within a function']],
  ['while True:\n  pass', { while: true }, ['1:1: while loop not within a function']],
  [
    'while True:\n  pass',
    {},
    ['1:1: this Starlark dialect does not support while loops', '1:1: while loop not within a function'],
  ],
  ['def f():\n  while True:\n    pass', {}, ['2:3: this Starlark dialect does not support while loops']],
  ['def f():\n  while True:\n    pass', { while: true }, []],
  ['if True:\n  x = 1\nfor y in []:\n  pass', { topLevelControl: true }, []],
  // sets
  ['x = set([1])', {}, ['1:5: this Starlark dialect does not support sets']],
  ['x = set([1])', { set: true }, []],
  ['set = 1\nx = set', {}, []],
  // branches and returns
  ['break', {}, ['1:1: break not in a loop']],
  ['def f():\n  continue', {}, ['2:3: continue not in a loop']],
  ['def f():\n  for x in []:\n    def g():\n      break', {}, ['4:7: break not in a loop']],
  ['def f():\n  for x in []:\n    if x:\n      break\n    continue', {}, []],
  ['return 1', {}, ['1:1: return statement not within a function']],
  ['f = lambda: 1', {}, []],
  // load placement and names
  ['def f():\n  load("m", "x")', {}, ['2:3: load statement within a function']],
  ['for i in []:\n  load("m", "x")', { topLevelControl: true }, ['2:3: load statement within a loop']],
  ['if True:\n  load("m", "x")', { topLevelControl: true }, ['2:3: load statement within a conditional']],
  ['load("m", "_b")', {}, ['1:12: load: names with leading underscores are not exported: _b']],
  ['load("m", a="_b")', {}, ['1:14: load: names with leading underscores are not exported: _b']],
  ['load("m", "")', {}, ['1:12: load: empty identifier']],
  ['load("m", "a", b="c")\nx = a + b', {}, []],
  // parameters
  ['def f(a, a): pass', {}, ['1:10: duplicate parameter: a']],
  ['def f(a, *a): pass', {}, ['1:11: duplicate parameter: a']],
  ['def f(a=1, b): pass', {}, ['1:12: required parameter may not follow optional']],
  ['def f(a=1, *, b): pass', {}, []],
  ['def f(**k, a): pass', {}, ['1:12: required parameter may not follow **k']],
  ['def f(**k, a=1): pass', {}, ['1:12: optional parameter may not follow **k']],
  ['def f(**k, *a): pass', {}, ['1:12: * parameter may not follow **k']],
  ['def f(*a, *b): pass', {}, ['1:11: multiple * parameters not allowed']],
  ['def f(**a, **b): pass', {}, ['1:12: multiple ** parameters not allowed']],
  ['def f(*): pass', {}, ['1:7: bare * must be followed by keyword-only parameters']],
  ['def f(*, **k): pass', {}, ['1:7: bare * must be followed by keyword-only parameters']],
  ['def f(a, b=1, *args, c, d=2, **kw): pass', {}, []],
  // call arguments
  ['def f(*a, **k): pass\nf(x=1, 2)', {}, ['2:8: positional argument may not follow named']],
  ['def f(*a, **k): pass\nf(*[], 2)', {}, ['2:8: positional argument may not follow *args']],
  ['def f(*a, **k): pass\nf(**{}, 2)', {}, ['2:9: positional argument may not follow **kwargs']],
  ['def f(*a, **k): pass\nf(*[], x=1)', {}, ['2:8: keyword argument may not follow *args']],
  ['def f(*a, **k): pass\nf(**{}, x=1)', {}, ['2:9: keyword argument may not follow **kwargs']],
  ['def f(*a, **k): pass\nf(x=1, x=2)', {}, ['2:8: keyword argument "x" is repeated']],
  ['def f(*a, **k): pass\nf(*[], *[])', {}, ['2:8: multiple *args not allowed']],
  ['def f(*a, **k): pass\nf(**{}, **{})', {}, ['2:9: multiple **kwargs not allowed']],
  ['def f(*a, **k): pass\nf(**{}, *[])', {}, ['2:9: *args may not follow **kwargs']],
  // assignment targets
  ['f() = 1', {}, ["1:1: can't assign to callexpr"]],
  ['1 = 2', {}, ["1:1: can't assign to literal"]],
  ['x + 1 = 2', {}, ["1:1: can't assign to binaryexpr"]],
  ['a = [1]\na[0:1] = 2', {}, ["2:1: can't assign to sliceexpr"]],
  ['-a = 1', {}, ["1:1: can't assign to unaryexpr"]],
  ['[x for x in []] = 1', {}, ["1:1: can't assign to comprehension"]],
  ['{} = 1', {}, ["1:1: can't assign to dictexpr"]],
  ['x, y += 1', {}, ["1:1: can't use tuple expression in augmented assignment"]],
  ['[x, y] += 1', {}, ["1:1: can't use list expression in augmented assignment"]],
  ['a, (b, [c, d]) = 1, (2, [3, 4])', {}, []],
  ['def f(o):\n  o.x = 1\n  o[0] = 2\n  o.y += 1\n  o[1] -= 1', {}, []],
  // several errors at once, sorted by position
  ['x = a\ny = b\nz = c', {}, ['1:5: undefined: a', '2:5: undefined: b', '3:5: undefined: c']],
  [
    'def f(a, a):\n  break\nreturn',
    {},
    ['1:10: duplicate parameter: a', '2:3: break not in a loop', '3:1: return statement not within a function'],
  ],
];

describe('resolver', () => {
  for (const [src, dialect, want] of cases) {
    it(`${JSON.stringify(src)} ${JSON.stringify(dialect)}`, () => expect(errors(src, dialect)).toEqual(want));
  }

  it('accepts everything with the permissive dialect', () => {
    expect(errors('x = 1\nx = 2\nfor i in []:\n  pass\nwhile False:\n  pass\ny = set()', ALL)).toEqual([]);
  });

  it('resolves predeclared names from the host', () => {
    expect(errors('x = ctx.resource_list', {}, ['ctx'])).toEqual([]);
    expect(errors('x = ctx', {}, [])).toEqual(['1:5: undefined: ctx']);
  });

  it('formats every error as file:line:col', () => {
    try {
      checkFile({ filename: 'fn.star', source: 'x = a\ny = b' });
    } catch (e) {
      if (!isStarlarkSyntaxError(e)) throw e;
      expect(e.message).toBe('fn.star:1:5: undefined: a');
      expect(e.format()).toBe('fn.star:1:5: undefined: a\nfn.star:2:5: undefined: b');
      return;
    }
    throw new Error('no error');
  });
});
