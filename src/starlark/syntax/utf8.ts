/**
 * Host string <-> Starlark binary string (one char per UTF-8 byte) for the front end. The value
 * layer has its own helpers; this copy keeps syntax/ free of upward imports.
 */

/** Appends the UTF-8 bytes of code point `cp` to `out` as binary chars. */
export function encodeCodePoint(cp: number): string {
  if (cp < 0x80) return String.fromCharCode(cp);
  if (cp < 0x800) return String.fromCharCode(0xc0 | (cp >> 6), 0x80 | (cp & 0x3f));
  if (cp < 0x10000) {
    return String.fromCharCode(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
  }
  return String.fromCharCode(
    0xf0 | (cp >> 18),
    0x80 | ((cp >> 12) & 0x3f),
    0x80 | ((cp >> 6) & 0x3f),
    0x80 | (cp & 0x3f),
  );
}

/** UTF-8-encodes a host (UTF-16) string into a binary string. Lone surrogates become U+FFFD. */
export function hostToBinary(s: string): string {
  // Fast path: pure ASCII is identical in both forms.
  let ascii = true;
  for (let i = 0; i < s.length; i++)
    if (s.charCodeAt(i) >= 0x80) {
      ascii = false;
      break;
    }
  if (ascii) return s;
  let out = '';
  for (const ch of s) {
    let cp = ch.codePointAt(0)!;
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
    out += encodeCodePoint(cp);
  }
  return out;
}

/** Decodes a binary string as UTF-8 (invalid sequences become U+FFFD). */
export function binaryToHost(s: string): string {
  let ascii = true;
  for (let i = 0; i < s.length; i++)
    if (s.charCodeAt(i) >= 0x80) {
      ascii = false;
      break;
    }
  if (ascii) return s;
  const bytes = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) bytes[i] = s.charCodeAt(i);
  return new TextDecoder().decode(bytes);
}
