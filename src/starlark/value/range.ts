/**
 * `range(start, stop, step)`: lazy, immutable, indexable, unhashable (spec §5). Arguments may be any
 * 64-bit ints. When every bound and the length are safe JS integers (the normal case) the number
 * fields are exact and the evaluator may loop over them directly; otherwise `big` holds the exact
 * bigint form and the number fields are approximations for display-free uses only.
 */
import type { Value } from './contract.ts';
import type { StarlarkIterator } from './capabilities.ts';
import { normBig } from './int.ts';
import type { Int } from './int.ts';

export interface BigRange {
  readonly start: bigint;
  readonly stop: bigint;
  readonly step: bigint;
  readonly len: bigint;
}

export class Range {
  readonly starlarkType = 'range';
  readonly unhashable = 'unhashable: range';
  readonly start: number;
  readonly stop: number;
  readonly step: number;
  readonly length: number;
  /** Exact bounds when some bound or the length is not a safe integer; null otherwise. */
  readonly big: BigRange | null;
  constructor(start: Int, stop: Int, step: Int) {
    if (typeof start === 'number' && typeof stop === 'number' && typeof step === 'number') {
      const n = rangeLen(start, stop, step);
      if (Number.isSafeInteger(n)) {
        this.start = start;
        this.stop = stop;
        this.step = step;
        this.length = n;
        this.big = null;
        return;
      }
    }
    const b = { start: BigInt(start), stop: BigInt(stop), step: BigInt(step), len: 0n };
    b.len = bigRangeLen(b.start, b.stop, b.step);
    this.big = b;
    this.start = Number(b.start);
    this.stop = Number(b.stop);
    this.step = Number(b.step);
    this.length = Number(b.len);
  }
  /** The exact length as an int value. */
  lenValue(): Int {
    return this.big === null ? this.length : normBig(this.big.len);
  }
  len(): number {
    return this.length;
  }
  index(i: number): Value {
    if (this.big === null) return this.start + i * this.step;
    return normBig(this.big.start + BigInt(i) * this.big.step);
  }
  /** Element at exact index `i` (may be negative: counted from the end); undefined when out of range. */
  at(i: Int): Value | undefined {
    if (this.big === null && typeof i === 'number') {
      const k = i < 0 ? i + this.length : i;
      return k >= 0 && k < this.length ? this.start + k * this.step : undefined;
    }
    const b = this.big ?? { start: BigInt(this.start), step: BigInt(this.step), len: BigInt(this.length) };
    let k = BigInt(i);
    if (k < 0n) k += b.len;
    return k >= 0n && k < b.len ? normBig(b.start + k * b.step) : undefined;
  }
  iterate(): StarlarkIterator {
    if (this.big === null) return new RangeIterator(this.start, this.step, this.length);
    return new BigRangeIterator(this.big);
  }
  contains(x: Int): boolean {
    if (this.big === null && typeof x === 'number') {
      if (this.step > 0 ? x < this.start || x >= this.stop : x > this.start || x <= this.stop) return false;
      return (x - this.start) % this.step === 0;
    }
    const b = this.big ?? { start: BigInt(this.start), stop: BigInt(this.stop), step: BigInt(this.step) };
    const v = BigInt(x);
    if (b.step > 0n ? v < b.start || v >= b.stop : v > b.start || v <= b.stop) return false;
    return (v - b.start) % b.step === 0n;
  }
  /** (start, stop, step) as exact ints, for repr and equality. */
  bounds(): [Int, Int, Int] {
    if (this.big === null) return [this.start, this.stop, this.step];
    return [normBig(this.big.start), normBig(this.big.stop), normBig(this.big.step)];
  }
}

export function rangeLen(start: number, stop: number, step: number): number {
  if (step > 0) return start < stop ? Math.floor((stop - start - 1) / step) + 1 : 0;
  return start > stop ? Math.floor((start - stop - 1) / -step) + 1 : 0;
}

function bigRangeLen(start: bigint, stop: bigint, step: bigint): bigint {
  if (step > 0n) return start < stop ? (stop - start - 1n) / step + 1n : 0n;
  return start > stop ? (start - stop - 1n) / -step + 1n : 0n;
}

class RangeIterator implements StarlarkIterator {
  private i = 0;
  private readonly start: number;
  private readonly step: number;
  private readonly n: number;
  constructor(start: number, step: number, n: number) {
    this.start = start;
    this.step = step;
    this.n = n;
  }
  next(): Value | undefined {
    if (this.i >= this.n) return undefined;
    return this.start + this.i++ * this.step;
  }
  done(): void {}
}

class BigRangeIterator implements StarlarkIterator {
  private i = 0n;
  private readonly r: BigRange;
  constructor(r: BigRange) {
    this.r = r;
  }
  next(): Value | undefined {
    if (this.i >= this.r.len) return undefined;
    return normBig(this.r.start + this.i++ * this.r.step);
  }
  done(): void {}
}

export const isRange = (x: unknown): x is Range => x instanceof Range;
