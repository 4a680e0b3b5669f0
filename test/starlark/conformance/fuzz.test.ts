// Property/fuzz test: random and mutated programs thrown at the parser, resolver and evaluator.
// Whatever the input, only Starlark errors come out (syntax, eval, limit), never a host exception,
// crash or hang. Deterministic: a fixed seed (override with STARLARK_FUZZ_SEED, scale with
// STARLARK_FUZZ_N) so a failure can be replayed; the failing program is printed.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  execFile,
  isStarlarkEvalError,
  isStarlarkSyntaxError,
  Builtin,
  Module,
  None,
  JSON_MODULE,
} from '../../../src/starlark/index.ts';
import type { Dialect, Value } from '../../../src/starlark/index.ts';
import { splitChunks } from '../../../src/starlark/testing/index.ts';
import { REPO, SUITE_DIR, suiteFiles } from './suite-files.ts';

const SEED = Number(process.env['STARLARK_FUZZ_SEED'] ?? 20261202);
const SCALE = Number(process.env['STARLARK_FUZZ_N'] ?? 1);

/** mulberry32: small, fast, reproducible. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TOKENS = [
  'def',
  'if',
  'elif',
  'else',
  'for',
  'in',
  'while',
  'return',
  'break',
  'continue',
  'pass',
  'lambda',
  'load',
  'not',
  'and',
  'or',
  'None',
  'True',
  'False',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  ',',
  ':',
  ';',
  '.',
  '=',
  '==',
  '!=',
  '<',
  '<=',
  '+',
  '-',
  '*',
  '/',
  '//',
  '%',
  '&',
  '|',
  '^',
  '~',
  '<<',
  '>>',
  '+=',
  '*=',
  '**',
  '*',
  '\n',
  '\n  ',
  '\n    ',
  '\\\n',
  '#',
  '"',
  "'",
  '"""',
  'x',
  'y',
  'f',
  'len',
  'range',
  'str',
  'dict',
  'list',
  'sorted',
  'print',
  'fail',
  'set',
  '0',
  '1',
  '-1',
  '1 << 62',
  '0x7f',
  '1.5',
  'float("nan")',
  '"abc"',
  "'é'",
  'b"\\xff"',
  '"%s %d"',
  '"{}"',
  '[1, 2]',
  '{"k": 1}',
  '(1,)',
  'assert',
  'json',
  '"\\u00e9"',
  'r"\\n"',
  '012',
  '1e309',
  '$',
  '`',
  '\t',
];

const EXPR_LEAVES = [
  '0',
  '1',
  '-7',
  '3.5',
  '1e300',
  '(1 << 100)',
  '"s"',
  '"é"',
  'b"b"',
  'None',
  'True',
  '[]',
  '[1, "a"]',
  '{}',
  '{"a": [1]}',
  '()',
  '(1, 2)',
  'range(5)',
  'x',
  'y',
  'len',
  'json',
  'struct(a = 1)',
];
const BINOPS = [
  '+',
  '-',
  '*',
  '/',
  '//',
  '%',
  '&',
  '|',
  '^',
  '<<',
  '>>',
  '==',
  '!=',
  '<',
  '>',
  'in',
  'not in',
  'and',
  'or',
];
const CALLS = [
  'len',
  'str',
  'repr',
  'list',
  'tuple',
  'dict',
  'sorted',
  'reversed',
  'enumerate',
  'zip',
  'min',
  'max',
  'bool',
  'int',
  'float',
  'hash',
  'type',
  'dir',
  'abs',
  'any',
  'all',
  'chr',
  'ord',
  'bytes',
  'json.encode',
  'json.decode',
];
const METHODS = [
  'append',
  'pop',
  'get',
  'keys',
  'items',
  'split',
  'join',
  'format',
  'upper',
  'elems',
  'replace',
  'index',
  'update',
  'setdefault',
  'startswith',
  'strip',
];

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)];
}

function genExpr(r: () => number, depth: number): string {
  if (depth <= 0 || r() < 0.25) return pick(r, EXPR_LEAVES);
  switch (Math.floor(r() * 9)) {
    case 0:
      return `(${genExpr(r, depth - 1)} ${pick(r, BINOPS)} ${genExpr(r, depth - 1)})`;
    case 1:
      return `${pick(r, CALLS)}(${genExpr(r, depth - 1)})`;
    case 2:
      return `${genExpr(r, depth - 1)}.${pick(r, METHODS)}(${r() < 0.5 ? genExpr(r, depth - 1) : ''})`;
    case 3:
      return `${genExpr(r, depth - 1)}[${genExpr(r, depth - 1)}]`;
    case 4:
      return `${genExpr(r, depth - 1)}[${r() < 0.5 ? genExpr(r, 0) : ''}:${r() < 0.5 ? genExpr(r, 0) : ''}]`;
    case 5:
      return `[${genExpr(r, depth - 1)} for x in ${genExpr(r, depth - 1)} if ${genExpr(r, depth - 1)}]`;
    case 6:
      return `(${genExpr(r, depth - 1)} if ${genExpr(r, depth - 1)} else ${genExpr(r, depth - 1)})`;
    case 7:
      return `{${genExpr(r, depth - 1)}: ${genExpr(r, depth - 1)}}`;
    default:
      return `(lambda y: ${genExpr(r, depth - 1)})(${genExpr(r, depth - 1)})`;
  }
}

function genProgram(r: () => number): string {
  const lines: string[] = ['x = ' + genExpr(r, 2), 'y = ' + genExpr(r, 1)];
  const n = 1 + Math.floor(r() * 6);
  for (let i = 0; i < n; i++) {
    const e = genExpr(r, 3);
    switch (Math.floor(r() * 5)) {
      case 0:
        lines.push(`def f${i}(y = ${genExpr(r, 1)}):\n  for x in ${e}:\n    y = x\n  return y\nz${i} = f${i}()`);
        break;
      case 1:
        lines.push(`if ${e}:\n  print(${genExpr(r, 2)})`);
        break;
      case 2:
        lines.push(`w${i} = ${e}`);
        break;
      case 3:
        lines.push(`n${i} = 0\nwhile n${i} < 3:\n  n${i} += 1\n  x = ${e}`);
        break;
      default:
        lines.push(`print(${e})`);
    }
  }
  return lines.join('\n') + '\n';
}

function tokenSoup(r: () => number): string {
  const n = 1 + Math.floor(r() * 40);
  let s = '';
  for (let i = 0; i < n; i++) s += pick(r, TOKENS) + (r() < 0.7 ? ' ' : '');
  return s;
}

function mutate(r: () => number, src: string): string {
  let s = src;
  const edits = 1 + Math.floor(r() * 4);
  for (let k = 0; k < edits; k++) {
    const at = Math.floor(r() * (s.length + 1));
    switch (Math.floor(r() * 6)) {
      case 0: // delete a span
        s = s.slice(0, at) + s.slice(at + 1 + Math.floor(r() * 8));
        break;
      case 1: // insert a token
        s = s.slice(0, at) + pick(r, TOKENS) + s.slice(at);
        break;
      case 2: {
        // duplicate a line
        const lines = s.split('\n');
        const i = Math.floor(r() * lines.length);
        lines.splice(i, 0, lines[i]);
        s = lines.join('\n');
        break;
      }
      case 3: // replace a character with a random byte-ish character
        s = s.slice(0, at) + String.fromCharCode(Math.floor(r() * 0x300)) + s.slice(at + 1);
        break;
      case 4: {
        // swap two lines
        const lines = s.split('\n');
        const i = Math.floor(r() * lines.length),
          j = Math.floor(r() * lines.length);
        [lines[i], lines[j]] = [lines[j], lines[i]];
        s = lines.join('\n');
        break;
      }
      default: // change indentation
        s = s.replace(/\n( *)/g, (m, sp: string) =>
          r() < 0.1 ? '\n' + ' '.repeat(Math.max(0, sp.length + (r() < 0.5 ? -1 : 2))) : m,
        );
    }
  }
  return s;
}

const KRM_DIALECT: Dialect = { set: true, while: true, topLevelControl: true, globalReassign: true, recursion: true };
const DIALECTS: Dialect[] = [{}, KRM_DIALECT, KRM_DIALECT, { set: true, topLevelControl: true }];

/** Fixtures like the harness's, plus a load() that offers a module and fails otherwise. */
const assertLike = new Module('assert', {
  eq: new Builtin('eq', () => None),
  fails: new Builtin('fails', (t, args) => {
    try {
      t.call(args[0], [], null);
    } catch (e) {
      if (!isStarlarkEvalError(e)) throw e;
    }
    return None;
  }),
});

