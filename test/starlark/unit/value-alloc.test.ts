// The value layer charges what builtins build to the thread's allocation budget, so runaway
// growth through methods (not only through `+`) stops with the alloc limit error.
import { describe, expect, test } from 'vitest';
import { execFile, isStarlarkLimitError } from '../../../src/starlark/index.ts';
import { JSON_MODULE } from '../../../src/starlark/lib/json.ts';

const dialect = { topLevelControl: true, globalReassign: true, while: true };

function limitOf(source: string, maxAllocBytes: number): string {
  try {
    execFile({
      filename: 'alloc.star',
      source,
      dialect,
      predeclared: { json: JSON_MODULE },
      limits: { maxAllocBytes },
    });
    return 'completed';
  } catch (e) {
    if (isStarlarkLimitError(e)) return e.limit;
    throw e;
  }
}

describe('allocation budget', () => {
  test.each([
    ['replace doubling', 's = "ab"\nfor i in range(60):\n  s = s.replace("a", "aa")'],
    ['join doubling', 's = ["x"]\nfor i in range(60):\n  s = [",".join(s), ",".join(s)]'],
    ['format doubling', 's = "x"\nfor i in range(60):\n  s = "{}{}".format(s, s)'],
    ['list() of a big range', 'x = list(range(100000000))'],
    ['sorted copies', 'x = list(range(1000))\nfor i in range(100000):\n  x = sorted(x)'],
    ['dict() copies', 'd = {i: i for i in range(1000)}\nfor i in range(100000):\n  d = dict(d)'],
    ['json round trips', 's = "[1]"\nfor i in range(60):\n  s = json.encode([json.decode(s), json.decode(s)])'],
    ['split of a big string', 's = "a " * 100000\nfor i in range(100000):\n  x = s.split()'],
  ])('%s stops at the alloc limit', (_name, source) => {
    expect(limitOf(source, 1_000_000)).toBe('alloc');
  });

  test('small scripts stay within the same budget', () => {
    expect(limitOf('x = sorted([3, 1, 2])\ny = ",".join(["a", "b"]).replace("a", "b")', 1_000_000)).toBe('completed');
  });
});
