/** `range(start, stop, step)`: lazy, immutable, indexable, unhashable (spec §5). */
import type { Value } from './contract.ts';
import type { StarlarkIterator } from './capabilities.ts';

export class Range {
  readonly starlarkType = 'range';
  readonly unhashable = 'unhashable: range';
  readonly length: number;
  readonly start: number;
  readonly stop: number;
  readonly step: number;
  constructor(start: number, stop: number, step: number) {
    this.start = start;
    this.stop = stop;
    this.step = step;
    this.length = rangeLen(start, stop, step);
  }
  len(): number {
    return this.length;
  }
  index(i: number): number {
    return this.start + i * this.step;
  }
  iterate(): StarlarkIterator {
    return new RangeIterator(this.start, this.step, this.length);
  }
  contains(x: number): boolean {
    if (this.step > 0 ? x < this.start || x >= this.stop : x > this.start || x <= this.stop) return false;
    return (x - this.start) % this.step === 0;
  }
}

export function rangeLen(start: number, stop: number, step: number): number {
  if (step > 0) return start < stop ? Math.floor((stop - start - 1) / step) + 1 : 0;
  return start > stop ? Math.floor((start - stop - 1) / -step) + 1 : 0;
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

export const isRange = (x: unknown): x is Range => x instanceof Range;