interface Crash {
  program: string;
  error: string;
}

type Outcome = 'ok' | 'static' | 'dynamic' | 'crash';

function runOne(program: string, dialect: Dialect, crashes: Crash[]): Outcome {
  try {
    execFile({
      filename: 'fuzz.star',
      source: program,
      dialect,
      predeclared: { struct: new Builtin('struct', () => None), json: JSON_MODULE },
      limits: {
        maxSteps: 20_000,
        maxCallDepth: 200,
        maxAllocBytes: 8 << 20,
        maxOutputBytes: 1 << 16,
        deadline: Date.now() + 2_000,
        now: Date.now,
      },
      print: () => {},
      load: (m: string): Record<string, Value> => {
        if (m === 'assert.star') return { assert: assertLike, freeze: new Builtin('freeze', (_t, a) => a[0]) };
        throw new Error(`no module ${m}`);
      },
    });
    return 'ok';
  } catch (e) {
    if (isStarlarkSyntaxError(e) || isStarlarkEvalError(e)) {
      // Errors must carry a usable message.
      if (typeof e.message !== 'string' || e.message.length === 0)
        crashes.push({ program, error: 'empty error message' });
      return isStarlarkSyntaxError(e) ? 'static' : 'dynamic';
    }
    crashes.push({ program, error: e instanceof Error ? `${e.name}: ${e.message}\n${e.stack ?? ''}` : String(e) });
    return 'crash';
  }
}

