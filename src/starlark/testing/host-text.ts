/**
 * Error messages and reprs come out of the interpreter as binary strings (UTF-8 bytes, one char
 * each); expectations in test files are host strings. `toHost` decodes a binary string and leaves
 * strings that are already host text (any char above 0xFF) alone.
 */
import { toHostString } from '../value/string.ts';

const WIDE = /[^\x00-\xff]/;

export function toHost(s: string): string {
  return WIDE.test(s) ? s : toHostString(s);
}
