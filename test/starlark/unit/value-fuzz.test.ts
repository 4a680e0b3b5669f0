// Property test of the value layer: random values through every operator, conversion, builtin
// and method must either succeed or fail with a Starlark error (never a JS TypeError/RangeError
// or a hang). Deterministic: a fixed-seed PRNG, a few thousand cases, well under a second.
import { expect, test } from 'vitest';
import type { Value } from '../../../src/starlark/value/contract.ts';
import { None } from '../../../src/starlark/value/contract.ts';
import * as ops from '../../../src/starlark/value/ops.ts';
import * as attrs from '../../../src/starlark/lib/attrs.ts';
import { Float } from '../../../src/starlark/value/float.ts';
import { List, Tuple } from '../../../src/starlark/value/list.ts';
import { Dict, StarlarkSet } from '../../../src/starlark/value/hashtable.ts';
import { Bytes } from '../../../src/starlark/value/bytes.ts';
import { Range } from '../../../src/starlark/value/range.ts';
import { Struct } from '../../../src/starlark/value/struct.ts';
import { isStarlarkEvalError } from '../../../src/starlark/errors.ts';
import { UNIVERSE } from '../../../src/starlark/lib/universe.ts';
import { Builtin } from '../../../src/starlark/value/builtin.ts';
import { JSON_MODULE } from '../../../src/starlark/lib/json.ts';
import { MATH_MODULE } from '../../../src/starlark/lib/math.ts';
import { thread } from './value-helpers.ts';

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const rand = prng(20261202);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];

const SCALARS: Value[] = [
  None,
  true,
  false,
  0,
  1,
  -1,
  7,
  255,
  256,
  -255,
  2 ** 31,
  2 ** 53 - 1,
  -(2 ** 53 - 1),
  511,
  512,
  1000,
  2n ** 64n,
  -(2n ** 70n),
  new Float(0),
  new Float(-0),
  new Float(1.5),
  new Float(-2.5),
  new Float(NaN),
  new Float(Infinity),
  new Float(-Infinity),
  new Float(1e300),
  new Float(5e-324),
  '',
  'a',
  'abc',
  'a,b,,c',
  '  x y  ',
  '%s %d',
  '%(a)s',
  '{}{0}',
  '{x}',
  '\xc3\xa9',
  '\xff\xfe',
  '\n\r\t',
  'Hello World',
  '0x1f',
  '-12',
  '1e5',
  'nan',
  new Bytes(''),
  new Bytes('ab\xff'),
];

function randomValue(depth: number): Value {
  const r = rand();
  if (depth <= 0 || r < 0.55) return pick(SCALARS);
  const n = Math.floor(rand() * 4);
  const elems = Array.from({ length: n }, () => randomValue(depth - 1));
  if (r < 0.65) return new List(elems);
  if (r < 0.75) return new Tuple(elems);
  if (r < 0.83) {
    const d = new Dict();
    for (const e of elems) {
      try {
        d.insert(e, randomValue(depth - 1));
      } catch {
        // unhashable keys are skipped
      }
    }
    return d;
  }
  if (r < 0.9) {
    const s = new StarlarkSet();
    for (const e of elems) {
      try {
        s.add(e);
      } catch {
        // unhashable elements are skipped
      }
    }
    return s;
  }
  if (r < 0.95) return new Range(pick([0, 1, -3, 10]), pick([0, 5, -10, 2n ** 62n]), pick([1, 2, -1, 3]));
  return new Struct([
    ['a', randomValue(depth - 1)],
    ['b', elems[0] ?? None],
  ]);
}

/** Runs f; a thrown error must be a Starlark error. Returns false if it threw something else. */
function safely(what: string, f: () => unknown, failures: string[]): void {
  try {
    f();
  } catch (e) {
    if (!isStarlarkEvalError(e)) failures.push(`${what}: ${(e as Error)?.stack ?? String(e)}`);
  }
}

const BINARY = [
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
  'in',
  'not in',
  '==',
  '!=',
  '<',
  '<=',
  '>',
  '>=',
];
const UNARY = ['+', '-', '~', 'not'];
const BUILTINS = Object.entries(UNIVERSE).filter(([k, v]) => k !== 'fail' && k !== 'print' && v instanceof Builtin);
const MODULE_FUNCS = [...Object.entries(JSON_MODULE.members), ...Object.entries(MATH_MODULE.members)].filter(
  ([, v]) => typeof v === 'object' && 'callInternal' in (v as object),
);

test('random values through the value layer raise only Starlark errors', () => {
  const failures: string[] = [];
  const show = (v: Value): string => {
    try {
      return ops.repr(v).slice(0, 60);
    } catch {
      return '<repr failed>';
    }
  };
  for (let i = 0; i < 1000; i++) {
    const x = randomValue(3),
      y = randomValue(3),
      z = randomValue(1);
    const label = `case ${i} x=${show(x)} y=${show(y)}`;
    thread.steps = 0;
    thread.maxSteps = 100_000;
    for (const op of BINARY) safely(`${label} ${op}`, () => ops.binary(op, x, y, thread), failures);
    for (const op of UNARY) safely(`${label} unary ${op}`, () => ops.unary(op, x), failures);
    safely(`${label} repr/str`, () => [ops.repr(x), ops.str(x), ops.truth(x), ops.typeName(x), ops.len(x)], failures);
    safely(`${label} hash key`, () => ops.keyOf(x), failures);
    safely(`${label} index`, () => ops.getIndex(x, y), failures);
    safely(`${label} slice`, () => ops.slice(x, y, z, pick([None, 1, -1, 2, 0])), failures);
    safely(`${label} setIndex`, () => ops.setIndex(x, y, z), failures);
    safely(`${label} iterate`, () => ops.toArray(x), failures);
    safely(`${label} attr`, () => attrs.getAttr(x, pick(['append', 'get', 'x', 'split', 'elems', 'a'])), failures);
    safely(`${label} setField`, () => ops.setField(x, 'x', y), failures);
    for (const name of attrs.attrNames(x)) {
      const args = Array.from({ length: Math.floor(rand() * 4) }, () => randomValue(2));
      safely(
        `${label} .${name}(${args.map(show).join(', ')})`,
        () => thread.call(attrs.getAttr(x, name), args, null),
        failures,
      );
    }
    const [bname, b] = pick(BUILTINS);
    const args = Array.from({ length: Math.floor(rand() * 3) }, () => randomValue(2));
    safely(`${label} ${bname}(${args.map(show).join(', ')})`, () => thread.call(b, args, null), failures);
    const [mname, m] = pick(MODULE_FUNCS);
    safely(`${label} ${mname}(...)`, () => thread.call(m, [x, y].slice(0, 1 + Math.floor(rand() * 2)), null), failures);
    safely(`${label} freeze`, () => ops.freeze(x), failures);
    if (failures.length > 5) break;
  }
  thread.maxSteps = Infinity;
  expect(failures).toEqual([]);
});