function report(crashes: Crash[]): string {
  return crashes
    .slice(0, 5)
    .map((c) => `--- program:\n${c.program}\n--- error: ${c.error.split('\n').slice(0, 6).join('\n')}`)
    .join('\n');
}

const corpus: string[] = suiteFiles().flatMap((f) =>
  splitChunks(readFileSync(join(SUITE_DIR, f), 'utf8')).map((c) => c.text),
);

describe(`fuzz (seed ${SEED})`, () => {
  it('random well-formed-ish programs only raise Starlark errors', () => {
    const r = rng(SEED);
    const crashes: Crash[] = [];
    const seen: Record<Outcome, number> = { ok: 0, static: 0, dynamic: 0, crash: 0 };
    for (let i = 0; i < 1500 * SCALE; i++) seen[runOne(genProgram(r), KRM_DIALECT, crashes)]++;
    expect(report(crashes)).toBe('');
    // The generator must reach the evaluator, not just the parser.
    expect(seen.ok + seen.dynamic).toBeGreaterThan(0.3 * 1500 * SCALE);
    expect(seen.ok).toBeGreaterThan(0);
  });
  it('token soup only raises Starlark errors', () => {
    const r = rng(SEED + 1);
    const crashes: Crash[] = [];
    for (let i = 0; i < 3000 * SCALE; i++) runOne(tokenSoup(r), pick(r, DIALECTS), crashes);
    expect(report(crashes)).toBe('');
  });
  it('mutated suite chunks only raise Starlark errors', () => {
    const r = rng(SEED + 2);
    const crashes: Crash[] = [];
    expect(corpus.length).toBeGreaterThan(300);
    for (let i = 0; i < 3000 * SCALE; i++) runOne(mutate(r, pick(r, corpus)), pick(r, DIALECTS), crashes);
    expect(report(crashes)).toBe('');
  });
  it('byte-level garbage only raises Starlark errors', () => {
    const r = rng(SEED + 3);
    const crashes: Crash[] = [];
    for (let i = 0; i < 1000 * SCALE; i++) {
      let s = '';
      const n = Math.floor(r() * 60);
      for (let k = 0; k < n; k++) s += String.fromCharCode(Math.floor(r() * 256));
      runOne(s, pick(r, DIALECTS), crashes);
    }
    expect(report(crashes)).toBe('');
  });
});

void REPO;
