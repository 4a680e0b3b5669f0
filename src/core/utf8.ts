/**
 * UTF-8 validation worded as go-yaml's reader (gopkg.in/yaml.v3 readerc.go,
 * `yaml_parser_update_buffer`): kpt rejects a package file with invalid UTF-8 with one of these
 * texts instead of rewriting it. A byte-order mark is accepted (and dropped when decoding).
 */
const fatal = new TextDecoder('utf-8', { fatal: true });

/** The text of `bytes`, or go-yaml's complaint about the first invalid sequence. */
export function decodeUtf8Strict(bytes: Uint8Array): { text: string } | { problem: string } {
  try {
    return { text: fatal.decode(bytes) };
  } catch (e) {
    // TypeError: invalid UTF-8. Anything else (a RangeError for a string too long) is not ours.
    if (!(e instanceof TypeError)) throw e;
    return { problem: firstUtf8Problem(bytes) ?? 'invalid UTF-8' };
  }
}

/** Bytes in the UTF-8 sequence a lead octet starts (go-yaml's `width`), 0 for an invalid lead. */
export function utf8SequenceWidth(lead: number): number {
  if ((lead & 0x80) === 0) return 1;
  if ((lead & 0xe0) === 0xc0) return 2;
  if ((lead & 0xf0) === 0xe0) return 3;
  if ((lead & 0xf8) === 0xf0) return 4;
  return 0;
}

/** go-yaml's message for the first invalid UTF-8 sequence in `b`, or undefined when valid. */
export function firstUtf8Problem(b: Uint8Array): string | undefined {
  for (let i = 0; i < b.length;) {
    const lead = b[i];
    const width = utf8SequenceWidth(lead);
    if (width === 0) return 'invalid leading UTF-8 octet';
    if (i + width > b.length) return 'incomplete UTF-8 octet sequence';
    let value = width === 1 ? lead & 0x7f : width === 2 ? lead & 0x1f : width === 3 ? lead & 0x0f : lead & 0x07;
    for (let k = 1; k < width; k++) {
      const trail = b[i + k];
      if ((trail & 0xc0) !== 0x80) return 'invalid trailing UTF-8 octet';
      value = (value << 6) + (trail & 0x3f);
    }
    const shortest =
      width === 1 ||
      (width === 2 && value >= 0x80) ||
      (width === 3 && value >= 0x800) ||
      (width === 4 && value >= 0x10000);
    if (!shortest) return 'invalid length of a UTF-8 sequence';
    if ((value >= 0xd800 && value <= 0xdfff) || value > 0x10ffff) return 'invalid Unicode character';
    i += width;
  }
  return undefined;
}
