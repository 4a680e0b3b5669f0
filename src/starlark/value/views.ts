/**
 * Views returned by `s.elems()`, `s.elem_ords()`, `s.codepoints()`, `s.codepoint_ords()` and
 * `b.elems()`: iterable, unhashable, printed as the call that made them (`"abc".elems()`). The
 * byte views are also indexable with a length; the code point views are iterable only.
 */
import type { Value } from './contract.ts';
import type { StarlarkIterator } from './capabilities.ts';
import { type Bytes } from './bytes.ts';
import { decodeRuneAt, quote } from './string.ts';

export type ViewKind =
  'string.elems' | 'string.elem_ords' | 'string.codepoints' | 'string.codepoint_ords' | 'bytes.elems';

/**
 * `type()` of a view: google/starlark-go HEAD names the ords views after their element views
 * (`type("a".codepoint_ords()) == "string.codepoints"`, string.star).
 */
const TYPE_OF: Readonly<Record<ViewKind, string>> = {
  'string.elems': 'string.elems',
  'string.elem_ords': 'string.elems',
  'string.codepoints': 'string.codepoints',
  'string.codepoint_ords': 'string.codepoints',
  'bytes.elems': 'bytes.elems',
};

abstract class ViewBase {
  /** `unhashable: <type>`, as google/starlark-go's stringElems/stringCodepoints/bytesIterable. */
  readonly unhashable: string;
  readonly starlarkType: string;
  readonly kind: ViewKind;
  readonly s: string;
  constructor(kind: ViewKind, s: string) {
    this.kind = kind;
    this.starlarkType = TYPE_OF[kind];
    this.unhashable = `unhashable: ${this.starlarkType}`;
    this.s = s;
  }
  repr(out: string[]): void {
    const isBytes = this.kind === 'bytes.elems';
    out.push(quote(this.s, isBytes), '.', this.kind.slice(isBytes ? 6 : 7), '()');
  }
  abstract iterate(): StarlarkIterator;
}

/** `s.elems()` (1-byte strings), `s.elem_ords()` and `b.elems()` (ints 0..255). */
export class ByteView extends ViewBase {
  private readonly ords: boolean;
  constructor(kind: 'string.elems' | 'string.elem_ords' | 'bytes.elems', s: string) {
    super(kind, s);
    this.ords = kind !== 'string.elems';
  }
  iterate(): StarlarkIterator {
    return new ByteIter(this.s, this.ords);
  }
  len(): number {
    return this.s.length;
  }
  index(i: number): Value {
    return this.ords ? this.s.charCodeAt(i) : this.s[i];
  }
}

/** `s.codepoints()` (1-code-point strings) and `s.codepoint_ords()` (ints; invalid bytes → U+FFFD). */
export class RuneView extends ViewBase {
  private readonly ords: boolean;
  constructor(kind: 'string.codepoints' | 'string.codepoint_ords', s: string) {
    super(kind, s);
    this.ords = kind === 'string.codepoint_ords';
  }
  iterate(): StarlarkIterator {
    return new RuneIter(this.s, this.ords);
  }
}

export const bytesView = (b: Bytes): ByteView => new ByteView('bytes.elems', b.data);

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
    return this.ords ? this.s.charCodeAt(i) : this.s[i];
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
    const r = decodeRuneAt(this.s, this.i),
      size = r & 7;
    const start = this.i;
    this.i += size;
    if (this.ords) return (r - size) / 8;
    // An invalid byte yields U+FFFD as a string too (google/starlark-go HEAD string.star).
    if (size === 1 && this.s.charCodeAt(start) >= 0x80) return '\xef\xbf\xbd';
    return this.s.substr(start, size);
  }
  done(): void {}
}
