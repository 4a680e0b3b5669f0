/**
 * Unquoting Go string literals, as used by `### "regexp"` expectations (docs/starlark.md, "Test files"):
 * interpreted `"…"` literals with Go escapes, and raw `` `…` `` literals. Returns null when the
 * text is not exactly one literal. The result is a host (UTF-16) string.
 */
const SIMPLE_ESCAPES: Record<string, string> = {
  a: '\x07',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  '"': '"',
};

export function unquoteGoString(text: string): string | null {
  if (text.length < 2) return null;
  const q = text[0];
  if (q === '`') {
    if (text[text.length - 1] !== '`') return null;
    const body = text.slice(1, -1);
    return body.includes('`') ? null : body.replace(/\r/g, '');
  }
  if (q !== '"' || text[text.length - 1] !== '"') return null;
  const body = text.slice(1, -1);
  // Octal and \x escapes produce bytes; collect them and decode UTF-8 runs at the end.
  const bytes: number[] = [];
  const encoder = new TextEncoder();
  const pushText = (s: string): void => {
    for (const b of encoder.encode(s)) bytes.push(b);
  };
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === '"' || c === '\n') return null;
    if (c !== '\\') {
      const cp = body.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      pushText(ch);
      i += ch.length - 1;
      continue;
    }
    const e = body[++i];
    if (e === undefined) return null;
    if (e in SIMPLE_ESCAPES) {
      pushText(SIMPLE_ESCAPES[e]);
    } else if (e === 'x') {
      const hex = body.slice(i + 1, i + 3);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) return null;
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else if (e >= '0' && e <= '7') {
      const oct = body.slice(i, i + 3);
      if (!/^[0-7]{3}$/.test(oct)) return null;
      const v = parseInt(oct, 8);
      if (v > 255) return null;
      bytes.push(v);
      i += 2;
    } else if (e === 'u' || e === 'U') {
      const n = e === 'u' ? 4 : 8;
      const hex = body.slice(i + 1, i + 1 + n);
      if (hex.length !== n || !/^[0-9a-fA-F]+$/.test(hex)) return null;
      const cp = parseInt(hex, 16);
      if (cp > 0x10ffff || (cp >= 0xd800 && cp < 0xe000)) return null;
      pushText(String.fromCodePoint(cp));
      i += n;
    } else {
      return null;
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}
