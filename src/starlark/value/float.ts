/**
 * Starlark float: an IEEE-754 double boxed in `Float` so it is never confused with an int (ints
 * are bare JS numbers). Formatting follows Go's `strconv` shortest `%g`, as starlark-go prints.
 */

export class Float {
  readonly starlarkType = 'float';
  readonly value: number;
  constructor(value: number) {
    this.value = value;
  }
}

export const isFloat = (x: unknown): x is Float => x instanceof Float;

/** Shortest round-trip digits and the decimal exponent of the leading digit (value = d.ddd×10^exp). */
function shortestDigits(x: number): { digits: string; exp: number } {
  const s = Math.abs(x).toExponential(); // e.g. "1.2345e+6": JS prints the shortest round-trip digits
  const e = s.indexOf('e');
  const mant = s.slice(0, e);
  return { digits: mant.replace('.', ''), exp: Number(s.slice(e + 1)) };
}

function expSuffix(exp: number, upper: boolean): string {
  const a = Math.abs(exp);
  return (upper ? 'E' : 'e') + (exp < 0 ? '-' : '+') + (a < 10 ? '0' + a : String(a));
}

/** Go `%g` with shortest precision (no `.0` appended). */
export function formatG(x: number, upper = false): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return '+inf';
  if (x === -Infinity) return '-inf';
  const neg = x < 0 || Object.is(x, -0);
  if (x === 0) return neg ? '-0' : '0';
  const { digits, exp } = shortestDigits(x);
  let body: string;
  if (exp < -4 || exp >= 6) {
    body = digits[0] + (digits.length > 1 ? '.' + digits.slice(1) : '') + expSuffix(exp, upper);
  } else if (exp < 0) {
    body = '0.' + '0'.repeat(-exp - 1) + digits;
  } else if (digits.length <= exp + 1) {
    body = digits + '0'.repeat(exp + 1 - digits.length);
  } else {
    body = digits.slice(0, exp + 1) + '.' + digits.slice(exp + 1);
  }
  return neg ? '-' + body : body;
}

/** `str(float)` / `repr(float)`: shortest `%g`, plus `.0` when there is neither `.` nor exponent. */
export function formatFloat(x: number, upper = false): string {
  const s = formatG(x, upper);
  if (!Number.isFinite(x)) return s;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 46 /* . */ || c === 101 /* e */ || c === 69 /* E */) return s;
  }
  return s + '.0';
}

/** Go `%e` with 6 fractional digits (`1.500000e+00`). */
export function formatE(x: number, upper = false): string {
  if (!Number.isFinite(x)) return formatG(x);
  const s = x.toExponential(6);
  const e = s.indexOf('e');
  return (Object.is(x, -0) ? '-' : '') + s.slice(0, e) + expSuffix(Number(s.slice(e + 1)), upper);
}

/** Go `%f` with 6 fractional digits. */
export function formatF(x: number): string {
  if (!Number.isFinite(x)) return formatG(x);
  if (Math.abs(x) < 1e21) {
    const s = x.toFixed(6);
    return Object.is(x, -0) || (x < 0 && !s.startsWith('-')) ? '-' + s : s;
  }
  return BigInt(x).toString() + '.000000';
}

/** Parses Starlark/Go float syntax for `float(s)`; returns undefined when malformed. */
export function parseFloatLiteral(s: string): number | undefined {
  const t = s.toLowerCase();
  let body = t,
    sign = 1;
  if (body.startsWith('+') || body.startsWith('-')) {
    if (body[0] === '-') sign = -1;
    body = body.slice(1);
  }
  if (body === 'inf' || body === 'infinity') return sign * Infinity;
  if (body === 'nan') return NaN;
  if (!/^([0-9]+\.?[0-9]*|\.[0-9]+)(e[+-]?[0-9]+)?$/.test(body)) return undefined;
  return sign * Number(body);
}
