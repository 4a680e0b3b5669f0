/**
 * The Starlark scanner: host source text in, tokens out (one at a time, for the LL(1) parser).
 *
 * - `\r\n` and lone `\r` read as `\n`; NEWLINE/INDENT/OUTDENT are produced outside brackets only;
 *   blank and comment-only lines are skipped; tabs advance indentation to the next multiple of 8.
 * - Positions are 1-based; columns count code points.
 * - String and bytes literals are decoded into binary strings (one char per byte, UTF-8 for text).
 * - The first lexical error throws `StarlarkSyntaxError` (code `starlark-syntax`).
 */
import { StarlarkSyntaxError } from '../errors.ts';
import { KEYWORDS, RESERVED } from './tokens.ts';
import type { Pos, Token, TokenKind } from './tokens.ts';
import { encodeCodePoint, hostToBinary } from './utf8.ts';

const LETTER = /\p{L}/u;

/** Keywords scan as themselves, reserved words as `illegal`: one lookup per identifier. */
const WORDS: ReadonlyMap<string, TokenKind> = new Map<string, TokenKind>([
  ...[...KEYWORDS].map((w): [string, TokenKind] => [w, w as TokenKind]),
  ...[...RESERVED].map((w): [string, TokenKind] => [w, 'illegal']),
]);
const ASCII = /^[\x00-\x7f]*$/;

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
}
function isIdentStartAscii(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
}

/** Normalises line endings: `\r\n` and `\r` become `\n`. */
export function normalizeNewlines(src: string): string {
  return src.indexOf('\r') < 0 ? src : src.replace(/\r\n?/g, '\n');
}

export class Scanner {
  readonly file: string;
  private readonly src: string;
  private i = 0;
  private cline = 1;
  private ccol = 1;
  private depth = 0;
  private readonly indents: number[] = [0];
  private dents = 0;
  private lineStart = true;

  // The current token (mutable: the parser reads it in place, so scanning allocates nothing per token).
  kind: TokenKind = 'eof';
  /** Start position. */
  line = 1;
  col = 1;
  /** Position just after the token. */
  endLine = 1;
  endCol = 1;
  /** Identifier name (binary), number text, or punctuation/keyword text; '' for strings. */
  raw = '';
  value: Token['value'] = null;

  constructor(file: string, src: string) {
    this.file = file;
    this.src = normalizeNewlines(src);
  }

  /** Throws the scanner/parser error at `pos`. */
  error(pos: Pos | number, message: string): never {
    const p = typeof pos === 'number' ? unpack(pos) : pos;
    throw new StarlarkSyntaxError('starlark-syntax', [{ file: this.file, line: p.line, col: p.col, message }]);
  }

  /** Current scan position (just after the last token read). */
  get pos(): Pos {
    return { line: this.cline, col: this.ccol };
  }

  private peek(): number {
    return this.i < this.src.length ? this.src.charCodeAt(this.i) : -1;
  }

  private peekAt(k: number): number {
    const j = this.i + k;
    return j < this.src.length ? this.src.charCodeAt(j) : -1;
  }

  /** Consumes one code point and returns it (-1 at EOF). */
  private read(): number {
    if (this.i >= this.src.length) return -1;
    const c = this.src.codePointAt(this.i)!;
    this.i += c > 0xffff ? 2 : 1;
    if (c === 10) {
      this.cline++;
      this.ccol = 1;
    } else {
      this.ccol++;
    }
    return c;
  }

  /** Consumes one char known to be ASCII and not a newline (the hot path of `read`). */
  private bump(): void {
    this.i++;
    this.ccol++;
  }

  /** Sets the current token; its start was recorded by `mark`, its end is the scan position. */
  private tok(kind: TokenKind, raw: string, value: Token['value'] = null): void {
    this.kind = kind;
    this.endLine = this.cline;
    this.endCol = this.ccol;
    this.raw = raw;
    this.value = value;
  }

  /** Records the scan position as the start of the token about to be set. */
  private mark(): void {
    this.line = this.cline;
    this.col = this.ccol < 65536 ? this.ccol : 65535;
  }

  /** The current scan position, encoded. */
  private here(): number {
    return this.cline * 65536 + (this.ccol < 65536 ? this.ccol : 65535);
  }

  /** Reads the next token as an object (for tools and tests; the parser uses `advance`). */
  next(): Token {
    this.advance();
    return {
      kind: this.kind,
      pos: { line: this.line, col: this.col },
      end: { line: this.endLine, col: this.endCol },
      raw: this.raw,
      value: this.value,
    };
  }

