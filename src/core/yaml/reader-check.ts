/**
 * The characters go-yaml's reader refuses and when it finds them (go-yaml/yaml readerc.go at
 * v3.0.1 and at v2.4.0, the same code: `yaml_parser_update_buffer`). It allows tab, LF, CR,
 * printable ASCII, NEL, U+00A0–U+D7FF, U+E000–U+FFFD and the astral planes; anything else fails
 * the whole decode as `yaml: control characters are not allowed`, with no line. The reader
 * decodes its input 512 bytes at a time as the scanner first needs them, so a refused character
 * wins over a syntax error unless the scanner stops in an earlier 512-byte chunk.
 */
import { utf8Length } from './emit.ts';

export const CONTROL_CHARACTERS = 'control characters are not allowed';

/** yaml_parser_update_raw_buffer reads `input_raw_buffer_size` (512) bytes at a time. */
const READ_CHUNK = 512;

const REFUSED = /[^\t\n\r\x20-\x7e\x85\xa0-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u;

/** Whether `text` holds a character go-yaml's reader refuses (one scan; the common answer is no). */
export function hasRefusedCharacter(text: string): boolean {
  return REFUSED.test(text);
}

/** Index of the first character go-yaml's reader refuses in `text`, or -1. */
export function refusedCharacterIndex(text: string): number {
  const m = REFUSED.exec(text);
  return m ? m.index : -1;
}

/** UTF-8 byte offset of the first character go-yaml's reader refuses in `text`, or -1. */
export function refusedCharacterOffset(text: string): number {
  const i = refusedCharacterIndex(text);
  return i === -1 ? -1 : utf8Length(text.slice(0, i));
}

/**
 * Whether the reader meets the refused character at byte `refused` before the scanner stops at
 * byte `stop` (a syntax error's position, or the end of what a successful decode read).
 */
export function refusedBeforeStop(refused: number, stop: number): boolean {
  return refused >= 0 && Math.floor(refused / READ_CHUNK) <= Math.floor(stop / READ_CHUNK);
}
