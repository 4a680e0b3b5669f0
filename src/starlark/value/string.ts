/**
 * Byte-string helpers. A Starlark string is a JS "binary string": one char per byte (0..255),
 * UTF-8 by convention. These functions convert at the host boundary, decode code points, quote
 * for repr, and hash exactly as starlark-go does.
 */

const ASCII = /^[\x00-\x7f]*$/;
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: false });

/** Host (UTF-16) string → binary string of its UTF-8 bytes. Lone surrogates become U+FFFD. */
export function fromHostString(s: string): string {
  if (ASCII.test(s)) return s;
  return bytesToBinary(encoder.encode(s));
}

/** Binary string → host string, invalid UTF-8 decoded as U+FFFD. */
export function toHostString(s: string): string {
  if (ASCII.test(s)) return s;
  return decoder.decode(binaryToBytes(s));
}

export function bytesToBinary(b: Uint8Array): string {
  let out = '';
  for (let i = 0; i < b.length; i += 8192) {
    out += String.fromCharCode.apply(null, b.subarray(i, i + 8192) as unknown as number[]);
  }
  return out;
}

export function binaryToBytes(s: string): Uint8Array {
  const b = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) b[i] = s.charCodeAt(i);
  return b;
}

export const isAscii = (s: string): boolean => ASCII.test(s);

/**
 * Decodes the UTF-8 sequence at byte offset i. Returns code point * 8 + size (size 1..4) packed in
 * one number to stay allocation-free; invalid or truncated sequences give U+FFFD with size 1.
 */
export function decodeRuneAt(s: string, i: number): number {
  const c0 = s.charCodeAt(i);
  if (c0 < 0x80) return c0 * 8 + 1;
  const n = s.length;
  const bad = 0xfffd * 8 + 1;
  const cont = (j: number): number => {
    if (j >= n) return -1;
    const c = s.charCodeAt(j);
    return (c & 0xc0) === 0x80 ? c & 0x3f : -1;
  };
  if (c0 >= 0xc2 && c0 <= 0xdf) {
    const c1 = cont(i + 1);
    return c1 < 0 ? bad : (((c0 & 0x1f) << 6) | c1) * 8 + 2;
  }
  if (c0 >= 0xe0 && c0 <= 0xef) {
    const c1 = cont(i + 1),
      c2 = cont(i + 2);
    if (c1 < 0 || c2 < 0) return bad;
    const cp = ((c0 & 0x0f) << 12) | (c1 << 6) | c2;
    if (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff)) return bad;
    return cp * 8 + 3;
  }
  if (c0 >= 0xf0 && c0 <= 0xf4) {
    const c1 = cont(i + 1),
      c2 = cont(i + 2),
      c3 = cont(i + 3);
    if (c1 < 0 || c2 < 0 || c3 < 0) return bad;
    const cp = ((c0 & 0x07) << 18) | (c1 << 12) | (c2 << 6) | c3;
    if (cp < 0x10000 || cp > 0x10ffff) return bad;
    return cp * 8 + 4;
  }
  return bad;
}

/** True if the byte at i starts a valid UTF-8 sequence (not replaced by U+FFFD). */
function validAt(s: string, i: number): boolean {
  const r = decodeRuneAt(s, i);
  return (
    r !== 0xfffd * 8 + 1 || (s.charCodeAt(i) === 0xef && s.charCodeAt(i + 1) === 0xbf && s.charCodeAt(i + 2) === 0xbd)
  );
}

/** UTF-8 encoding of one code point as a binary string. */
export function encodeRune(cp: number): string {
  if (cp < 0x80) return String.fromCharCode(cp);
  if (cp < 0x800) return String.fromCharCode(0xc0 | (cp >> 6), 0x80 | (cp & 0x3f));
  if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
  if (cp < 0x10000) return String.fromCharCode(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
  return String.fromCharCode(
    0xf0 | (cp >> 18),
    0x80 | ((cp >> 12) & 0x3f),
    0x80 | ((cp >> 6) & 0x3f),
    0x80 | (cp & 0x3f),
  );
}

/** Number of code points (invalid bytes count one each). */
export function runeCount(s: string): number {
  if (ASCII.test(s)) return s.length;
  let n = 0;
  for (let i = 0; i < s.length; i += decodeRuneAt(s, i) & 7) n++;
  return n;
}

/** Replaces invalid UTF-8 with U+FFFD's encoding (what `str(bytes)` and `bytes(str)` do). */
export function toValidUtf8(s: string): string {
  if (ASCII.test(s)) return s;
  let out = '';
  for (let i = 0; i < s.length;) {
    const r = decodeRuneAt(s, i),
      size = r & 7;
    if (size === 1 && s.charCodeAt(i) >= 0x80) out += '\xef\xbf\xbd';
    else out += s.substr(i, size);
    i += size;
  }
  return out;
}

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;
const HEX = '0123456789abcdef';
const hex2 = (c: number): string => HEX[c >> 4] + HEX[c & 15];

/** Appends the Go-style double-quoted form of binary string `s` (with `b` prefix for bytes). */
export function quote(s: string, isBytes = false): string {
  let out = isBytes ? 'b"' : '"';
  let start = 0;
  const n = s.length;
  for (let i = 0; i < n;) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f && c !== 34 && c !== 92) {
      i++;
      continue;
    }
    out += s.slice(start, i);
    if (c < 0x80) {
      switch (c) {
        case 34:
          out += '\\"';
          break;
        case 92:
          out += '\\\\';
          break;
        case 7:
          out += '\\a';
          break;
        case 8:
          out += '\\b';
          break;
        case 12:
          out += '\\f';
          break;
        case 10:
          out += '\\n';
          break;
        case 13:
          out += '\\r';
          break;
        case 9:
          out += '\\t';
          break;
        case 11:
          out += '\\v';
          break;
        default:
          out += '\\x' + hex2(c);
      }
      i++;
    } else {
      const r = decodeRuneAt(s, i),
        size = r & 7,
        cp = (r - size) / 8;
      if (!validAt(s, i)) out += '\\x' + hex2(c);
      else if (PRINTABLE.test(String.fromCodePoint(cp))) out += s.substr(i, size);
      else if (cp < 0x10000) out += '\\u' + cp.toString(16).padStart(4, '0');
      else out += '\\U' + cp.toString(16).padStart(8, '0');
      i += size;
    }
    start = i;
  }
  return out + s.slice(start) + '"';
}

/** starlark-go string hash: Java `String.hashCode` over the UTF-16 form, signed 32-bit. */
export function hashString(s: string): number {
  const u = toHostString(s);
  let h = 0;
  for (let i = 0; i < u.length; i++) h = (Math.imul(h, 31) + u.charCodeAt(i)) | 0;
  return h;
}

/** 32-bit FNV-1a over the bytes, unsigned (starlark-go `hash(bytes)`). */
export function hashBytes(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