  /** Advances to the next token. */
  advance(): void {
    for (;;) {
      let blank = false;
      const savedLineStart = this.lineStart;
      if (this.lineStart) {
        this.lineStart = false;
        let col = 0;
        let c = this.peek();
        for (;;) {
          if (c === 32) {
            col++;
            this.bump();
          } else if (c === 9) {
            col += 8 - (col % 8);
            this.bump();
          } else break;
          c = this.peek();
        }
        if (c === 35 || c === 10 || (c === -1 && col > 0)) blank = true;
        if (!blank && this.depth === 0) {
          const cur = this.indents[this.indents.length - 1];
          if (col > cur) {
            this.dents++;
            this.indents.push(col);
          } else if (col < cur) {
            while (this.indents.length > 0 && col < this.indents[this.indents.length - 1]) {
              this.dents--;
              this.indents.pop();
            }
            if (col !== this.indents[this.indents.length - 1]) {
              this.error(this.pos, 'unindent does not match any outer indentation level');
            }
          }
        }
      }

      if (this.dents !== 0) {
        this.mark();
        if (this.dents < 0) {
          this.dents++;
          return this.tok('outdent', '');
        }
        this.dents--;
        return this.tok('indent', '');
      }

      const src = this.src;
      const n = src.length;
      let i = this.i;
      let c = i < n ? src.charCodeAt(i) : -1;
      while (c === 32 || c === 9) {
        i++;
        c = i < n ? src.charCodeAt(i) : -1;
      }
      this.ccol += i - this.i;
      if (c === 35) {
        // A comment: columns count code points (a surrogate pair is one).
        let col = this.ccol;
        while (c !== -1 && c !== 10) {
          if (c >= 0xd800 && c <= 0xdbff && i + 1 < n && (src.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
          col++;
          i++;
          c = i < n ? src.charCodeAt(i) : -1;
        }
        this.ccol = col;
      }
      this.i = i;
      if (c === 10) {
        this.lineStart = true;
        if (this.depth > 0 || blank) {
          this.read();
          continue;
        }
        this.mark();
        this.read();
        return this.tok('newline', '\n');
      }
      if (c === -1) {
        if (this.indents.length > 1) {
          if (savedLineStart) {
            this.dents = 1 - this.indents.length;
            this.indents.length = 1;
            continue;
          }
          this.lineStart = true;
          this.mark();
          return this.tok('newline', '\n');
        }
        this.mark();
        return this.tok('eof', '');
      }
      if (c === 92) {
        this.read();
        if (this.peek() !== 10) this.error(this.pos, 'stray backslash in program');
        this.read();
        continue;
      }
      return this.scanToken(c);
    }
  }

  private scanToken(c: number): void {
    this.mark();
    const start = this.here();
    const startIdx = this.i;
    if (c === 44) {
      this.bump();
      return this.tok(',', ',');
    }
    if (c === 34 || c === 39) return this.scanString(start, false, false);
    if (isIdentStartAscii(c) || (c >= 0x80 && LETTER.test(String.fromCodePoint(this.src.codePointAt(this.i)!)))) {
      // string prefixes r, b, rb, br
      const c1 = this.peekAt(1);
      const c2 = this.peekAt(2);
      if ((c === 114 || c === 98) && (c1 === 34 || c1 === 39)) {
        this.read();
        return this.scanString(start, c === 114, c === 98);
      }
      if (((c === 114 && c1 === 98) || (c === 98 && c1 === 114)) && (c2 === 34 || c2 === 39)) {
        this.read();
        this.read();
        return this.scanString(start, true, true);
      }
      // ASCII fast path: identifiers never contain newlines, so only the column moves.
      const src = this.src;
      let j = this.i + 1;
      let ascii = c < 0x80;
      for (; j < src.length; j++) {
        const d = src.charCodeAt(j);
        if (isIdentStartAscii(d) || isDigit(d)) continue;
        if (d >= 0x80) ascii = false;
        break;
      }
      if (ascii) {
        this.ccol += j - this.i;
        this.i = j;
      } else {
        for (;;) {
          const d = this.peek();
          if (isIdentStartAscii(d) || isDigit(d)) {
            this.read();
          } else if (d >= 0x80 && LETTER.test(String.fromCodePoint(this.src.codePointAt(this.i)!))) {
            this.read();
          } else break;
        }
      }
      const raw = this.src.slice(startIdx, this.i);
      if (c >= 97 && c <= 121 && raw.length <= 8) {
        const word = WORDS.get(raw);
        if (word !== undefined) return this.tok(word, raw);
      }
      return this.tok('ident', ascii ? raw : hostToBinary(raw));
    }
    switch (c) {
      case 91:
      case 40:
      case 123: {
        this.depth++;
        this.bump();
        const k = c === 91 ? '[' : c === 40 ? '(' : '{';
        return this.tok(k, k);
      }
      case 93:
      case 41:
      case 125: {
        if (this.depth === 0) this.error(this.pos, `unexpected '${String.fromCharCode(c)}'`);
        this.depth--;
        this.bump();
        const k = c === 93 ? ']' : c === 41 ? ')' : '}';
        return this.tok(k, k);
      }
    }
    if (isDigit(c) || c === 46) return this.scanNumber(start, startIdx, c);
    if (c >= 0x80) {
      const cp = this.src.codePointAt(startIdx)!;
      return this.error(start, `unexpected input character ${quoteRune(cp)}`);
    }
    this.bump();
    const n = this.peek();
    switch (c) {
      case 61:
        return n === 61 ? this.two('==') : this.tok('=', '=');
      case 33:
        if (n === 61) return this.two('!=');
        return this.error(start, "unexpected input character '!'");
      case 43:
        return n === 61 ? this.two('+=') : this.tok('+', '+');
      case 45:
        return n === 61 ? this.two('-=') : this.tok('-', '-');
      case 37:
        return n === 61 ? this.two('%=') : this.tok('%', '%');
      case 38:
        return n === 61 ? this.two('&=') : this.tok('&', '&');
      case 124:
        return n === 61 ? this.two('|=') : this.tok('|', '|');
      case 94:
        return n === 61 ? this.two('^=') : this.tok('^', '^');
      case 126:
        return this.tok('~', '~');
      case 58:
        return this.tok(':', ':');
      case 59:
        return this.tok(';', ';');
      case 60:
        if (n === 61) return this.two('<=');
        if (n === 60) {
          this.bump();
          return this.peek() === 61 ? this.two('<<=') : this.tok('<<', '<<');
        }
        return this.tok('<', '<');
      case 62:
        if (n === 61) return this.two('>=');
        if (n === 62) {
          this.bump();
          return this.peek() === 61 ? this.two('>>=') : this.tok('>>', '>>');
        }
        return this.tok('>', '>');
      case 47:
        if (n === 61) return this.two('/=');
        if (n === 47) {
          this.bump();
          return this.peek() === 61 ? this.two('//=') : this.tok('//', '//');
        }
        return this.tok('/', '/');
      case 42:
        if (n === 42) return this.two('**');
        if (n === 61) return this.two('*=');
        return this.tok('*', '*');
    }
    const cp = this.src.codePointAt(startIdx)!;
    return this.error(start, `unexpected input character ${quoteRune(cp)}`);
  }

  /** Consumes the second char of a two-char operator. */
  private two(k: TokenKind): void {
    this.bump();
    return this.tok(k, k);
  }

  /** Consumes a run of decimal digits. */
  private skipDigits(): void {
    const src = this.src;
    let j = this.i;
    while (j < src.length && isDigit(src.charCodeAt(j))) j++;
    this.ccol += j - this.i;
    this.i = j;
  }

  private scanNumber(start: number, startIdx: number, c: number): void {
    let fraction = false;
    let exponent = false;
    if (c === 46) {
      this.read();
      if (!isDigit(this.peek())) return this.tok('.', '.');
      fraction = true;
    } else if (c === 48) {
      this.read();
      const d = this.peek();
      if (d === 46) {
        fraction = true;
      } else if (d === 120 || d === 88 || d === 111 || d === 79 || d === 98 || d === 66) {
        const base = d === 120 || d === 88 ? 16 : d === 111 || d === 79 ? 8 : 2;
        this.read();
        const ok = (x: number): boolean =>
          base === 16 ? isHex(x) : base === 8 ? x >= 48 && x <= 55 : x === 48 || x === 49;
        if (!ok(this.peek())) {
          this.error(
            base === 16 ? start : this.pos,
            `invalid ${base === 16 ? 'hex' : base === 8 ? 'octal' : 'binary'} literal`,
          );
        }
        while (ok(this.peek())) this.read();
        if (isDigit(this.peek()) || isIdentStartAscii(this.peek())) this.error(start, 'invalid int literal');
        const raw = this.src.slice(startIdx, this.i);
        return this.tok('int', raw, parseIntLiteral(raw.slice(2), base));
      } else {
        let allZeros = true;
        let octal = true;
        while (isDigit(this.peek())) {
          const x = this.peek();
          if (x !== 48) allZeros = false;
          if (x > 55) octal = false;
          this.read();
        }
        const e = this.peek();
        if (e === 46) fraction = true;
        else if (e === 101 || e === 69) exponent = true;
        else if (!allZeros) {
          const raw = this.src.slice(startIdx, this.i);
          if (octal) this.error(start, `obsolete form of octal literal; use 0o${raw.slice(1)}`);
          this.error(start, 'invalid int literal');
        }
      }
    } else {
      this.skipDigits();
      const e = this.peek();
      if (e === 46) fraction = true;
      else if (e === 101 || e === 69) exponent = true;
    }
    if (fraction) {
      this.read();
      this.skipDigits();
      const e = this.peek();
      if (e === 101 || e === 69) exponent = true;
    }
    if (exponent) {
      this.read();
      const s = this.peek();
      if (s === 43 || s === 45) {
        this.read();
        if (!isDigit(this.peek())) this.error(this.pos, 'invalid float literal');
      }
      if (!isDigit(this.peek()) && !(s === 43 || s === 45)) this.error(this.pos, 'invalid float literal');
      this.skipDigits();
    }
    const raw = this.src.slice(startIdx, this.i);
    if (fraction || exponent) {
      const f = Number(raw);
      if (!Number.isFinite(f)) this.error(start, 'invalid float literal');
      return this.tok('float', raw, f);
    }
    return this.tok('int', raw, parseIntLiteral(raw, 10));
  }

  /** Scans a string/bytes literal whose opening quote is the next char. */
  private scanString(start: number, raw: boolean, bytes: boolean): void {
    const quote = this.peek();
    const triple = this.peekAt(1) === quote && this.peekAt(2) === quote;
    this.read();
    if (triple) {
      this.read();
      this.read();
    }
    const bodyStart = this.i;
    let bodyEnd: number;
    if (!triple) {
      // Fast path: a one-line ASCII literal without escapes.
      const src = this.src;
      let j = bodyStart;
      for (; j < src.length; j++) {
        const d = src.charCodeAt(j);
        if (d === quote || d === 92 || d === 10 || d >= 0x80) break;
      }
      if (j < src.length && src.charCodeAt(j) === quote) {
        this.ccol += j + 1 - this.i;
        this.i = j + 1;
        return this.tok(bytes ? 'bytes' : 'string', '', src.slice(bodyStart, j));
      }
    }
    if (!triple) {
      for (;;) {
        const c = this.read();
        if (c === -1) this.error(start, 'unexpected EOF in string');
        if (c === quote) {
          bodyEnd = this.i - 1;
          break;
        }
        if (c === 10) this.error(start, 'unexpected newline in string');
        if (c === 92) {
          if (this.peek() === -1) this.error(start, 'unexpected EOF in string');
          this.read();
        }
      }
    } else {
      let quotes = 0;
      for (;;) {
        const c = this.read();
        if (c === -1) this.error(start, 'unexpected EOF in string');
        if (c === quote) {
          quotes++;
          if (quotes === 3) {
            bodyEnd = this.i - 3;
            break;
          }
        } else {
          quotes = 0;
        }
        if (c === 92) {
          if (this.peek() === -1) this.error(start, 'unexpected EOF in string');
          this.read();
        }
      }
    }
    const body = this.src.slice(bodyStart, bodyEnd);
    const value = decodeLiteralBody(body, raw, bytes, (msg) => this.error(start, msg));
    return this.tok(bytes ? 'bytes' : 'string', '', value);
  }
}

function unpack(p: number): Pos {
  return { line: Math.floor(p / 65536), col: p % 65536 };
}

function parseIntLiteral(digits: string, base: number): number | bigint {
  const n = parseInt(digits, base);
  if (Number.isSafeInteger(n)) return n;
  const prefix = base === 16 ? '0x' : base === 8 ? '0o' : base === 2 ? '0b' : '';
  const b = BigInt(prefix + digits);
  return b >= BigInt(Number.MIN_SAFE_INTEGER) && b <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(b) : b;
}

function quoteRune(cp: number): string {
  if (cp === 39) return "'\\''";
  if (cp >= 32 && cp < 127) return "'" + String.fromCharCode(cp) + "'";
  return "'\\u" + cp.toString(16).padStart(4, '0') + "'";
}

function hex2(n: number): string {
  return n.toString(16).padStart(2, '0');
}

/**
 * Decodes the body of a literal (between the quotes) into a binary string. `fail` reports an
 * error (it throws).
 */
export function decodeLiteralBody(body: string, raw: boolean, bytes: boolean, fail: (msg: string) => never): string {
  if (body.indexOf('\\') < 0 && ASCII.test(body)) return body;
  let out = '';
  let i = 0;
  const n = body.length;
  while (i < n) {
    const c = body.charCodeAt(i);
    if (c !== 92) {
      if (c < 0x80) {
        out += body[i];
        i++;
      } else {
        let cp = body.codePointAt(i)!;
        i += cp > 0xffff ? 2 : 1;
        if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
        out += encodeCodePoint(cp);
      }
      continue;
    }
    // backslash
    if (i + 1 >= n) fail('truncated escape sequence \\');
    const e = body[i + 1];
    if (raw) {
      // Raw strings keep the backslash; it only stops a quote from closing the literal.
      out += '\\';
      i++;
      continue;
    }
    switch (e) {
      case '\n':
        i += 2;
        continue;
      case 'a':
        out += '\x07';
        i += 2;
        continue;
      case 'b':
        out += '\b';
        i += 2;
        continue;
      case 'f':
        out += '\f';
        i += 2;
        continue;
      case 'n':
        out += '\n';
        i += 2;
        continue;
      case 'r':
        out += '\r';
        i += 2;
        continue;
      case 't':
        out += '\t';
        i += 2;
        continue;
      case 'v':
        out += '\v';
        i += 2;
        continue;
      case '\\':
        out += '\\';
        i += 2;
        continue;
      case "'":
        out += "'";
        i += 2;
        continue;
      case '"':
        out += '"';
        i += 2;
        continue;
      case '0':
      case '1':
      case '2':
      case '3':
      case '4':
      case '5':
      case '6':
      case '7': {
        let j = i + 1;
        let v = 0;
        while (j < n && j < i + 4 && body.charCodeAt(j) >= 48 && body.charCodeAt(j) <= 55) {
          v = v * 8 + (body.charCodeAt(j) - 48);
          j++;
        }
        if (v > 255) fail(`invalid escape sequence ${body.slice(i, j)}`);
        if (!bytes && v >= 128) {
          fail(
            `non-ASCII octal escape ${body.slice(i, j)} (use \\u${v.toString(16).toUpperCase().padStart(4, '0')} for the UTF-8 encoding of U+${v.toString(16).toUpperCase().padStart(4, '0')})`,
          );
        }
        out += String.fromCharCode(v);
        i = j;
        continue;
      }
      case 'x': {
        // google/starlark-go syntax/quote.go unquote: fewer than 2 characters left is
        // "truncated" (quoting the rest of the literal), 2 non-hex ones are "invalid".
        const h = body.slice(i + 2, i + 4);
        if (h.length < 2) fail(`truncated escape sequence ${body.slice(i)}`);
        if (!isHex(h.charCodeAt(0)) || !isHex(h.charCodeAt(1))) fail(`invalid escape sequence ${body.slice(i, i + 4)}`);
        const v = parseInt(h, 16);
        if (!bytes && v >= 128) {
          fail(
            `non-ASCII hex escape \\x${hex2(v)} (use \\u${v.toString(16).toUpperCase().padStart(4, '0')} for the UTF-8 encoding of U+${v.toString(16).toUpperCase().padStart(4, '0')})`,
          );
        }
        out += String.fromCharCode(v);
        i += 4;
        continue;
      }
      case 'u':
      case 'U': {
        const len = e === 'u' ? 4 : 8;
        const h = body.slice(i + 2, i + 2 + len);
        if (h.length < len) fail(`truncated escape sequence ${body.slice(i)}`);
        for (let k = 0; k < len; k++) {
          if (!isHex(h.charCodeAt(k))) fail(`invalid escape sequence ${body.slice(i, i + 2 + len)}`);
        }
        const v = parseInt(h, 16);
        if (v > 0x10ffff) fail(`code point out of range: ${body.slice(i, i + 2 + len)} (max \\U0010ffff)`);
        if (v >= 0xd800 && v < 0xe000) fail(`invalid Unicode code point U+${v.toString(16).toUpperCase()}`);
        out += encodeCodePoint(v);
        i += 2 + len;
        continue;
      }
      default: {
        const cp = body.codePointAt(i + 1)!;
        fail(`invalid escape sequence \\${String.fromCodePoint(cp)}`);
      }
    }
  }
  return out;
}
