// The resolver reports static errors in google/starlark-go's order and with its hints: the errors
// of the walk first, then the uses it resolves at the end of the module (innermost functions
// first), each undefined name once per function, a refused universal once per module, and
// spelling candidates as its memoizing lookup leaves them. Expected texts are what starlark-go
// (built from the repository at the v0.5.0 image's pin, 4b1e35f) prints for the same files.
import { describe, expect, it } from 'vitest';
import { execFile, isStarlarkSyntaxError, starlarkGoRelease, type Dialect } from '../../../src/starlark/index.ts';

function errors(source: string, dialect: Dialect = { set: true }, release = '2023-03-01'): string[] {
  try {
    execFile({ filename: 't.star', source, dialect, release: starlarkGoRelease(release)! });
  } catch (e) {
    if (isStarlarkSyntaxError(e)) return e.format().split('\n');
    throw e;
  }
  return [];
}

describe('resolver error order', () => {
  it('reports a refused universal after the walk, and only once', () => {
    expect(errors('x = set()\nif True:\n  pass\ny = set\n', {})).toEqual([
      't.star:2:1: if statement not within a function',
      't.star:1:5: this Starlark dialect does not support sets',
    ]);
  });

  it('resolves free uses innermost function first, then the top level', () => {
    const src =
      'def f():\n  g = lambda: missing_one\n  return missing_two\nx = missing_three\n' +
      'def h():\n  return missing_four\nx = 2\n';
    expect(errors(src)).toEqual([
      't.star:7:1: cannot reassign global x declared at t.star:4:1',
      't.star:2:15: undefined: missing_one',
      // The lambda's lookup memoized missing_one in f's block, so it is a candidate here.
      't.star:3:10: undefined: missing_two (did you mean missing_one?)',
      't.star:6:10: undefined: missing_four',
      't.star:4:5: undefined: missing_three',
    ]);
  });

  it('reports an undefined name once per function but at every top-level use', () => {
    expect(errors('def f():\n  a = zz\n  b = zz\ndef g():\n  return zz\nc = zz\nd = zz\n')).toEqual([
      't.star:2:7: undefined: zz',
      't.star:5:10: undefined: zz',
      't.star:6:5: undefined: zz',
      't.star:7:5: undefined: zz',
    ]);
  });

  it('offers universals already looked up in the same function as hints', () => {
    const src = 'def f(x):\n  print(lenn(x))\n  return len(x)\ndef g(x):\n  print(len(x))\n  return lenn(x)\n';
    expect(errors(src)).toEqual(['t.star:2:9: undefined: lenn', 't.star:6:10: undefined: lenn (did you mean len?)']);
  });

  it('under global reassignment resolves top-level uses on the spot, seeing only earlier names', () => {
    const gr: Dialect = { set: true, globalReassign: true, topLevelControl: true, while: true };
    expect(errors('v = valu\nvalue = 1\n', gr)).toEqual(['t.star:1:5: undefined: valu']);
    expect(errors('v = valu\nvalue = 1\n')).toEqual(['t.star:1:5: undefined: valu (did you mean value?)']);
  });

  it('before 2025-07-17 (#599) lets break pass the resolver inside a def in a loop, then refuses it as the compiler crashed', () => {
    const src = 'def outer():\n  for i in []:\n    def f():\n      break\n';
    // Other static errors come first, as the resolver reports them before compiling.
    expect(errors(src + 'y = zz\n')).toEqual(['t.star:5:5: undefined: zz']);
    expect(errors(src)).toEqual([
      't.star:4:7: break not in a loop (google/starlark-go of this release crashes compiling it)',
    ]);
    expect(errors(src, { set: true }, '2025-07-17')).toEqual(['t.star:4:7: break not in a loop']);
  });
});
