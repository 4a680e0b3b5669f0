// Dynamic error positions and backtraces (docs/starlark.md, "The language"): a frame's position is the operation
// that failed — `(` of a call, `[` of an index or item assignment, the operator of a binary op,
// the `.` of an attribute, the `for` keyword of a loop or comprehension clause — and the
// backtrace reads like starlark-go's.
import { describe, expect, it } from 'vitest';
import { execFile, isStarlarkEvalError } from '../../../src/starlark/index.ts';

function traceback(source: string): string {
  try {
    execFile({
      filename: 'bt.star',
      source,
      dialect: { set: true, while: true, topLevelControl: true, globalReassign: true, recursion: true },
    });
  } catch (e) {
    if (isStarlarkEvalError(e)) return e.format();
    throw e;
  }
  return 'no error';
}

const CASES: [name: string, source: string, want: string][] = [
  ['binary operator', 'x = 1\ny = x + "a"\n', 'bt.star:2:7: in <toplevel>\nError: unknown binary op: int + string'],
  [
    'division operator',
    'def f(a):\n  return 10 // a\nf(0)\n',
    'bt.star:3:2: in <toplevel>\n  bt.star:2:13: in f\nError: floored division by zero',
  ],
  ['index', 'd = {}\nv = d["k"]\n', 'bt.star:2:6: in <toplevel>\nError: key "k" not in dict'],
  [
    'item assignment',
    't = (1,)\nt[0] = 2\n',
    'bt.star:2:2: in <toplevel>\nError: tuple value does not support item assignment',
  ],
  ['attribute', 'x = 1\ny = x.nope\n', 'bt.star:2:6: in <toplevel>\nError: int has no .nope field or method'],
  ['call of a builtin', 'len(1)\n', 'bt.star:1:4: in <toplevel>\nError in len: len: value of type int has no len'],
  [
    'method call',
    'x = []\nx.pop()\n',
    'bt.star:2:6: in <toplevel>\nError in pop: pop: index -1 out of range: empty list',
  ],
  ['for loop', 'for x in 1:\n  pass\n', 'bt.star:1:1: in <toplevel>\nError: int value is not iterable'],
  ['comprehension clause', 'y = [a for a in 2]\n', 'bt.star:1:8: in <toplevel>\nError: int value is not iterable'],
  [
    'nested calls',
    'def a():\n  return b()\ndef b():\n  return fail("deep")\na()\n',
    'bt.star:5:2: in <toplevel>\n  bt.star:2:11: in a\n  bt.star:4:14: in b\nError in fail: fail: deep',
  ],
  [
    'lambda frame',
    'f = lambda x: x["k"]\nf({})\n',
    'bt.star:2:2: in <toplevel>\n  bt.star:1:16: in lambda\nError: key "k" not in dict',
  ],
  [
    'callback from a builtin',
    'def key(x):\n  return x.nope\nsorted([1, 2], key = key)\n',
    'bt.star:3:7: in <toplevel>\n  <builtin>: in sorted\n  bt.star:2:11: in key\nError: int has no .nope field or method',
  ],
  [
    'local before assignment',
    'def f():\n  print(x)\n  x = 1\nf()\n',
    'bt.star:4:2: in <toplevel>\n  bt.star:2:9: in f\nError: local variable x referenced before assignment',
  ],
];

describe('backtraces', () => {
  it.each(CASES)('%s', (_name, source, want) => {
    expect(traceback(source)).toBe('Traceback (most recent call last):\n  ' + want);
  });
});
