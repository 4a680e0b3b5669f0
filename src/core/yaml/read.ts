/**
 * kyaml's reading rules for a package file (docs/yaml-output.md, "Reading a file", "Whitespace and indentation"): newline
 * normalisation, splitting into document pieces, and the per-piece sequence style. Pure string
 * work, no YAML parsing.
 */
import { KrmfnError } from '../errors.ts';

export type SeqIndent = 'compact' | 'wide';

export interface Piece {
  /** The piece's text, `\n` line breaks, as go-yaml would decode it (one document). */
  text: string;
  /** 1-based line of the piece's first line in the normalised file. */
  firstLine: number;
}

/** BOM skipped, CRLF → LF, then lone CR → LF (go-yaml reads a lone CR as a line break). */
export function normalizeNewlines(text: string): string {
  let t = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (t.includes('\r')) t = t.replace(/\r\n/g, '\n').replace(/\r/g, '\n');
  return t;
}

const SEPARATOR = /\n---[^\n]*\n/g;

/**
 * Splits normalised text at every `\n---...\n` line (kyaml's splitDocuments). What follows `---`
 * must be blank or a comment, else 'yaml-syntax' "invalid document separator". Each piece but the
 * last gets its final `\n` back.
 */
export function splitPieces(text: string, file?: string): Piece[] {
  const pieces: Piece[] = [];
  let start = 0;
  let line = 1;
  SEPARATOR.lastIndex = 0;
  for (let m = SEPARATOR.exec(text); m; m = SEPARATOR.exec(text)) {
    const sep = m[0].trim();
    const rest = sep.slice(3).trim();
    if (rest !== '' && rest[0] !== '#') {
      throw new KrmfnError({
        code: 'yaml-syntax',
        message: `invalid document separator: ${sep}`,
        ...(file ? { file } : {}),
        line: line + countNewlines(text, start, m.index) + 1,
      });
    }
    const piece = text.slice(start, m.index + 1);
    pieces.push({ text: piece, firstLine: line });
    line += countNewlines(piece, 0, piece.length) + 1;
    // Matches do not overlap (Go's FindAllString): the next search starts after this one.
    start = m.index + m[0].length;
  }
  pieces.push({ text: text.slice(start), firstLine: line });
  return pieces;
}

function countNewlines(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = s.indexOf('\n', from); i !== -1 && i < to; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

/** kyaml's sequence-indent detection over a piece's raw text (§3.2). */
export function detectSeqIndent(text: string): SeqIndent {
  let from = 0;
  for (;;) {
    const hit = text.indexOf('- ', from);
    if (hit === -1) return 'compact';
    const lineStart = text.lastIndexOf('\n', hit - 1) + 1;
    const nextLine = text.indexOf('\n', hit);
    from = nextLine === -1 ? text.length : nextLine + 1;
    // Only the line's first "- " counts, and only spaces may precede it.
    const before = text.slice(lineStart, hit);
    if (before.trim() !== '' || text.indexOf('- ', lineStart) !== hit) continue;
    const key = keyLineAbove(text, lineStart);
    if (key === null) continue;
    const trimmed = key.replace(/^ +| +$/g, '');
    if (trimmed === '' || !trimmed.endsWith(':') || trimmed.indexOf(':') !== trimmed.length - 1) continue;
    const keyIndent = key.length - key.replace(/^ +/, '').length;
    const dashIndent = before.length;
    if (dashIndent === keyIndent) return 'compact';
    if (dashIndent - keyIndent === 2) return 'wide';
  }
}

/** The nearest line above `lineStart` that is not a comment line, its `#` tail cut; null if none. */
function keyLineAbove(text: string, lineStart: number): string | null {
  let end = lineStart - 1;
  while (end >= 0) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    const line = text.slice(start, end);
    if (!/^ *#/.test(line)) {
      const hash = line.indexOf('#');
      return hash === -1 ? line : line.slice(0, hash);
    }
    end = start - 1;
  }
  return null;
}
