/**
 * Reading a package file as kyaml does (docs/yaml-output.md, "Reading a file", "Whitespace and indentation"): normalise line
 * breaks, split into document pieces, decode each piece as one go-yaml-style document, drop empty,
 * comment-only and null documents, and detect each document's sequence style.
 */
import { KrmfnError } from '../errors.ts';
import { withLimits, type Limits } from '../limits.ts';
import { parsePiece } from './parser.ts';
import type { YNode } from './node.ts';
import { detectSeqIndent, normalizeNewlines, splitPieces, type Piece, type SeqIndent } from './read.ts';
import { CONTROL_CHARACTERS, hasRefusedCharacter, refusedBeforeStop, refusedCharacterIndex } from './reader-check.ts';
import { utf8Length } from './emit.ts';

export type { SeqIndent } from './read.ts';

/** Parallel arrays: `docs[i]` (kind 'document') was written with `seqIndent[i]`. */
export interface ParsedFile {
  docs: YNode[];
  seqIndent: SeqIndent[];
}

export interface ParseOptions {
  /** File name for error positions. */
  file?: string;
  limits?: Partial<Limits>;
}

/**
 * kyaml's reading rules (§1.1): BOM, CRLF→LF, lone CR, split on `\n---.*\n`, drop empty/comment-only/null
 * docs, seqindent detection per piece (§3.2), tag resolution (§4.5). Throws KrmfnError with code
 * 'yaml-syntax' (file, 1-based line, column, a go-yaml-like message), 'yaml-alias-limit', 'yaml-depth-limit', 'yaml-size-limit' (input size, document count).
 */
export function parseYamlFile(text: string, opts: ParseOptions = {}): ParsedFile {
  const limits = withLimits(opts.limits);
  if (text.length > limits.maxInputBytes) {
    throw new KrmfnError({
      code: 'yaml-size-limit',
      message: `YAML input of ${text.length} characters exceeds the limit of ${limits.maxInputBytes} bytes`,
      ...(opts.file ? { file: opts.file } : {}),
    });
  }
  const normal = normalizeNewlines(text);
  const out: ParsedFile = { docs: [], seqIndent: [] };
  const interned = new Map<string, string>();
  const refusedIn = hasRefusedCharacter(normal);
  for (const piece of splitPieces(normal, opts.file)) {
    // A blank piece is no document; a tab in it is a token go-yaml cannot start (the parser says so).
    if (piece.text.trim() === '' && !piece.text.includes('\t')) continue;

    let doc: YNode | null;
    try {
      doc = parseBreaking({
        text: nelAsBreak(piece.text),
        firstLine: piece.firstLine,
        file: opts.file,
        limits,
        interned,
      });
    } catch (e) {
      if (refusedIn && e instanceof KrmfnError && e.code === 'yaml-syntax')
        checkRefused(piece, errorByte(piece, e), opts.file);
      // A nesting limit set beyond what the JS stack holds still ends as a depth error.
      if (e instanceof RangeError) {
        throw new KrmfnError({
          code: 'yaml-depth-limit',
          message: 'YAML nesting too deep',
          ...(opts.file ? { file: opts.file } : {}),
          line: piece.firstLine,
        });
      }
      throw e;
    }
    if (refusedIn) checkRefused(piece, utf8Length(piece.text), opts.file);
    if (!doc) continue;
    if (out.docs.length >= limits.maxDocuments) {
      throw new KrmfnError({
        code: 'yaml-size-limit',
        message: `YAML input holds more than ${limits.maxDocuments} documents`,
        ...(opts.file ? { file: opts.file } : {}),
        line: piece.firstLine,
      });
    }
    out.docs.push(doc);
    out.seqIndent.push(detectSeqIndent(piece.text));
  }
  return out;
}

const LS_PS = /[\u2028\u2029]/;
const LS_PS_ALL = /[\u2028\u2029]/g;

/**
 * One piece as go-yaml reads it where LS (U+2028) and PS (U+2029) break lines (go-yaml v3.0.1
 * yamlh.go `is_break`) yet stay in quoted, plain and block scalars (scannerc.go `read_line`): what
 * the piece means and whether it is refused come from reading them as line feeds; the values come
 * from reading them as characters when that gives the same nodes and comments (the characters
 * then sit only inside scalars), else from the line-feed reading, whose scalars hold `\n` where
 * go-yaml keeps the character (docs/yaml-output.md, "Syntax errors").
 */
function parseBreaking(input: Parameters<typeof parsePiece>[0]): YNode | null {
  if (!LS_PS.test(input.text)) return parsePiece(input);
  const asBreaks = parsePiece({ ...input, text: input.text.replace(LS_PS_ALL, '\n') });
  let kept: YNode | null;
  try {
    kept = parsePiece(input);
  } catch {
    return asBreaks;
  }
  return kept && asBreaks && sameShape(kept, asBreaks) ? kept : asBreaks;
}

/** Same kinds, sizes, comments and scalar values, but for scalars that hold LS or PS in `kept`. */
function sameShape(kept: YNode, asBreaks: YNode): boolean {
  const stack: [YNode, YNode][] = [[kept, asBreaks]];
  while (stack.length) {
    const [a, b] = stack.pop()!;
    if (a.kind !== b.kind || a.content.length !== b.content.length) return false;
    if (a.headComment !== b.headComment || a.lineComment !== b.lineComment || a.footComment !== b.footComment)
      return false;
    if (a.kind === 'scalar' && a.value !== b.value && !LS_PS.test(a.value)) return false;
    for (let i = 0; i < a.content.length; i++) stack.push([a.content[i], b.content[i]]);
  }
  return true;
}

/**
 * go-yaml's reader turns NEL (U+0085) into a line feed wherever it reads a line break, and its
 * scanner breaks lines there (go-yaml v3.0.1 yamlh.go `is_break`, scannerc.go `read_line`), after
 * kyaml has split the file at `\n---` lines: in a piece, a NEL is a `\n` in every context.
 * (U+2028 and U+2029 break lines too but stay in values: parseBreaking.)
 */
function nelAsBreak(text: string): string {
  return text.includes('\x85') ? text.replaceAll('\x85', '\n') : text;
}

/** Byte offset in the piece of a syntax error's position (its file line and column). */
function errorByte(piece: Piece, e: KrmfnError): number {
  if (e.line === undefined) return 0;
  let start = 0;
  for (let l = piece.firstLine; l < e.line; l++) {
    const nl = piece.text.indexOf('\n', start);
    if (nl === -1) break;
    start = nl + 1;
  }
  return utf8Length(piece.text.slice(0, start + (e.column ?? 1) - 1));
}

/** Throws go-yaml's reader error when its reader meets a refused character before byte `stop`. */
function checkRefused(piece: Piece, stop: number, file: string | undefined): void {
  const index = refusedCharacterIndex(piece.text);
  if (index === -1 || !refusedBeforeStop(utf8Length(piece.text.slice(0, index)), stop)) return;
  const lines = piece.text.slice(0, index).split('\n');
  throw new KrmfnError({
    code: 'yaml-syntax',
    message: `yaml: ${CONTROL_CHARACTERS}`,
    ...(file ? { file } : {}),
    line: piece.firstLine + lines.length - 1,
    column: lines[lines.length - 1].length + 1,
  });
}
