/**
 * The Starlark scanner, parser, resolver and evaluator (src/starlark): programs built from a small
 * grammar and raw token soup either run or fail with a Starlark error (syntax, resolve, runtime or
 * limit: `StarlarkSyntaxError` / `StarlarkEvalError`), never a host exception, and every run is
 * bounded by a step, call-depth, allocation and output budget.
 */
import fc from 'fast-check';
import { execFile, legacyDialect } from '../../../src/starlark/index.ts';
import { StarlarkEvalError, StarlarkSyntaxError } from '../../../src/starlark/errors.ts';
import { onlyCleanErrors, target, utf8 } from '../harness.ts';

const LIMITS = { maxSteps: 20_000, maxCallDepth: 50, maxAllocBytes: 8 << 20, maxOutputBytes: 1 << 16 };
const isStarlarkError = (e: unknown): boolean => e instanceof StarlarkSyntaxError || e instanceof StarlarkEvalError;

const name = fc.constantFrom('x', 'y', 'f', 'xs', 'd', 's', 'i');
const atom = fc.oneof(
  name,
  fc.integer({ min: -300, max: 300 }).map(String),
  fc.constantFrom('0x7fffffffffffffff', '1 << 62', '10**30', '2.5', '1e308', 'float("nan")', '-0.0'),
  fc.constantFrom('"abc"', "'x'", '"a,b,,c"', '""', 'b"by"', '"\\u00e9"', '"\\x41"', 'r"\\d+"'),
  fc.constantFrom('None', 'True', 'False', '[]', '{}', '()', '[1, 2, 3]', '{"k": 1}', '(1,)', 'range(5)'),
);
const expr: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small' },
    atom,
    fc
      .tuple(
        tie('e'),
        fc.constantFrom(
          '+',
          '-',
          '*',
          '/',
          '//',
          '%',
          '==',
          '<',
          'in',
          'not in',
          'and',
          'or',
          '|',
          '&',
          '^',
          '<<',
          '>>',
        ),
        tie('e'),
      )
      .map(([a, op, b]) => `(${a} ${op} ${b})`),
    fc
      .tuple(
        fc.constantFrom(
          'len',
          'str',
          'repr',
          'int',
          'float',
          'bool',
          'list',
          'tuple',
          'sorted',
          'reversed',
          'dict',
          'type',
          'hash',
          'abs',
          'min',
          'max',
          'any',
          'all',
          'enumerate',
          'zip',
          'range',
          'set',
        ),
        fc.array(tie('e'), { maxLength: 2 }),
      )
      .map(([f, args]) => `${f}(${args.join(', ')})`),
    fc
      .tuple(
        tie('e'),
        fc.constantFrom(
          'split',
          'join',
          'upper',
          'strip',
          'replace',
          'find',
          'format',
          'get',
          'keys',
          'items',
          'append',
          'pop',
          'index',
          'count',
          'elems',
          'startswith',
          'partition',
        ),
        fc.array(tie('e'), { maxLength: 2 }),
      )
      .map(([o, m, args]) => `${o}.${m}(${args.join(', ')})`),
    fc.tuple(tie('e'), tie('e')).map(([a, b]) => `${a}[${b}]`),
    fc.tuple(tie('e'), tie('e')).map(([a, b]) => `${a}[${b}:]`),
    fc.tuple(tie('e'), tie('e'), tie('e')).map(([a, b, c]) => `(${a} if ${b} else ${c})`),
    fc.tuple(tie('e'), tie('e')).map(([a, b]) => `[${a} for i in ${b}]`),
    fc.tuple(tie('e')).map(([a]) => `lambda x: ${a}`),
    tie('e').map((a) => `not ${a}`),
    tie('e').map((a) => `-${a}`),
  ),
})).e;

const stmt = fc.oneof(
  fc.tuple(name, expr).map(([n, e]) => `${n} = ${e}`),
  fc.tuple(name, expr).map(([n, e]) => `${n} += ${e}`),
  expr.map((e) => `print(${e})`),
  expr.map((e) => `_ = ${e}`),
  fc.tuple(expr, expr).map(([c, e]) => `if ${c}:\n  x = ${e}\nelse:\n  y = ${e}`),
  fc.tuple(expr, expr).map(([it, e]) => `for i in ${it}:\n  x = ${e}`),
  fc.tuple(expr).map(([e]) => `def f(x, *args, **kw):\n  return ${e}\nx = f(1)`),
  fc.constantFrom(
    'def f(n):\n  return f(n + 1)\nf(0)',
    'while True:\n  pass',
    'x = [0] * 1000000',
    'x = "a" * 100000000',
    'load("m", "a")',
    'fail("stop")',
  ),
);
const program = fc.array(stmt, { maxLength: 6 }).map((s) => s.join('\n') + '\n');

const TOKENS = [
  'def',
  'f',
  '(',
  ')',
  ':',
  '\n',
  '  ',
  '\t',
  'x',
  '=',
  '1',
  '"s',
  '"',
  "'''",
  '[',
  ']',
  '{',
  '}',
  ',',
  'for',
  'in',
  'if',
  'else',
  'lambda',
  '*',
  '**',
  '.',
  '#',
  '\\',
  'return',
  'pass',
  '0x',
  '1e',
  '\r',
  'é',
  '\x00',
];
const soup = fc.array(fc.constantFrom(...TOKENS), { maxLength: 40 }).map((t) => t.join(' '));

function run(source: string): void {
  for (const dialect of [{}, legacyDialect({ set: true, globalReassign: true, recursion: true })])
    onlyCleanErrors(
      () => execFile({ filename: 'fuzz.star', source, dialect, limits: LIMITS, print: () => {} }),
      isStarlarkError,
    );
}

export const starlarkTarget = target<string>({
  name: 'starlark',
  arbitrary: fc.oneof(program, soup),
  check: run,
  fromCorpus: utf8,
});
