/**
 * The `math` module (starlark-go lib/math, Go `math` semantics where JS differs): functions take
 * ints or floats, positionally; ceil/floor return ints; everything else returns floats.
 */
import type { Kwargs, Value } from '../value/contract.ts';
import { Builtin } from '../value/builtin.ts';
import { Float } from '../value/float.ts';
import { Module } from '../value/struct.ts';
import { fail, failIn } from '../value/errors.ts';
import { intFromIntegralDouble } from '../value/int.ts';
import { typeNameOf } from '../value/repr.ts';
import { positional } from './args.ts';

/** Go's floatOrInt unpacker: `<name>: for parameter <i>: got <type>, want float or int`. */
function num(name: string, index: number, v: Value): number {
  if (v instanceof Float) return v.value;
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v); // ±Inf beyond the double range, like big.Int.Float64
  return failIn(name, `for parameter ${index}: got ${typeNameOf(v)}, want float or int`);
}

function unary(name: string, f: (x: number) => number): Builtin {
  return new Builtin(name, (_t, args: Value[], kwargs: Kwargs) => {
    positional(name, args, kwargs, 1, 1);
    return new Float(f(num(name, 1, args[0])));
  });
}

function binary(name: string, f: (x: number, y: number) => number): Builtin {
  return new Builtin(name, (_t, args: Value[], kwargs: Kwargs) => {
    positional(name, args, kwargs, 2, 2);
    return new Float(f(num(name, 1, args[0]), num(name, 2, args[1])));
  });
}

/** ceil/floor: ints come back unchanged; floats are rounded and converted to int (errors unprefixed, as in Go). */
function rounding(name: string, f: (x: number) => number): Builtin {
  return new Builtin(name, (_t, args: Value[], kwargs: Kwargs) => {
    positional(name, args, kwargs, 1, 1);
    const x = args[0];
    if (typeof x === 'number' || typeof x === 'bigint') return x;
    if (!(x instanceof Float)) return fail(`got ${typeNameOf(x)}, want float or int`);
    const r = f(x.value);
    if (Number.isNaN(r)) fail('cannot convert float NaN to integer');
    if (!Number.isFinite(r)) fail('cannot convert float infinity to integer');
    return intFromIntegralDouble(r);
  });
}

/** Go math.Pow special cases that differ from JS Math.pow. */
function pow(x: number, y: number): number {
  if (x === 1 || y === 0) return 1;
  if (x === -1 && !Number.isFinite(y) && !Number.isNaN(y)) return 1;
  return Math.pow(x, y);
}

/** Go math.Round: half away from zero. */
function round(x: number): number {
  if (!Number.isFinite(x)) return x;
  const r = Math.trunc(x + Math.sign(x) * 0.5);
  // x + 0.5 can round up at the precision limit; correct it
  if (Math.abs(r - x) > 0.5) return r - Math.sign(x);
  return r === 0 ? x * 0 : r;
}

/** IEEE 754 remainder: x - n*y with n = x/y rounded half to even. */
function remainder(x: number, y: number): number {
  if (Number.isNaN(x) || Number.isNaN(y) || !Number.isFinite(x) || y === 0) return NaN;
  if (!Number.isFinite(y)) return x;
  const q = x / y;
  let n = Math.round(q);
  if (Math.abs(q - Math.trunc(q)) === 0.5) n = 2 * Math.round(q / 2);
  const r = x - n * y;
  return r === 0 ? x * 0 : r;
}

/** Lanczos approximation of Γ(x) (within a few ULP of Go's math.Gamma for typical inputs). */
function gamma(x: number): number {
  // Go math.Gamma's special cases: Γ(+Inf) = +Inf, Γ(±0) = ±Inf, Γ(-Inf) = Γ(NaN) = NaN.
  if (x === Infinity) return Infinity;
  if (x === 0) return Object.is(x, -0) ? -Infinity : Infinity;
  if (Number.isInteger(x)) {
    if (x < 0) return NaN;
    if (x < 171) {
      let r = 1;
      for (let i = 2; i < x; i++) r *= i;
      return r;
    }
    return Infinity;
  }
  if (x < 0.5) return Math.PI / (Math.sin(Math.PI * x) * gamma(1 - x));
  const g = 7;
  // Lanczos coefficients written as the Go source has them (more digits than a double holds).
  /* eslint-disable no-loss-of-precision */
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61503916999185,
    12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
  ];
  /* eslint-enable no-loss-of-precision */
  x -= 1;
  let a = c[0];
  const t = x + g + 0.5;
  for (let i = 1; i < g + 2; i++) a += c[i] / (x + i);
  return Math.sqrt(2 * Math.PI) * Math.pow(t, x + 0.5) * Math.exp(-t) * a;
}

const log = new Builtin('log', (_t, args: Value[], kwargs: Kwargs) => {
  positional('log', args, kwargs, 1, 2);
  const x = num('log', 1, args[0]);
  if (args.length === 1) return new Float(Math.log(x));
  const b = num('log', 2, args[1]);
  if (b === 1) fail('division by zero');
  return new Float(Math.log(x) / Math.log(b));
});

/** The `math` module value. */
export const MATH_MODULE: Module = new Module(
  'math',
  Object.freeze({
    ceil: rounding('ceil', Math.ceil),
    copysign: binary('copysign', (x, y) => {
      const neg = y < 0 || Object.is(y, -0) || (Number.isNaN(y) && false);
      return neg ? -Math.abs(x) : Math.abs(x);
    }),
    fabs: unary('fabs', Math.abs),
    floor: rounding('floor', Math.floor),
    mod: binary('mod', (x, y) => x % y),
    pow: binary('pow', pow),
    remainder: binary('remainder', remainder),
    round: unary('round', round),
    exp: unary('exp', Math.exp),
    sqrt: unary('sqrt', Math.sqrt),
    acos: unary('acos', Math.acos),
    asin: unary('asin', Math.asin),
    atan: unary('atan', Math.atan),
    atan2: binary('atan2', Math.atan2),
    cos: unary('cos', Math.cos),
    hypot: binary('hypot', Math.hypot),
    sin: unary('sin', Math.sin),
    tan: unary('tan', Math.tan),
    degrees: unary('degrees', (x) => (360 * x) / (2 * Math.PI)),
    radians: unary('radians', (x) => (2 * Math.PI * x) / 360),
    acosh: unary('acosh', Math.acosh),
    asinh: unary('asinh', Math.asinh),
    atanh: unary('atanh', Math.atanh),
    cosh: unary('cosh', Math.cosh),
    sinh: unary('sinh', Math.sinh),
    tanh: unary('tanh', Math.tanh),
    log,
    gamma: unary('gamma', gamma),
    e: new Float(Math.E),
    pi: new Float(Math.PI),
  }),
);
