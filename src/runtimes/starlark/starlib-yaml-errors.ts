/**
 * yaml.v2's wording of a syntax error (go-yaml/yaml yaml.go at v2.4.0, `parser.fail`) from the
 * KrmfnError our go-yaml v3-style parser throws (src/core/yaml/parser.ts): `yaml: line N: problem`
 * with N the 0-based line of the problem mark, plus one for scanner errors, and no line when that
 * is line 0 (v3 counts from the context mark instead). Composer errors (an unknown anchor) carry
 * no line. yaml.v2's scanner reports a simple key without its `:` where it reads the next token
 * (scannerc.go at v2.4.0, `yaml_simple_key_is_valid`): where the key's plain scan stopped, past
 * its continuation lines; our parser marks the key's own line. Characters yaml.v2's reader refuses (controls)
 * fail as `yaml: control characters are not allowed`, found by the reader 512 bytes at a time
 * (src/core/yaml/reader-check.ts, which v3's reader and so our parser share).
 */
import type { KrmfnError } from '../../core/errors.ts';
import { normalizeNewlines } from '../../core/yaml/read.ts';
import { utf8Length } from '../../core/yaml/emit.ts';
import {
  CONTROL_CHARACTERS as CONTROL_PROBLEM,
  refusedBeforeStop,
  refusedCharacterOffset,
} from '../../core/yaml/reader-check.ts';
import { GO_YAML_PARSER_PROBLEMS } from '../../core/yaml/parser-problems.ts';

const V3_PREFIX = /^yaml: (?:line \d+: )?/;

/** yaml.v2 v2.4.0's parser problems are v3.0.1's (src/core/yaml/parser-problems.ts); all others are the scanner's. */
const V2_PARSER_PROBLEMS = GO_YAML_PARSER_PROBLEMS;
const NO_LINE = /^unknown anchor /;
const MISSING_COLON = "could not find expected ':'";

/**
 * 0-based line where yaml.v2's plain scan of the key on 1-based `line` stops (scannerc.go at v2.4.0,
 * `yaml_parser_scan_plain_scalar`): that line when a comment ends it; else it continues over blank
 * lines and lines indented past the key, and stops at the first other line, at a comment, or at a
 * line holding `: ` or ` #`; at the end of the input, its last line (the line after it for a key
 * on that line).
 */
function keyScanEndLine(text: string, line: number): number {
  const lines = text.split('\n');
  const row = line - 1;
  const keyLine = lines[row] ?? '';
  if (/[ \t]#/.test(keyLine)) return row;
  const indent = keyLine.length - keyLine.trimStart().length;
  for (let r = row + 1; r < lines.length; r++) {
    const l = lines[r];
    const body = l.trimStart();
    if (body === '') continue;
    if (l.length - body.length <= indent || body[0] === '#' || /:(?: |$)|[ \t]#/.test(body)) return r;
  }
  // A key on the input's last line is still valid where its scan ends; the scanner then forces a
  // line break at the end of the input (`yaml_parser_fetch_stream_end`) and finds it stale there.
  return lines.length - 1 > row ? lines.length - 1 : lines.length;
}

export function yamlV2ErrorText(e: KrmfnError, source: string): string {
  if (e.code !== 'yaml-syntax' || e.line === undefined)
    return e.message.startsWith('yaml:') ? e.message : `yaml: ${e.message}`;
  const problem = e.message.replace(V3_PREFIX, '');
  if (NO_LINE.test(problem)) return `yaml: ${problem}`;
  const problemLine = problem === MISSING_COLON ? keyScanEndLine(normalizeNewlines(source), e.line) : e.line - 1;
  const line = problemLine === 0 ? 0 : problemLine + (V2_PARSER_PROBLEMS.has(problem) ? 0 : 1);
  return line === 0 ? `yaml: ${problem}` : `yaml: line ${line}: ${problem}`;
}

/** yaml.v2's reader refuses the same characters as v3's (src/core/yaml/reader-check.ts). */
export const CONTROL_CHARACTERS = `yaml: ${CONTROL_PROBLEM}`;
export { refusedCharacterOffset };

/** Byte offset (approximate under CRLF) of a parse error's line and column in `text`. */
function errorOffset(text: string, e: KrmfnError): number {
  const lines = normalizeNewlines(text).split('\n');
  const row = (e.line ?? 1) - 1;
  let n = 0;
  for (let r = 0; r < row && r < lines.length; r++) n += utf8Length(lines[r]) + 1;
  return n + utf8Length((lines[row] ?? '').slice(0, (e.column ?? 1) - 1));
}

/**
 * Whether yaml.v2 reports the refused character at byte `refused` rather than the syntax error `e`,
 * or (`e` undefined) rather than a parse that read `end` bytes: its reader checks a 512-byte chunk
 * when the scanner first needs it, so a refused character wins unless the scanner stops in an
 * earlier chunk.
 */
export function refusedCharacterFirst(text: string, refused: number, e: KrmfnError | undefined, end: number): boolean {
  const stop = e === undefined ? end : e.line === undefined ? 0 : errorOffset(text, e);
  return refusedBeforeStop(refused, stop);
}
