// Property: whatever text the front end (scanner, parser, resolver, compiler) and the evaluator
// are given, the only failures are Starlark errors — never a host exception, never a hang.
// Deterministic (seeded PRNG) so a failure reproduces.
import { describe, expect, it } from 'vitest';
import { execFile, checkFile, isStarlarkSyntaxError, isStarlarkEvalError } from 'krmfn/starlark';

function prng(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

const PIECES = [
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  ',',
  ':',
  ';',
  '=',
  '+=',
  '-',
  '*',
  '**',
  '//',
  '%',
  '.',
  '<',
  '==',
  'not',
  'in',
  'and',
  'or',
  'if',
  'else',
  'elif',
  'for',
  'while',
  'def',
  'lambda',
  'return',
  'break',
  'continue',
  'pass',
  'load',
  'x',
  'y',
  'f',
  '_',
  'None',
  'True',
  '0',
  '1',
  '0x',
  '012',
  '1.5',
  '1e',
  '"s"',
  "'t'",
  '"""',
  "'''",
  'b"\\xff"',
  'r"\\"',
  '"\\q"',
  '"\\u12"',
  '\\',
  '#c',
  '\n',
  '\n  ',
  '\n\t',
  '  ',
  'é',
  '\r',
  '$',
  '!',
  '@',
];

const SEEDS = [
  'def f(a, b=1, *args, c, **kw):\n  return [x * 2 for x in args if x] + [a, b, c]\nprint(f(1, 2, 3, c=4, z=5))\n',
  'x = {"a": [1, 2], "b": (3,)}\nfor k in x:\n  y = x[k][0]\n',
  'load("m.star", "v", w="u")\nz = v + w\n',
  'def g():\n  i = 0\n  while i < 3:\n    i += 1\n    if i == 2:\n      continue\n  return lambda q: q + i\n',
  's = "héllo"[1:3]\nt = b"ab"\nu = 1 if s else 2\nn = -7 // 2 % 3 << 1\n',
];

const DIALECT = { set: true, while: true, topLevelControl: true, globalReassign: true, recursion: true };

function classify(src: string, run: boolean): string | null {
  try {
    if (run) {
      execFile({
        filename: 'fz.star',
        source: src,
        dialect: DIALECT,
        load: () => ({ v: 1, u: 2 }),
        print: () => {},
        limits: { maxSteps: 20_000, maxAllocBytes: 1 << 20, maxOutputBytes: 1 << 12, maxCallDepth: 100 },
      });
    } else {
      checkFile({ filename: 'fz.star', source: src, dialect: DIALECT });
    }
    return null;
  } catch (e) {
    if (isStarlarkSyntaxError(e)) return null;
    if (isStarlarkEvalError(e) && (e as { cause?: unknown }).cause === undefined) return null;
    return `${String(e)} <- ${JSON.stringify(src)}`;
  }
}

describe('front-end and evaluator robustness', () => {
  it('random token soup yields only syntax errors', () => {
    const rnd = prng(1);
    const bad: string[] = [];
    for (let i = 0; i < 1500; i++) {
      let src = '';
      const n = 1 + rnd(40);
      for (let j = 0; j < n; j++) src += PIECES[rnd(PIECES.length)] + (rnd(3) === 0 ? ' ' : '');
      const r = classify(src, false);
      if (r !== null) bad.push(r);
    }
    expect(bad).toEqual([]);
  });

  it('mutated valid programs yield only Starlark errors when run', () => {
    const rnd = prng(2);
    const bad: string[] = [];
    for (let i = 0; i < 1500; i++) {
      let src = SEEDS[rnd(SEEDS.length)];
      const edits = 1 + rnd(3);
      for (let j = 0; j < edits; j++) {
        const p = rnd(src.length + 1);
        switch (rnd(3)) {
          case 0:
            src = src.slice(0, p) + PIECES[rnd(PIECES.length)] + src.slice(p);
            break;
          case 1:
            src = src.slice(0, p) + src.slice(p + 1 + rnd(4));
            break;
          default: {
            const q = rnd(src.length + 1);
            src = src.slice(0, p) + src.slice(q, q + rnd(16)) + src.slice(p);
          }
        }
      }
      const r = classify(src, true);
      if (r !== null) bad.push(r);
    }
    expect(bad).toEqual([]);
  });

  it('absurd nesting is a syntax error, not a stack overflow', () => {
    for (const src of [
      'x = ' + '('.repeat(20000) + '1' + ')'.repeat(20000),
      'x = ' + Array(30000).fill('1').join(' + '),
      'x = ' + '-'.repeat(20000) + '1',
    ]) {
      expect(classify(src, true)).toBe(null);
    }
  });
});
