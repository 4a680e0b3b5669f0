/**
 * Compiled operators: closures for unary and binary expressions with the hot cases (small-int
 * arithmetic and comparison, string concatenation) inlined; the value layer's operator functions
 * handle everything else, after the frame's position is set for error reporting.
 */
import type { Value } from '../value/contract.ts';
import { compare, contains, equal, unary } from '../value/ops.ts';
import type { Frame } from '../eval/frame.ts';
import { ALLOC_STRING_MIN, MAX_SAFE, SMALL_DIV, binaryOp, isTrue } from './runtime.ts';
import type { Ex } from './runtime.ts';

/** `op x` with the small-int negation inlined. */
export function unaryExpr(op: string, x: Ex, p: number): Ex {
  switch (op) {
    case 'not':
      return (fr) => !isTrue(x(fr));
    case '-':
      return (fr) => {
        const v = x(fr);
        if (typeof v === 'number') return v === 0 ? 0 : -v;
        fr.pos = p;
        return unary('-', v);
      };
    default:
      return (fr) => {
        const v = x(fr);
        fr.pos = p;
        return unary(op, v);
      };
  }
}

/**
 * `x op y` (including short-circuit `and`/`or`, comparisons and `in`), with fast paths for safe
 * ints and strings; anything else goes to the value layer.
 */
export function binaryExpr(op: string, x: Ex, y: Ex, p: number): Ex {
  switch (op) {
    case 'and':
      return (fr) => {
        const a = x(fr);
        return isTrue(a) ? y(fr) : a;
      };
    case 'or':
      return (fr) => {
        const a = x(fr);
        return isTrue(a) ? a : y(fr);
      };
    case '+':
      return (fr) => {
        const a = x(fr);
        const b = y(fr);
        if (typeof a === 'number' && typeof b === 'number') {
          const r = a + b;
          if (r <= MAX_SAFE && r >= -MAX_SAFE) return r;
        } else if (typeof a === 'string' && typeof b === 'string') {
          const r = a + b;
          if (r.length > ALLOC_STRING_MIN) fr.th.alloc(r.length);
          return r;
        }
        fr.pos = p;
        return binaryOp(fr, '+', a, b);
      };
    case '-':
      return (fr) => {
        const a = x(fr);
        const b = y(fr);
        if (typeof a === 'number' && typeof b === 'number') {
          const r = a - b;
          if (r <= MAX_SAFE && r >= -MAX_SAFE) return r;
        }
        fr.pos = p;
        return binaryOp(fr, '-', a, b);
      };
    case '*':
      return (fr) => {
        const a = x(fr);
        const b = y(fr);
        if (typeof a === 'number' && typeof b === 'number') {
          const r = a * b;
          if (r <= MAX_SAFE && r >= -MAX_SAFE) return r + 0;
        }
        fr.pos = p;
        return binaryOp(fr, '*', a, b);
      };
    case '%':
      return (fr) => {
        const a = x(fr);
        const b = y(fr);
        if (typeof a === 'number' && typeof b === 'number' && b !== 0) {
          let r = a % b;
          if (r !== 0 && r < 0 !== b < 0) r += b;
          return r + 0;
        }
        fr.pos = p;
        return binaryOp(fr, '%', a, b);
      };
    case '//':
      return (fr) => {
        const a = x(fr);
        const b = y(fr);
        if (typeof a === 'number' && typeof b === 'number' && b !== 0 && a <= SMALL_DIV && a >= -SMALL_DIV) {
          return Math.floor(a / b) + 0;
        }
        fr.pos = p;
        return binaryOp(fr, '//', a, b);
      };
    case '==':
      return (fr) => {
        const a = x(fr);
        const b = y(fr);
        if (a === b && typeof a !== 'object') return true;
        if (typeof a === typeof b && typeof a !== 'object') return false;
        fr.pos = p;
        return equal(a, b);
      };
    case '!=':
      return (fr) => {
        const a = x(fr);
        const b = y(fr);
        if (a === b && typeof a !== 'object') return false;
        if (typeof a === typeof b && typeof a !== 'object') return true;
        fr.pos = p;
        return !equal(a, b);
      };
    case '<':
    case '<=':
    case '>':
    case '>=':
      return ordered(op, x, y, p);
    case 'in':
      return (fr) => {
        const a = x(fr);
        const b = y(fr);
        fr.pos = p;
        return contains(b, a);
      };
    case 'not in':
      return (fr) => {
        const a = x(fr);
        const b = y(fr);
        fr.pos = p;
        return !contains(b, a);
      };
    default:
      return (fr) => {
        const a = x(fr);
        const b = y(fr);
        fr.pos = p;
        return binaryOp(fr, op, a, b);
      };
  }
}

/** `< <= > >=`, inlined for two ints or two strings (byte order: binary strings compare by byte). */
function ordered(op: string, x: Ex, y: Ex, p: number): Ex {
  const slow = (fr: Frame, a: Value, b: Value): boolean => {
    fr.pos = p;
    return compare(op, a, b);
  };
  switch (op) {
    case '<':
      return (fr) => {
        const a = x(fr);
        const b = y(fr);
        if ((typeof a === 'number' && typeof b === 'number') || (typeof a === 'string' && typeof b === 'string'))
          return a < b;
        return slow(fr, a, b);
      };
    case '<=':
      return (fr) => {
        const a = x(fr);
        const b = y(fr);
        if ((typeof a === 'number' && typeof b === 'number') || (typeof a === 'string' && typeof b === 'string'))
          return a <= b;
        return slow(fr, a, b);
      };
    case '>':
      return (fr) => {
        const a = x(fr);
        const b = y(fr);
        if ((typeof a === 'number' && typeof b === 'number') || (typeof a === 'string' && typeof b === 'string'))
          return a > b;
        return slow(fr, a, b);
      };
    default:
      return (fr) => {
        const a = x(fr);
        const b = y(fr);
        if ((typeof a === 'number' && typeof b === 'number') || (typeof a === 'string' && typeof b === 'string'))
          return a >= b;
        return slow(fr, a, b);
      };
  }
}
