/**
 * Starlark int arithmetic over the contract's representation: a safe JS integer, or a bigint
 * outside the safe range. Every function here returns a normalised int (safe values as numbers,
 * never -0), so equal ints always have one form and can key a JS Map directly.
 */
import { fail } from './errors.ts';

export type Int = number | bigint;

const MAX = Number.MAX_SAFE_INTEGER;
const BMAX = BigInt(MAX);
const BMIN = -BMAX;

export function isInt(x: unknown): x is Int {
  return typeof x === 'number' || typeof x === 'bigint';
}

/** Demotes a bigint that fits to a number. */
export function normBig(b: bigint): Int {
  return b >= BMIN && b <= BMAX ? Number(b) : b;
}

export const big = (x: Int): bigint => (typeof x === 'bigint' ? x : BigInt(x));

export function intAdd(x: Int, y: Int): Int {
  if (typeof x === 'number' && typeof y === 'number') {
    const r = x + y;
    if (r <= MAX && r >= -MAX) return r;
  }
  return normBig(big(x) + big(y));
}

export function intSub(x: Int, y: Int): Int {
  if (typeof x === 'number' && typeof y === 'number') {
    const r = x - y;
    if (r <= MAX && r >= -MAX) return r;
  }
  return normBig(big(x) - big(y));
}

export function intMul(x: Int, y: Int): Int {
  if (typeof x === 'number' && typeof y === 'number') {
    const r = x * y;
    if (r <= MAX && r >= -MAX) return r + 0; // + 0 turns -0 into 0
  }
  return normBig(big(x) * big(y));
}

export function intNeg(x: Int): Int {
  return typeof x === 'number' ? 0 - x : normBig(-x);
}

export function intSign(x: Int): number {
  return x > 0 ? 1 : x < 0 ? -1 : 0;
}

/** Floored division; the caller has checked y != 0. */
export function intFloorDiv(x: Int, y: Int): Int {
  if (typeof x === 'number' && typeof y === 'number') {
    let r = x % y;
    if (r !== 0 && r < 0 !== y < 0) r += y;
    const n = x - r;
    if (n <= MAX && n >= -MAX) return n / y + 0;
  }
  const bx = big(x),
    by = big(y);
  let q = bx / by;
  if (bx % by !== 0n && bx < 0n !== by < 0n) q -= 1n;
  return normBig(q);
}

/** Floored modulo (result has the divisor's sign); the caller has checked y != 0. */
export function intMod(x: Int, y: Int): Int {
  if (typeof x === 'number' && typeof y === 'number') {
    let r = x % y;
    if (r !== 0 && r < 0 !== y < 0) r += y;
    return r + 0;
  }
  const by = big(y);
  let r = big(x) % by;
  if (r !== 0n && r < 0n !== by < 0n) r += by;
  return normBig(r);
}

const I32 = 0x7fffffff;
const small32 = (x: Int): x is number => typeof x === 'number' && x <= I32 && x >= -I32 - 1;

export function intAnd(x: Int, y: Int): Int {
  if (small32(x) && small32(y)) return x & y;
  return normBig(big(x) & big(y));
}
export function intOr(x: Int, y: Int): Int {
  if (small32(x) && small32(y)) return x | y;
  return normBig(big(x) | big(y));
}
export function intXor(x: Int, y: Int): Int {
  if (small32(x) && small32(y)) return x ^ y;
  return normBig(big(x) ^ big(y));
}
export function intNot(x: Int): Int {
  if (small32(x)) return ~x;
  return normBig(~big(x));
}

/** `x << n` with starlark-go's limits (n < 512). */
export function intShl(x: Int, n: Int): Int {
  if (n < 0) fail(`negative shift count: ${n}`);
  if (n >= 512) fail(`shift count too large: ${n}`);
  const k = Number(n);
  if (typeof x === 'number') {
    const r = x * 2 ** k;
    if (r <= MAX && r >= -MAX) return r;
  }
  return normBig(big(x) << BigInt(k));
}

/** `x >> n`, floored, unlimited n. */
export function intShr(x: Int, n: Int): Int {
  if (n < 0) fail(`negative shift count: ${n}`);
  if (typeof n === 'bigint' || n >= 1024) {
    if (typeof x === 'number') return x < 0 ? -1 : 0;
    if (n > 100000000) return x < 0n ? -1 : 0;
  }
  if (typeof x === 'number') return Math.floor(x / 2 ** Number(n)) + 0;
  return normBig(x >> BigInt(n));
}

/** Parses digits (no sign, no prefix) in `base`; returns null on any invalid character. */
export function parseDigits(s: string, base: number): Int | null {
  if (s.length === 0) return null;
  if (base === 10 && s.length <= 15) {
    if (!/^[0-9]+$/.test(s)) return null;
    return Number(s);
  }
  let acc = 0n;
  const b = BigInt(base);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let d: number;
    if (c >= 48 && c <= 57) d = c - 48;
    else if (c >= 97 && c <= 122) d = c - 87;
    else if (c >= 65 && c <= 90) d = c - 55;
    else return null;
    if (d >= base) return null;
    acc = acc * b + BigInt(d);
  }
  return normBig(acc);
}

/** Exact conversion of an integral finite double to an int. */
export function intFromIntegralDouble(f: number): Int {
  if (f <= MAX && f >= -MAX) return f + 0;
  return normBig(BigInt(f));
}

/** int → double; `int too large to convert to float` past the double range. */
export function intToDouble(x: Int): number {
  if (typeof x === 'number') return x;
  const f = Number(x);
  if (!Number.isFinite(f)) fail('int too large to convert to float');
  return f;
}

/** Formats in base 2..36 ('x' digits lowercase). */
export function intToString(x: Int, radix: number): string {
  return x.toString(radix);
}
