/**
 * Iterable views returned by `s.elems()`, `s.elem_ords()`, `s.codepoints()`, `s.codepoint_ords()`
 * and `b.elems()`: unhashable, printed as the call that made them (`"abc".elems()`).
 */
import type { Value } from './contract.ts';
import type { StarlarkIterator } from './capabilities.ts';
import { decodeRuneAt, quote, runeCount } from './string.ts';

export type ViewKind = 'string.elems' | 'string.elem_ords' | 'string.codepoints' | 'string.codepoint_ords' | 'bytes.elems';

export class StringView {
  readonly unhashable = true;
  readonly starlarkType: ViewKind;
  readonly s: string;
  constructor(kind: ViewKind, s: string) {
    this.starlarkType = kind;
    this.s = s;
  }
  iterate(): StarlarkIterator {
    switch (this.starlarkType) {
      case 'string.elems':
        return new ByteIter(this.s, false);
      case 'string.elem_ords':
      case 'bytes.elems':
        return new ByteIter(this.s, true);
      case 'string.codepoints':
        return new RuneIter(this.s, false);
      case 'string.codepoint_ords':
        return new RuneIter(this.s, true);
    }
  }
  len(): number {
    return this.starlarkType === 'string.codepoints' || this.starlarkType === 'string.codepoint_ords'
      ? runeCount(this.s)
      : this.s.length;
  }
  repr(out: string[]): void {
    const isBytes = this.starlarkType === 'bytes.elems';
    out.push(quote(this.s, isBytes), '.', this.starlarkType.slice(isBytes ? 6 : 7), '()');
  }
}

class ByteIter implements StarlarkIterator {
  private i = 0;
  private readonly s: string;
  private readonly ords: boolean;
  constructor(s: string, ords: boolean) {
    this.s = s;
    this.ords = ords;
  }
  next(): Value | undefined {
    if (this.i >= this.s.length) return undefined;
    const i = this.i++;
    return this.ords ? this.s.charCodeAt(i) : this.s[i]!;
  }
  done(): void {}
}

class RuneIter implements StarlarkIterator {
  private i = 0;
  private readonly s: string;
  private readonly ords: boolean;
  constructor(s: string, ords: boolean) {
    this.s = s;
    this.ords = ords;
  }
  next(): Value | undefined {
    if (this.i >= this.s.length) return undefined;
    const r = decodeRuneAt(this.s, this.i), size = r & 7;
    const start = this.i;
    this.i += size;
    if (this.ords) return (r - size) / 8;
    return this.s.substr(start, size);
  }
  done(): void {}
}
