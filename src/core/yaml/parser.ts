/**
 * One kyaml document piece → a go-yaml-style `document` node (docs/yaml-output.md, "Reading a file").
 *
 * A one-pass recursive-descent reader over the piece text: no token objects, no intermediate tree,
 * positions are offsets. It follows go-yaml v3's grammar (go-yaml/yaml at v3.0.1, scannerc.go and
 * parserc.go): block mappings and sequences by indentation, flow collections, the four scalar
 * styles (scan.ts), anchors, tags and aliases. Scalars keep their style and value, tags and
 * anchors are attached as go-yaml does, same-line comments go to the node they follow (§5.2), and
 * own-line comments are gathered into runs that associate.ts distributes (§6.3). Nesting depth and
 * alias expansion are limited while reading. Throws KrmfnError with go-yaml's messages and lines.
 */
import { KrmfnError } from '../errors.ts';
import type { Limits } from '../limits.ts';
import { newNode, placedNode, type YNode } from './node.ts';
import { resolvePlainTag } from './resolve.ts';
import {
  assignLeadingRun,
  assignValueRun,
  assignRun,
  joinComment,
  type Entry,
  type Level,
  type RunContext,
  type RunLine,
} from './associate.ts';
import {
  foldPlain,
  isBlankZ,
  isDocumentMarker,
  isFlowIndicator,
  plainWordEnd,
  scanBlockBody,
  scanBlockHeader,
  scanDouble,
  scanPlain,
  scanSingle,
  shortTag,
  type BlockHeader,
  type BlockScan,
  type PlainScan,
} from './scan.ts';
import { namedHandle, scanAnchor, scanDirective, scanTag } from './scan-props.ts';
import { scanAhead } from './lookahead.ts';
import { GO_YAML_PARSER_PROBLEMS } from './parser-problems.ts';

export interface PieceInput {
  text: string;
  /** 1-based line of the piece in its file. */
  firstLine: number;
  file: string | undefined;
  limits: Pick<Limits, 'maxAliases' | 'maxDepth'>;
  /** Short plain scalars already seen in the file, so repeated keys and values share one string. */
  interned?: Map<string, string>;
}

/** Slices shorter than this are copies in V8 (longer ones share the source), so they are interned. */
const INTERN_BELOW = 13;
const INTERN_MAX_ENTRIES = 50_000;

interface Props {
  anchor: string;
  tag: string;
  /** 1-based local line of the first property. */
  line: number;
  /** Offset of the first property. */
  offset: number;
  /** A tag was read (`tag` stays empty for `!`). */
  hasTag: boolean;
  /**
   * Offset of a property go-yaml's parser gives to no node, or -1: a node takes one anchor and one
   * tag, in either order (parserc.go at v3.0.1, yaml_parser_parse_node); at a second of either the
   * node is complete and the collection around it finds a property where it wants its next entry.
   */
  dup: number;
}

/** `h` then `p` as the properties of one node. */
function joinProps(h: Props, p: Props): Props {
  const clash = (h.anchor !== '' && (p.anchor !== '' || h.hasTag)) || (h.hasTag && p.hasTag);
  return {
    anchor: p.anchor || h.anchor,
    tag: p.tag || h.tag,
    hasTag: h.hasTag || p.hasTag,
    line: h.line,
    offset: h.offset,
    dup: h.dup >= 0 ? h.dup : clash ? p.offset : p.dup,
  };
}

/** Where a comment on the current content line goes (kept as plain fields: no closure per node). */
const T_NONE = 0;
const T_NODE_LINE = 1;
const T_FLOW_HEAD = 2;
const T_FIRST_KEY_HEAD = 3;
/**
 * After an explicit key's `?` or after properties ending a line: go-yaml gives the comment to the
 * next scalar with a value as its line comment; a flow collection starting first drops it.
 */
const T_NEXT_SCALAR = 4;

const SP = 0x20;
const TAB = 0x09;
const NL = 0x0a;
const HASH = 0x23;
const DASH = 0x2d;
const QMARK = 0x3f;
const COLON = 0x3a;
const COMMA = 0x2c;
const AMP = 0x26;
const BANG = 0x21;
const STAR = 0x2a;

// go-yaml's parser errors are reported one line up (its own off-by-one); composer errors carry no
// line; everything else is a scanner error reported on its own line. The parser's problems are
// those of parserc.go at v3.0.1 (`yaml_parser_set_parser_error*`).
const PARSER_PROBLEMS = GO_YAML_PARSER_PROBLEMS;
const NO_LINE_ERRORS = /^unknown anchor/;
/** The token a parser error is about, and the two go-yaml's scanner holds after it. */
const LOOKAHEAD = 3;
const MISSING_COLON = "could not find expected ':'";

/** Builds the document of one piece, or returns null for an empty, comment-only or null document. */
export function parsePiece(input: PieceInput): YNode | null {
  return new PieceParser(input).parse();
}

class PieceParser {
  private readonly src: string;
  private readonly len: number;
  private pos = 0;
  private readonly lineStarts: number[] = [0];
  private readonly input: PieceInput;
  private readonly anchors = new Map<string, YNode>();
  private readonly anchorWeight = new Map<YNode, number>();
  private expansions = 0;
  /** The last block plain scalar: its start, end and the column its continuation lines need. */
  private plainStart = 0;
  private plainEnd = -1;
  private plainMinCol = 0;
  /** The column of the innermost block collection being read (go-yaml's `parser.indent`), -1 at the top. */
  private blockIndent = -1;
  /**
   * What go-yaml's parser says when the innermost collection being read finds something other
   * than its next entry, and where that collection starts ('' at the document's root).
   */
  private contextMessage = '';
  private contextStart = 0;
  /** Handles declared by `%TAG` directives (`!` and `!!` need none). */
  private readonly tagHandles = new Set<string>();

  private lastContentLine = 0;
  private lastTokenLine = 0;
  /**
   * The last content was a block plain scalar with nothing after it on its line: go-yaml's plain
   * scanner then consumes the line break (scannerc.go at v3.0.1, yaml_parser_scan_plain_scalar), so
   * its next scan starts on a later line and a foot line exists even after the document's first line.
   */
  private plainTookBreak = false;
  private runPlainTookBreak = false;
  /** A comment after `?` waiting for the next scalar (T_NEXT_SCALAR). */
  private nextScalarLine = '';
  /**
   * A head comment waiting for the next scalar with a value (an empty explicit key's, or the
   * comments above an empty sequence item): go-yaml's parser holds it until an event takes
   * comments (parserc.go at v3.0.1, yaml_parser_set_event_comments; empty scalars take none), so a
   * block mapping's end drops it and the document's end makes it the document foot.
   */
  private nextScalarHead = '';
  /** A foot comment held the same way (feet before an empty item): a mapping's end gives it to its last key. */
  private nextScalarFoot = '';
  private run: RunLine[] = [];
  private runHasText = false;
  private runContentLine = 0;
  private p: Entry | null = null;
  private ltKind = T_NONE;
  private ltLine = 0;
  private ltNode: YNode | null = null;
  private ltEntry: Entry | null = null;
  private flowDepth = 0;
  private flowHead = '';
  private props: Props | null = null;
  /** Properties on a line above the current ones (`!!str` / `&a k: v`): the collection's. */
  private held: Props | null = null;
  private readonly ctx: RunContext;
  private readonly plain: PlainScan = { end: 0, multiline: false };
  private readonly quoted = { value: '' };
  private readonly block: BlockScan = { value: '', contentEnd: 0, hasContent: false };
  private readonly header: BlockHeader = { chomp: 0, increment: 0, end: 0 };
  /** go-yaml's context mark for errors found inside a scalar: the scalar's start. */
  private scalarStart = 0;
  private readonly failAt = (offset: number, message: string, context?: number): never =>
    this.fail(offset, message, 'yaml-syntax', context ?? this.scalarStart);

  constructor(input: PieceInput) {
    this.input = input;
    this.src = input.text;
    this.len = this.src.length;
    for (let i = this.src.indexOf('\n'); i !== -1; i = this.src.indexOf('\n', i + 1)) this.lineStarts.push(i + 1);
    this.ctx = { doc: newNode('document'), docFirstLine: 1, docFoot: [], endColumn: 0, endMarker: false, endHead: [] };
  }

  /** kyaml decodes one document per piece: whatever follows a `...` is not read. */
  parse(): YNode | null {
    const doc = this.ctx.doc;
    const src = this.src;
    this.skip();
    // The first document of a stream is implicit: a `...` cannot open it (parserc.go at v3.0.1,
    // yaml_parser_parse_document_start, then yaml_parser_parse_node).
    if (this.atDocumentEnd() && src.charCodeAt(this.pos) === 0x2e)
      this.fail(this.pos, 'did not find expected node content');
    if (this.pos < this.len && src.charCodeAt(this.pos) === 0x25 && this.atLineStart(this.pos)) this.directives();
    let started = false;
    if (
      this.pos < this.len &&
      this.atLineStart(this.pos) &&
      src.startsWith('---', this.pos) &&
      isDocumentMarker(src, this.pos)
    ) {
      const line = this.lineOf(this.pos);
      this.content(line);
      doc.line = line + this.input.firstLine - 1;
      this.pos += 3;
      started = true;
      // The `---` leaves no simple key allowed for a token on its own line.
      this.skipBlanks();
      if (this.pos < this.len && src.charCodeAt(this.pos) !== NL && src.charCodeAt(this.pos) !== HASH) {
        this.noSimpleKeyToken();
      }
    }
    this.skipProps();
    if (this.pos < this.len && !this.atDocumentEnd()) {
      const start = this.pos;
      const root = this.blockNode(1, null, null, -1);
      doc.content.push(root);
      if (!started) this.place(doc, start);
      // go-yaml ends the document after its root node; kyaml decodes one document per piece, so
      // whatever follows a complete root (`[a] b`, `"x" y`) is never parsed (checked with kpt),
      // but the scanner has read ahead: its errors there still fail the decode.
      this.skip();
      scanAhead(src, this.pos, LOOKAHEAD, this.flowDepth, this.blockIndent, this.failAt);
    } else if (this.props) {
      doc.content.push(this.emptyValue(this.props.offset));
    }
    let endBelow = '';
    let endCommented = false;
    const endMarker = this.atDocumentEnd() && src.charCodeAt(this.pos) === 0x2e;
    if (endMarker) {
      const endLine = this.lineOf(this.pos);
      this.content(endLine);
      this.pos += 3;
      endCommented = /^[ \t]+#/.test(src.slice(this.pos, this.lineStarts[endLine] ?? this.len));
      this.skip();
      endBelow = this.takeBlockBelow(endLine);
      this.ctx.endMarker = true;
    }
    const root = doc.content[0];
    if (!root || (root.kind === 'scalar' && root.tag === '!!null' && !root.anchor)) return null;
    // The document's end takes a held comment as its foot (parserc.go at v3.0.1, DOCUMENT-END):
    // its head only when it has no foot.
    const trailingFoot = this.trailingScalarFoot();
    const held = this.nextScalarFoot || (trailingFoot ? '' : this.nextScalarHead);
    if (held) this.ctx.docFoot.push(held);
    this.nextScalarHead = this.nextScalarFoot = '';
    this.ctx.trailingFoot = trailingFoot;
    if (!endMarker) this.ctx.endColumn = lastLineColumns(src);
    this.endRun(null);
    if (trailingFoot) this.ctx.docFoot.push(trailingFoot);
    // DOCUMENT-END takes the heads left above the marker as its foot only when it has no foot of
    // its own: the comment lines right below it (parserc.go at v3.0.1, parse_document_end).
    if (endMarker) {
      const above = this.ctx.endHead.join('\n');
      const endFoot = endCommented ? above : endBelow || above;
      if (endFoot) this.ctx.docFoot.push(endFoot);
    }
    if (this.ctx.docFoot.length) doc.footComment = joinComment(doc.footComment, this.ctx.docFoot.join('\n'));
    return doc;
  }

  /**
   * `%YAML` and `%TAG` lines, which must be followed by a `---` (parserc.go at v3.0.1,
   * yaml_parser_process_directives and yaml_parser_parse_document_start). In a kyaml piece the
   * `---` only survives at the end of the file without a line break after it; anything else fails
   * at the next token: the end of the stream (on the line after the last, as go-yaml forces a line
   * break there), or content, where a `key:` right on the next line fails first because the
   * directive's line break left the scanner with no simple key allowed.
   */
  private directives(): void {
    const src = this.src;
    let version = false;
    let end = this.pos;
    while (this.pos < this.len && src.charCodeAt(this.pos) === 0x25 && this.atLineStart(this.pos)) {
      const start = this.pos;
      const d = scanDirective(src, start, this.failAt);
      if (d.name === 'YAML') {
        if (version) this.fail(start, 'found duplicate %YAML directive');
        if (d.major !== 1 || d.minor !== 1) this.fail(start, 'found incompatible YAML document');
        version = true;
      } else {
        if (this.tagHandles.has(d.handle)) this.fail(start, 'found duplicate %TAG directive');
        this.tagHandles.add(d.handle);
      }
      this.pos = end = d.end;
      this.skip();
    }
    if (this.pos < this.len && src.startsWith('---', this.pos) && isDocumentMarker(src, this.pos)) return;
    const message = 'did not find expected <document start>';
    if (this.pos >= this.len) {
      // The stream end's mark: the line after the last one when the text does not end in a break.
      const last = this.lineOf(this.len) - 1;
      const n = src.charCodeAt(this.len - 1) === NL ? last : last + 1;
      throw new KrmfnError({
        code: 'yaml-syntax',
        message: n === 0 ? `yaml: ${message}` : `yaml: line ${n}: ${message}`,
        ...(this.input.file ? { file: this.input.file } : {}),
        line: this.input.firstLine + n,
        column: 1,
      });
    }
    if (end === this.pos && src.charCodeAt(end - 1) === NL) this.noSimpleKeyToken();
    this.fail(this.pos, message);
  }

  /**
   * The token right on the line after a directive, which consumed the line break: go-yaml's
   * scanner allows no simple key there (scannerc.go at v3.0.1, yaml_parser_fetch_directive), so
   * `- `, `? ` and a `:` after a first scalar fail as in any context where keys are not allowed.
   */
  private noSimpleKeyToken(): void {
    const src = this.src;
    const c = src.charCodeAt(this.pos);
    const blankNext = isBlankZ(src.charCodeAt(this.pos + 1));
    if (c === DASH && blankNext) this.fail(this.pos, 'block sequence entries are not allowed in this context');
    if (c === QMARK && blankNext) this.fail(this.pos, 'mapping keys are not allowed in this context');
    if (c === COLON && blankNext) this.fail(this.pos, 'mapping values are not allowed in this context');
    let after: number;
    if ('-?:,[]{}#&*!|>\'"%@`'.includes(src[this.pos]) && !('-?:'.includes(src[this.pos]) && !blankNext)) {
      after = this.keyAhead(this.pos, false);
    } else {
      scanPlain(src, this.pos, this.pos, 0, false, this.plain);
      after = this.plain.end;
      while (src.charCodeAt(after) === SP || src.charCodeAt(after) === TAB) after++;
      if (!(src.charCodeAt(after) === COLON && isBlankZ(src.charCodeAt(after + 1)))) after = -1;
    }
    if (after !== -1) this.fail(after, 'mapping values are not allowed in this context');
  }

  /**
   * The comment lines right below the `...` on `endLine`, which become the document foot in place
   * of the comments left above it (go-yaml's DOCUMENT-END event, checked with go-yaml v3 and kpt);
   * drops the rest.
   */
  private takeBlockBelow(endLine: number): string {
    const below = this.takeRunAfter(endLine);
    const block: string[] = [];
    for (const l of below) {
      if (l.blank || l.line !== endLine + 1 + block.length) break;
      block.push(l.text);
    }
    return block.join('\n');
  }

  /**
   * A scalar after a complete root is never parsed, but go-yaml's scanner reads on past it to see
   * whether it is a simple key (scannerc.go at v3.0.1, yaml_parser_fetch_more_tokens): the comment
   * lines right below its line are its foot, which the document's end takes. Returns their text.
   */
  private trailingScalarFoot(): string {
    const src = this.src;
    if (this.pos >= this.len || this.atDocumentEnd()) return '';
    const c = src.charCodeAt(this.pos);
    const next = src.charCodeAt(this.pos + 1);
    const indicator = '-?:,[]{}#&*!|>%@`'.includes(src[this.pos]);
    const plainIndicator = (c === DASH || c === QMARK || c === COLON) && !isBlankZ(next);
    if (indicator && !plainIndicator) return '';
    const lines: string[] = [];
    let eol = src.indexOf('\n', this.pos);
    // A plain scalar goes on over the non-empty lines below that hold no comment.
    const quoted = c === 0x27 || c === 0x22;
    while (!quoted && eol !== -1) {
      const below = src.slice(eol + 1, src.indexOf('\n', eol + 1) >>> 0).trim();
      if (below === '' || below.startsWith('#')) break;
      eol = src.indexOf('\n', eol + 1);
    }
    while (eol !== -1) {
      let i = eol + 1;
      while (src.charCodeAt(i) === SP || src.charCodeAt(i) === TAB) i++;
      if (src.charCodeAt(i) !== HASH) break;
      eol = src.indexOf('\n', i);
      lines.push(src.slice(i, eol === -1 ? this.len : eol));
    }
    // Content right below them (no blank line between) takes them instead (checked with go-yaml v3).
    if (eol !== -1 && src.slice(eol + 1, src.indexOf('\n', eol + 1) >>> 0).trim() !== '') return '';
    return lines.join('\n');
  }

  // ---- positions and errors -------------------------------------------------------------

  private lineHint = 0;

  /** 1-based line of an offset. Offsets arrive mostly in order, so the last answer is tried first. */
  private lineOf(offset: number): number {
    const ls = this.lineStarts;
    let h = this.lineHint;
    if (ls[h] <= offset) {
      const limit = Math.min(ls.length - 1, h + 4);
      while (h < limit && ls[h + 1] <= offset) h++;
      if (h === ls.length - 1 || ls[h + 1] > offset) {
        this.lineHint = h;
        return h + 1;
      }
    }
    let lo = 0;
    let hi = ls.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (ls[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    this.lineHint = lo;
    return lo + 1;
  }

  private colOf(offset: number): number {
    return offset - this.lineStarts[this.lineOf(offset) - 1];
  }

  private atLineStart(offset: number): boolean {
    return offset === 0 || this.src.charCodeAt(offset - 1) === NL;
  }

  /**
   * A `...` or `---` line, or in block context a `%` directive line: each ends the document (a
   * `---` inside a piece is only possible on its last line, with no line break after it).
   */
  private atDocumentEnd(): boolean {
    if (this.pos >= this.len || !this.atLineStart(this.pos)) return false;
    if (this.src.charCodeAt(this.pos) === 0x25) return this.flowDepth === 0;
    return isDocumentMarker(this.src, this.pos);
  }

  /**
   * Throws. `offset` is go-yaml's problem mark, `context` its context mark. go-yaml (yaml.go at
   * v3.0.1, `parser.fail`) words the message `yaml: line N: ...` with N the 0-based line of the
   * context mark, or of the problem mark when the context mark is on line 0, plus one for scanner
   * errors; no line at all when that is 0, and none for composer errors. kyaml decodes each piece
   * on its own, so lines count from the piece. The error's `line` field is the true 1-based line
   * of the problem in the file.
   */
  private fail(
    offset: number,
    message: string,
    code: 'yaml-syntax' | 'yaml-depth-limit' | 'yaml-alias-limit' = 'yaml-syntax',
    context = offset,
  ): never {
    const local = this.lineOf(offset);
    const line = local + this.input.firstLine - 1;
    const kind = PARSER_PROBLEMS.has(message) ? 'parser' : NO_LINE_ERRORS.test(message) ? 'none' : 'scanner';
    // The scanner has read the tokens after the parser's: their errors come first.
    if (kind !== 'scanner') scanAhead(this.src, offset, LOOKAHEAD, this.flowDepth, this.blockIndent, this.failAt);
    // A simple key is found missing its `:` once the scanner holds two tokens after it.
    else if (message === MISSING_COLON && context !== offset)
      scanAhead(this.src, context, LOOKAHEAD, this.flowDepth, this.blockIndent, this.failAt);
    const contextLine = this.lineOf(context) - 1;
    // The stream's end token sits on the line after the last when the text has no final break
    // (scannerc.go at v3.0.1, yaml_parser_fetch_stream_end).
    const problemLine =
      kind === 'parser' && offset >= this.len && this.src.charCodeAt(this.len - 1) !== NL ? local : local - 1;
    let n = contextLine !== 0 ? contextLine : problemLine;
    if (n !== 0 && kind === 'scanner') n++;
    const shown = kind === 'none' || n === 0 ? 'yaml: ' : `yaml: line ${n}: `;
    throw new KrmfnError({
      code,
      message: code === 'yaml-syntax' ? shown + message : message,
      ...(this.input.file ? { file: this.input.file } : {}),
      line,
      column: offset - this.lineStarts[local - 1] + 1,
    });
  }

  /** A new node at `offset`. */
  private node(kind: YNode['kind'], tag: string, style: YNode['style'], offset: number): YNode {
    const line = this.lineOf(offset);
    const node = placedNode(kind, tag, style, line + this.input.firstLine - 1, offset - this.lineStarts[line - 1] + 1);
    if (kind === 'scalar' && this.nextScalarLine) {
      node.lineComment = this.nextScalarLine;
      this.nextScalarLine = '';
    }
    if (kind === 'scalar' && this.nextScalarHead) {
      node.headComment = this.nextScalarHead;
      this.nextScalarHead = '';
    }
    if (kind === 'scalar' && this.nextScalarFoot) {
      node.footComment = this.nextScalarFoot;
      this.nextScalarFoot = '';
    }
    return node;
  }

  private place(node: YNode, offset: number): YNode {
    const line = this.lineOf(offset);
    node.line = line + this.input.firstLine - 1;
    node.column = offset - this.lineStarts[line - 1] + 1;
    return node;
  }

  private checkDepth(depth: number): void {
    if (depth > this.input.limits.maxDepth) {
      this.fail(this.pos, `YAML nesting deeper than ${this.input.limits.maxDepth} levels`, 'yaml-depth-limit');
    }
  }

  // ---- separation: blanks, comments, line breaks -------------------------------------------

  private content(line: number): void {
    this.lastContentLine = line;
    this.lastTokenLine = line;
    this.plainTookBreak = false;
  }

  /** Skips blanks, comments and line breaks, feeding comments and blank lines to the runs. */
  private skip(): void {
    const src = this.src;
    const len = this.len;
    let i = this.pos;
    while (i < len) {
      const c = src.charCodeAt(i);
      if (c === SP) i++;
      else if (c === NL) {
        this.newline(i);
        i++;
      } else if (c === HASH) {
        let e = src.indexOf('\n', i);
        if (e === -1) e = len;
        this.comment(i, e);
        i = e;
      } else if (c === TAB) {
        if (this.flowDepth === 0) this.checkTab(i);
        i++;
      } else break;
    }
    this.pos = i;
  }

  /** Blanks on the current line only. */
  private skipBlanks(): void {
    const src = this.src;
    let i = this.pos;
    for (let c = src.charCodeAt(i); c === SP || c === TAB; c = src.charCodeAt(++i));
    this.pos = i;
  }

  private newline(offset: number): void {
    const line = this.lineOf(offset);
    if (this.lastTokenLine < line && this.flowDepth === 0) this.pushRun({ blank: true, line, col: 0, text: '' });
    this.lastTokenLine = line;
  }

  private comment(start: number, end: number): void {
    const line = this.lineOf(start);
    // go-yaml keeps a comment's trailing blanks (scannerc.go at v3.0.1 reads to the line break).
    const text = this.src.slice(start, end);
    if (line === this.lastContentLine) {
      this.plainTookBreak = false;
      if (this.ltKind !== T_NONE && this.ltLine === line) this.lineComment(text);
    } else if (this.flowDepth > 0) {
      this.flowHead = joinComment(this.flowHead, text);
    } else {
      this.pushRun({ blank: false, line, col: start - this.lineStarts[line - 1], text });
    }
    this.lastTokenLine = line;
  }

  /**
   * A tab in block context where go-yaml's scanner allows a simple key (scannerc.go at v3.0.1,
   * yaml_parser_scan_to_next_token: it skips tabs only in flow context or where no simple key is
   * allowed): at the start of a line, or right after a `-` or `?` indicator, the tab is read as a
   * token and cannot start one, whatever follows it on the line. Right after a plain scalar's
   * line, the plain scan itself reads the blanks first and refuses a tab left of the scalar's
   * indentation (yaml_parser_scan_plain_scalar: "found a tab character that violates indentation").
   */
  private checkTab(offset: number): void {
    const src = this.src;
    let start = offset;
    while (start > 0 && (src.charCodeAt(start - 1) === SP || src.charCodeAt(start - 1) === TAB)) start--;
    // Once per run of blanks: only its first tab is checked.
    for (let k = start; k < offset; k++) if (src.charCodeAt(k) === TAB) return;
    if (!this.atLineStart(start)) {
      const prev = src.charCodeAt(start - 1);
      const indicator =
        (prev === DASH || prev === QMARK) &&
        (start - 1 === 0 || isBlankZ(src.charCodeAt(start - 2)) || this.atLineStart(start - 1));
      if (indicator) this.fail(offset, 'found character that cannot start any token');
      return;
    }
    if (this.plainEnd <= start && this.onlyBreaksBetween(this.plainEnd, start)) {
      if (this.colOf(offset) >= this.plainMinCol) return;
      this.fail(offset, 'found a tab character that violates indentation', 'yaml-syntax', this.plainStart);
    }
    this.fail(offset, 'found character that cannot start any token');
  }

  /** Whether `src[from, to)` holds only blanks and at least one line break. */
  private onlyBreaksBetween(from: number, to: number): boolean {
    let broke = false;
    for (let k = from; k < to; k++) {
      const c = this.src.charCodeAt(k);
      if (c === NL) broke = true;
      else if (c !== SP && c !== TAB) return false;
    }
    return broke;
  }

  /** A tab in the indentation of a multi-line plain scalar's continuation lines, left of `plainMinCol`. */
  private checkPlainTabs(start: number, end: number): void {
    const src = this.src;
    for (let nl = src.indexOf('\n', start); nl !== -1 && nl < end; nl = src.indexOf('\n', nl + 1)) {
      for (let k = nl + 1; k < end; k++) {
        const c = src.charCodeAt(k);
        if (c === TAB && k - nl - 1 < this.plainMinCol) {
          this.fail(k, 'found a tab character that violates indentation', 'yaml-syntax', start);
        }
        if (c !== SP && c !== TAB) break;
      }
    }
  }

  private pushRun(l: RunLine): void {
    if (this.run.length === 0) {
      this.runContentLine = this.lastContentLine;
      this.runPlainTookBreak = this.plainTookBreak;
    }
    if (!l.blank) this.runHasText = true;
    this.run.push(l);
  }

  /** A finished collection's content without the spare capacity its pushes left (most are small). */
  private trim(node: YNode): void {
    node.content = node.content.slice();
  }

  /** A one-line plain scalar's text; short ones come from the file's intern table. */
  private plainText(start: number, end: number): string {
    const text = this.src.slice(start, end);
    const table = this.input.interned;
    if (!table || end - start >= INTERN_BELOW) return text;
    const seen = table.get(text);
    if (seen !== undefined) return seen;
    if (table.size < INTERN_MAX_ENTRIES) table.set(text, text);
    return text;
  }

  /**
   * Whether the comments below the last scalar key of a mapping with no ':' are no foot of that
   * key: dedented below the mapping's column (go-yaml anchors them at their own start), or before
   * a `...` that ends a mapping at column 0 (its comment scan sees the marker and keeps them a
   * head: scannerc.go at v3.0.1, yaml_parser_scan_comments). They are read as the comments after
   * the key's entry then.
   */
  private keyCommentsFloat(between: readonly RunLine[], indent: number): boolean {
    const mapEnds = this.pos >= this.len || this.atDocumentEnd() || this.colOf(this.pos) < indent;
    if (!mapEnds) return false;
    const first = between.find((l) => !l.fromDash && !l.blank);
    return (first !== undefined && first.col < indent) || (indent === 0 && this.atDocumentEnd());
  }

  /**
   * Whether a key with no ':' has another key of its mapping after it: then go-yaml reads the
   * comments between them as any own-line comments between two entries (a head of the next key,
   * or above a blank line a foot of this one).
   */
  private keyContinued(indent: number): boolean {
    return this.pos < this.len && !this.atDocumentEnd() && this.colOf(this.pos) === indent;
  }

  /** Removes the pending run's lines below `line` (and those moved from a dash) and returns them. */
  private takeRunAfter(line: number): RunLine[] {
    if (!this.runHasText) return [];
    const kept: RunLine[] = [];
    const taken: RunLine[] = [];
    for (const l of this.run) (l.line <= line && !l.fromDash ? kept : taken).push(l);
    this.run = kept;
    this.runHasText = kept.some((l) => !l.blank);
    return taken;
  }

  /** Closes the pending run of own-line comments at boundary `n` (null: end of document). */
  private endRun(n: Entry | null): void {
    if (this.runHasText) {
      const run = this.run;
      if (!this.p || (n === null && this.ctx.doc.content.length === 0)) assignLeadingRun(run, n, this.ctx);
      // Comments before a value on its own line are its head. Comments between `key:` and its first
      // nested entry need no special case: the general rule makes them that entry's head unless
      // a column below the level or a blank line makes them feet (as go-yaml does).
      else if (n && n.kind === 'value') assignValueRun(run, n);
      else assignRun(run, this.p, this.runContentLine, this.runPlainTookBreak, n, this.ctx);
    }
    if (this.run.length) this.run = [];
    this.runHasText = false;
  }

  // ---- properties ---------------------------------------------------------------------------

  /** Reads one anchor or tag at `pos` into the pending properties. */
  private readProp(): void {
    const src = this.src;
    const start = this.pos;
    const i = src.charCodeAt(start) === AMP ? scanAnchor(src, start, this.failAt) : scanTag(src, start, this.failAt);
    const line = this.lineOf(start);
    this.content(line);
    if (this.props && this.props.line !== line && this.flowDepth === 0) {
      this.held = this.held ? joinProps(this.held, this.props) : this.props;
      this.props = null;
    }
    const pr = (this.props ??= { anchor: '', tag: '', line, offset: start, hasTag: false, dup: -1 });
    const isAnchor = src.charCodeAt(start) === AMP;
    if (pr.dup < 0 && ((pr.anchor !== '' && pr.hasTag) || (isAnchor ? pr.anchor !== '' : pr.hasTag))) pr.dup = start;
    if (isAnchor) {
      pr.anchor = src.slice(start + 1, i);
    } else {
      const text = src.slice(start, i);
      const handle = namedHandle(text);
      if (handle !== '' && !this.tagHandles.has(handle)) {
        this.fail(start, 'found undefined tag handle', 'yaml-syntax', pr.offset);
      }
      const tag = shortTag(text);
      if (tag !== '') pr.tag = tag;
      pr.hasTag = true;
    }
    this.pos = i;
  }

  /**
   * Skips separation and reads properties until content. A comment after them waits for the next
   * scalar (T_NEXT_SCALAR).
   */
  private skipProps(line = 0, level: Level | null = null): void {
    for (;;) {
      this.skip();
      const c = this.src.charCodeAt(this.pos);
      if (c !== AMP && c !== BANG) return;
      // Properties on a later line at or left of the collection's column start its next entry.
      if (level && this.lineOf(this.pos) !== line && this.colOf(this.pos) <= level.indent) return;
      this.readProp();
      if (this.flowDepth === 0) this.target(T_NEXT_SCALAR, this.lastContentLine, null, null);
    }
  }

  /** The pending properties (with any held from a line above) for the node about to be built. */
  private takeProps(): Props | null {
    const p = this.props;
    const h = this.held;
    this.props = null;
    this.held = null;
    if (!h) return p;
    if (!p) return h;
    return joinProps(h, p);
  }

  private applyProps(node: YNode, props: Props | null): void {
    if (!props) return;
    // At the document's root go-yaml ends the document there and reads the rest as the next one.
    if (props.dup >= 0 && this.contextMessage !== '')
      this.fail(props.dup, this.contextMessage, 'yaml-syntax', this.contextStart);
    if (props.anchor) node.anchor = props.anchor;
    if (props.tag) {
      node.tag = props.tag;
      node.tagged = true;
    }
  }

  private registerAnchor(node: YNode, weightBefore: number): void {
    if (!node.anchor) return;
    this.anchors.set(node.anchor, node);
    this.anchorWeight.set(node, this.expansions - weightBefore);
  }

  // ---- entries ---------------------------------------------------------------------------

  private entry(kind: Entry['kind'], offset: number, level: Level | null, key: YNode | null): Entry {
    const line = this.lineOf(offset);
    const e: Entry = {
      kind,
      line,
      col: offset - this.lineStarts[line - 1],
      level,
      key,
      item: null,
      hasValue: false,
      itemHead: '',
      firstKeyHead: '',
      firstKeyFoot: '',
    };
    if (level && level.count === 0 && level.owner && key) {
      const owner = level.owner;
      if (owner.firstKeyHead) key.headComment = joinComment(owner.firstKeyHead, key.headComment);
      if (owner.firstKeyFoot) key.footComment = owner.firstKeyFoot;
      owner.firstKeyHead = owner.firstKeyFoot = '';
    } else if (level && level.count === 0 && level.owner?.kind === 'dash' && kind === 'dash') {
      // `- # c` over a nested sequence: go-yaml makes the comment the head of its first item.
      const owner = level.owner;
      if (owner.firstKeyHead) e.itemHead = joinComment(owner.firstKeyHead, e.itemHead);
      owner.firstKeyHead = '';
    }
    this.endRun(e);
    if (kind !== 'value') this.p = e;
    if (level) {
      level.last = e;
      level.count++;
    }
    return e;
  }

  /** Applies comment text an entry was holding for its item once the item exists. */
  private settle(e: Entry, item: YNode): void {
    e.item = item;
    if (e.itemHead) item.headComment = joinComment(e.itemHead, item.headComment);
    if (item.kind !== 'mapping' || item.style === 'flow') {
      if (e.firstKeyHead) item.headComment = joinComment(item.headComment, e.firstKeyHead);
      if (e.firstKeyFoot && item.kind === 'scalar') item.footComment = e.firstKeyFoot;
    }
    e.itemHead = e.firstKeyHead = e.firstKeyFoot = '';
  }

  private target(kind: number, line: number, node: YNode | null, entry: Entry | null): void {
    this.ltKind = kind;
    this.ltLine = line;
    this.ltNode = node;
    this.ltEntry = entry;
  }

  private targetLine(node: YNode): void {
    this.target(T_NODE_LINE, this.lastContentLine, node, null);
  }

  /** A comment after content on the same line, given to the current line target. */
  private lineComment(text: string): void {
    const node = this.ltNode;
    const entry = this.ltEntry;
    switch (this.ltKind) {
      case T_NODE_LINE:
        if (node && !node.lineComment) node.lineComment = text;
        break;
      case T_FLOW_HEAD:
        this.flowHead = joinComment(this.flowHead, text);
        break;
      case T_FIRST_KEY_HEAD:
        if (entry) entry.firstKeyHead = joinComment(text, entry.firstKeyHead);
        break;
      case T_NEXT_SCALAR:
        if (!this.nextScalarLine) this.nextScalarLine = text;
        break;
    }
  }

  /** A value starting on its own line after pending comments gets a pseudo entry (their head). */
  private valueEntry(owner: Entry | null, isKey: boolean): Entry | null {
    if (isKey || !this.runHasText || this.flowDepth > 0 || !owner) return null;
    return this.entry('value', this.pos, null, null);
  }

  // ---- block structure ---------------------------------------------------------------------

  /**
   * A block node at `pos` (its properties, if any, pending). `parentIndent` is the column of the
   * enclosing block collection (-1 at the top).
   */
  private blockNode(depth: number, owner: Entry | null, ownerLevel: Level | null, parentIndent: number): YNode {
    this.checkDepth(depth);
    const src = this.src;
    const c = src.charCodeAt(this.pos);
    const next = src.charCodeAt(this.pos + 1);
    const line = this.lineOf(this.pos);
    // Reserved indicators start no token (scannerc.go at v3.0.1, yaml_parser_fetch_next_token).
    if (c === 0x25 || c === 0x40 || c === 0x60) this.fail(this.pos, 'found character that cannot start any token');
    // go-yaml's scanner allows no `- ` or `? ` right after an anchor or tag on the same line.
    if ((c === DASH || c === QMARK) && isBlankZ(next) && this.props && this.props.line === line) {
      this.fail(
        this.pos,
        c === DASH
          ? 'block sequence entries are not allowed in this context'
          : 'mapping keys are not allowed in this context',
      );
    }
    if (c === DASH && isBlankZ(next)) {
      if (owner && owner.kind === 'key' && line === owner.line) {
        this.fail(this.pos, 'block sequence entries are not allowed in this context');
      }
      return this.blockSeq(depth, owner, ownerLevel, this.takeProps());
    }
    if (c === QMARK && isBlankZ(next)) {
      if (owner && owner.kind === 'key' && line === owner.line) {
        this.fail(this.pos, 'mapping keys are not allowed in this context');
      }
      return this.blockMap(depth, owner, ownerLevel, this.takeProps(), this.pos);
    }
    if (c === COLON && isBlankZ(next)) {
      // A `:` right after `key:` on its line: the key's `:` left no simple key allowed.
      if (owner && owner.kind === 'key' && line === owner.line) {
        this.fail(this.pos, 'mapping values are not allowed in this context');
      }
      // An empty key: go-yaml takes one only after an anchor or tag (`&a : v`).
      const props = this.props;
      if (!props || props.line !== line) this.fail(this.pos, 'did not find expected key');
      const held = this.held;
      this.held = null;
      return this.blockMap(depth, owner, ownerLevel, held, props.offset);
    }
    if (c !== 0x7c && c !== 0x3e && this.keyAhead(this.pos, false) !== -1) {
      if (owner && owner.kind === 'key' && line === owner.line) {
        this.fail(this.pos, 'mapping values are not allowed in this context');
      }
      const props = this.props;
      if (props && props.line === line) {
        const held = this.held;
        this.held = null;
        return this.blockMap(depth, owner, ownerLevel, held, props.offset);
      }
      return this.blockMap(depth, owner, ownerLevel, this.takeProps(), this.pos);
    }
    const node = this.inlineNode(depth, owner, false, parentIndent);
    if (this.flowDepth === 0) {
      // `a: b: c` and a multi-line plain scalar followed by `: ` (go-yaml's simple key rules).
      this.skipBlanks();
      if (src.charCodeAt(this.pos) === COLON && isBlankZ(src.charCodeAt(this.pos + 1))) {
        this.fail(this.pos, 'mapping values are not allowed in this context');
      }
    }
    return node;
  }

  /**
   * Offset of the `:` making the node at `pos` an implicit key on this line, or -1. Keys are
   * single-line: a plain scalar, a quoted scalar, an alias or a flow collection.
   */
  private keyAhead(pos: number, flow: boolean): number {
    // A block mapping's first key is asked about twice (by blockNode, then by blockMap).
    if (pos === this.keyAheadPos && !flow) return this.keyAheadAnswer;
    const answer = this.scanKeyAhead(pos, flow);
    if (!flow) {
      this.keyAheadPos = pos;
      this.keyAheadAnswer = answer;
    }
    return answer;
  }

  /** The last block-context answer of `keyAhead` (the source never changes under a parser). */
  private keyAheadPos = -1;
  private keyAheadAnswer = -1;

  private scanKeyAhead(pos: number, flow: boolean): number {
    const src = this.src;
    const len = this.len;
    let i = pos;
    const c = src.charCodeAt(i);
    if (c === 0x22 || c === 0x27) {
      i++;
      for (;;) {
        if (i >= len) return -1;
        const d = src.charCodeAt(i);
        if (d === NL) return -1;
        if (c === 0x22 && d === 0x5c) i += 2;
        else if (d === c) {
          if (c === 0x27 && src.charCodeAt(i + 1) === 0x27) i += 2;
          else {
            i++;
            break;
          }
        } else i++;
      }
    } else if (c === 0x5b || c === 0x7b) {
      let depth = 0;
      for (;;) {
        if (i >= len) return -1;
        const d = src.charCodeAt(i);
        if (d === NL) return -1;
        if (d === 0x5b || d === 0x7b) depth++;
        else if (d === 0x5d || d === 0x7d) {
          depth--;
          if (depth === 0) {
            i++;
            break;
          }
        } else if (d === 0x22 || d === 0x27) {
          const q = d;
          i++;
          while (i < len && src.charCodeAt(i) !== q && src.charCodeAt(i) !== NL) {
            if (q === 0x22 && src.charCodeAt(i) === 0x5c) i++;
            i++;
          }
        }
        i++;
      }
    } else if (c === STAR) {
      i++;
      for (let d = src.charCodeAt(i); !isBlankZ(d) && !isFlowIndicator(d); d = src.charCodeAt(++i));
    } else {
      if (c === HASH || (c === COLON && isBlankZ(src.charCodeAt(i + 1)))) return -1;
      for (;;) {
        i = plainWordEnd(src, i, flow);
        let j = i;
        while (src.charCodeAt(j) === SP || src.charCodeAt(j) === TAB) j++;
        const d = src.charCodeAt(j);
        if (j >= len || d === NL || d === HASH) return -1;
        if (d === COLON) {
          const n = src.charCodeAt(j + 1);
          if (isBlankZ(n) || (flow && isFlowIndicator(n))) return j;
        }
        if (flow && isFlowIndicator(d)) return -1;
        if (j === i) return -1;
        i = j;
      }
    }
    while (src.charCodeAt(i) === SP || src.charCodeAt(i) === TAB) i++;
    if (src.charCodeAt(i) !== COLON) return -1;
    const n = src.charCodeAt(i + 1);
    return flow || isBlankZ(n) ? i : -1;
  }

  private blockMap(
    depth: number,
    owner: Entry | null,
    ownerLevel: Level | null,
    props: Props | null,
    start: number,
  ): YNode {
    const weight = this.expansions;
    const node = this.node('mapping', '!!map', '', this.pos);
    this.takeStemHead(node, owner);
    this.applyProps(node, props);
    const indent = this.colOf(start);
    const outerIndent = this.blockIndent;
    this.blockIndent = indent;
    const outerMessage = this.contextMessage;
    const outerStart = this.contextStart;
    this.contextMessage = 'did not find expected key';
    this.contextStart = start;
    const level: Level = {
      kind: 'map',
      node,
      indent,
      isLevel: true,
      parent: ownerLevel,
      owner,
      last: null,
      count: 0,
    };
    const src = this.src;
    let passFeet: number[] | null = null;
    for (let first = true; ; first = false) {
      // A held foot taken by a later key is the foot of the value before it (decode.go at v3.0.1,
      // parser.mapping: "a foot comment for the prior value when being dedented").
      if (this.nextScalarFoot && node.content.length >= 2) {
        node.content[node.content.length - 1].footComment = this.nextScalarFoot;
        this.nextScalarFoot = '';
      }
      if (!first) {
        this.skip();
        if (this.pos >= this.len || this.atDocumentEnd()) break;
        const col = this.colOf(this.pos);
        if (col < indent) break;
        if (col > indent) this.fail(this.pos, 'did not find expected key', 'yaml-syntax', start);
        while (src.charCodeAt(this.pos) === AMP || src.charCodeAt(this.pos) === BANG) {
          this.readProp();
          this.skipBlanks();
        }
      }
      const keyOffset = this.props ? this.props.offset : this.pos;
      let key: YNode;
      let e: Entry;
      const c = src.charCodeAt(this.pos);
      if (c === QMARK && isBlankZ(src.charCodeAt(this.pos + 1))) {
        if (this.props) this.fail(this.pos, 'mapping keys are not allowed in this context');
        const qLine = this.lineOf(this.pos);
        this.content(qLine);
        this.pos++;
        this.target(T_NEXT_SCALAR, qLine, null, null);
        this.skipProps(qLine, level);
        key = this.presentAfter(qLine, level)
          ? this.blockNode(depth + 1, null, level, indent)
          : this.emptyValue(keyOffset);
        // Comments between the key and its `:`: go-yaml makes them the head of the value's first
        // scalar with a value, or with no `:` the key's foot.
        const emptyKey = key.kind === 'scalar' && key.value === '' && key.tag === '!!null';
        const between = this.takeRunAfter(qLine);
        e = this.entry('key', keyOffset, level, key);
        // go-yaml gives an empty key's head comment to the next scalar with a value (or drops it).
        if (key.headComment && emptyKey) {
          this.nextScalarHead = key.headComment;
          key.headComment = '';
        }
        node.content.push(key);
        this.skip();
        const colonNext =
          this.pos < this.len &&
          this.colOf(this.pos) === indent &&
          src.charCodeAt(this.pos) === COLON &&
          isBlankZ(src.charCodeAt(this.pos + 1));
        between.push(...this.takeRunAfter(qLine));
        // A comment from an empty dash inside the key follows the key's entry like an own-line one.
        for (const l of between) if (l.fromDash) this.pushRun(l);
        const betweenText = between
          .filter((l) => !l.fromDash && !l.blank)
          .map((l) => l.text)
          .join('\n');
        if (!colonNext) {
          // An empty key takes nothing: the comments are read as own-line comments after it.
          if (emptyKey) {
            for (const l of between) if (!l.fromDash) this.pushRun(l);
            // Its last token is the '?', not a ':': the line below is a foot line (associate.ts
            // assignRun), so a comment there is the key's foot once a foot line exists.
            e.hasValue = true;
          } else if (betweenText && (this.keyContinued(indent) || this.keyCommentsFloat(between, indent))) {
            for (const l of between) if (!l.fromDash) this.pushRun(l);
            e.hasValue = true;
            // A foot the run gives this scalar key goes on to the key before (decode.go at v3.0.1,
            // parser.mapping), once the next entry has ended the run: see the mapping's end.
            if (key.kind === 'scalar' && node.content.length > 2) (passFeet ??= []).push(node.content.length - 1);
          } else if (betweenText) {
            key.footComment = joinComment(key.footComment, betweenText);
            // Last in its mapping, a scalar key's scan reads the comment as its own foot, and a key
            // read with a foot passes it to the entry before (decode.go at v3.0.1, parser.mapping:
            // "a foot comment for the prior value when being dedented"; checked with go-yaml v3).
            const mapEnds = this.pos >= this.len || this.atDocumentEnd() || this.colOf(this.pos) < indent;
            if (mapEnds && key.kind === 'scalar' && node.content.length > 2) {
              node.content[node.content.length - 3].footComment = key.footComment;
              key.footComment = '';
            }
          }
          const value = this.emptyValue(keyOffset);
          if (e.item === null) this.settle(e, value);
          node.content.push(value);
          continue;
        }
        if (betweenText) this.nextScalarHead = joinComment(this.nextScalarHead, betweenText);
      } else if (c === COLON && isBlankZ(src.charCodeAt(this.pos + 1))) {
        if (!this.props) this.fail(this.pos, 'did not find expected key', 'yaml-syntax', start);
        key = this.emptyValue(keyOffset);
        e = this.entry('key', keyOffset, level, key);
        node.content.push(key);
      } else {
        // An entry or a block scalar where a key should be: go-yaml's parser finds no KEY token.
        const dash = c === DASH && isBlankZ(src.charCodeAt(this.pos + 1));
        if (dash || c === 0x7c || c === 0x3e) this.fail(this.pos, 'did not find expected key', 'yaml-syntax', start);
        if (this.keyAhead(this.pos, false) === -1) {
          // go-yaml's scanner checks `x: 1\ny` at the end of y's line; the message names y's line.
          const eol = src.indexOf('\n', this.pos);
          this.fail(eol === -1 ? this.len : eol, "could not find expected ':'", 'yaml-syntax', keyOffset);
        }
        key = this.inlineNode(depth + 1, null, true, indent);
        e = this.entry('key', keyOffset, level, key);
        node.content.push(key);
        this.skipBlanks();
      }
      // The ':' indicator.
      const colonLine = this.lineOf(this.pos);
      this.content(colonLine);
      this.target(T_NODE_LINE, colonLine, key, null);
      this.pos++;
      const value = this.valueAfter(depth, e, level, colonLine);
      if (e.item === null) this.settle(e, value);
      node.content.push(value);
    }
    if (passFeet)
      for (const i of passFeet) {
        const k = node.content[i];
        if (k.footComment) {
          node.content[i - 2].footComment = k.footComment;
          k.footComment = '';
        }
      }
    this.endHeldComments(node);
    this.trim(node);
    this.registerAnchor(node, weight);
    this.blockIndent = outerIndent;
    this.contextMessage = outerMessage;
    this.contextStart = outerStart;
    return node;
  }

  /** Whether content at `pos` belongs to the value after an indicator on `line` of `level`. */
  private presentAfter(line: number, level: Level): boolean {
    if (this.pos >= this.len || this.atDocumentEnd()) return false;
    if (this.lineOf(this.pos) === line) return true;
    const col = this.colOf(this.pos);
    if (col > level.indent) return true;
    if (col !== level.indent) return false;
    const c = this.src.charCodeAt(this.pos);
    // A block scalar in the collection's own column is the value: it starts no key or entry
    // (go-yaml's scanner unrolls no indentation for it and its parser takes it as the node).
    if (c === 0x7c || c === 0x3e) return true;
    return level.kind === 'map' && c === DASH && isBlankZ(this.src.charCodeAt(this.pos + 1));
  }

  /** The value after a `:` or `-` indicator on `line`: a node, or an empty (null) scalar. */
  private valueAfter(depth: number, e: Entry, level: Level, line: number): YNode {
    const indicator = this.pos - 1;
    this.skipProps(line, level);
    if (this.presentAfter(line, level)) {
      const value = this.blockNode(depth + 1, e, level, level.indent);
      e.hasValue = true;
      return value;
    }
    // go-yaml places an empty mapping value at the end of the `:` line, an empty item at its dash.
    if (level.kind === 'seq') {
      if (e.firstKeyHead) this.dashCommentToRun(e, line);
      const empty = this.emptyValue(indicator);
      // An empty item takes no comment: those above it (and feet before it) wait for what follows.
      if (e.itemHead) this.nextScalarHead = joinComment(e.itemHead, this.nextScalarHead);
      if (e.firstKeyFoot) this.nextScalarFoot = joinComment(this.nextScalarFoot, e.firstKeyFoot);
      e.itemHead = e.firstKeyFoot = '';
      return empty;
    }
    const eol = this.src.indexOf('\n', indicator);
    return this.emptyValue(eol === -1 ? this.len : eol);
  }

  /**
   * `- # c` with an empty item: go-yaml's scanner turns the comment into a head for what follows
   * (scannerc.go at v3.0.1, yaml_parser_fetch_next_token after a BLOCK-ENTRY), so it is read as an
   * own-line comment inside the item, ahead of the comments already gathered after it.
   */
  private dashCommentToRun(e: Entry, line: number): void {
    const first: RunLine = { blank: false, line, col: e.col + 2, text: e.firstKeyHead, fromDash: true };
    e.firstKeyHead = '';
    if (this.run.length === 0) {
      this.runContentLine = this.lastContentLine;
      this.runPlainTookBreak = false;
    }
    this.run.unshift(first);
    this.runHasText = true;
  }

  /**
   * A block mapping's end takes the held comments (go-yaml's MAPPING-END event): the head is
   * dropped, the foot goes to the last key, a line comment no scalar took (`? ? # c`) becomes the
   * mapping's own (decode.go at v3.0.1, parser.mapping).
   */
  private endHeldComments(map: YNode): void {
    this.nextScalarHead = '';
    if (this.nextScalarLine && !map.lineComment) map.lineComment = this.nextScalarLine;
    this.nextScalarLine = '';
    if (this.nextScalarFoot && map.content.length >= 2)
      map.content[map.content.length - 2].footComment = this.nextScalarFoot;
    this.nextScalarFoot = '';
  }

  /**
   * A block collection right after a dash takes the held head comment as its own (go-yaml's stem
   * comment: parserc.go at v3.0.1, yaml_parser_split_stem_comment).
   */
  private takeStemHead(node: YNode, owner: Entry | null): void {
    if (owner?.kind !== 'dash' || !this.nextScalarHead) return;
    node.headComment = joinComment(this.nextScalarHead, node.headComment);
    this.nextScalarHead = '';
  }

  private emptyValue(offset: number): YNode {
    const weight = this.expansions;
    // An empty node takes no pending comment (T_NEXT_SCALAR): the next scalar with a value does.
    const pendingLine = this.nextScalarLine;
    const pendingHead = this.nextScalarHead;
    const pendingFoot = this.nextScalarFoot;
    this.nextScalarLine = this.nextScalarHead = this.nextScalarFoot = '';
    const node = this.node('scalar', '!!null', '', offset);
    this.nextScalarLine = pendingLine;
    this.nextScalarHead = pendingHead;
    this.nextScalarFoot = pendingFoot;
    this.applyProps(node, this.takeProps());
    this.registerAnchor(node, weight);
    return node;
  }

  private blockSeq(depth: number, owner: Entry | null, ownerLevel: Level | null, props: Props | null): YNode {
    const weight = this.expansions;
    const src = this.src;
    const node = this.node('sequence', '!!seq', '', this.pos);
    this.takeStemHead(node, owner);
    this.applyProps(node, props);
    const seqStart = this.pos;
    const indent = this.colOf(this.pos);
    const outerIndent = this.blockIndent;
    this.blockIndent = indent;
    // Dashes in the mapping's own column: a compact value, or (no owner yet) an explicit key's.
    const compact = (!owner || owner.kind === 'key') && ownerLevel?.kind === 'map' && ownerLevel.indent === indent;
    const outerMessage = this.contextMessage;
    const outerStart = this.contextStart;
    // An indentless sequence ends at anything but a dash: its mapping reports what follows.
    if (!compact) {
      this.contextMessage = "did not find expected '-' indicator";
      this.contextStart = seqStart;
    }
    const level: Level = {
      kind: 'seq',
      node,
      indent,
      isLevel: !compact,
      parent: ownerLevel,
      owner,
      last: null,
      count: 0,
    };
    for (;;) {
      const line = this.lineOf(this.pos);
      this.content(line);
      const e = this.entry('dash', this.pos, level, null);
      this.target(T_FIRST_KEY_HEAD, line, null, e);
      this.pos++;
      const value = this.valueAfter(depth, e, level, line);
      if (e.item === null) this.settle(e, value);
      node.content.push(value);
      this.skip();
      if (this.pos >= this.len || this.atDocumentEnd()) break;
      const col = this.colOf(this.pos);
      if (col < indent) break;
      if (col === indent) {
        if (src.charCodeAt(this.pos) === DASH && isBlankZ(src.charCodeAt(this.pos + 1))) continue;
        if (compact) break;
        this.requiredKey();
      }
      // An indentless sequence ends at anything else: its mapping finds no key there.
      if (compact) break;
      this.fail(this.pos, "did not find expected '-' indicator", 'yaml-syntax', seqStart);
    }
    this.trim(node);
    this.registerAnchor(node, weight);
    this.blockIndent = outerIndent;
    this.contextMessage = outerMessage;
    this.contextStart = outerStart;
    return node;
  }

  /**
   * A token in a block sequence's own column that is not `- `: go-yaml's scanner requires a
   * simple key there (scannerc.go at v3.0.1, yaml_parser_save_simple_key: `required` when the
   * column is the indentation), so a scalar, flow collection, alias or properties without their
   * `:` on the line fail as the scanner's "could not find expected ':'" before the parser sees
   * them. Returns when a key, an indicator or a block scalar leaves the error to the parser.
   */
  private requiredKey(): void {
    const src = this.src;
    let i = this.pos;
    let c = src.charCodeAt(i);
    if (c === 0x40 || c === 0x60) this.fail(i, 'found character that cannot start any token');
    const next = src.charCodeAt(i + 1);
    if (((c === DASH || c === QMARK || c === COLON) && isBlankZ(next)) || c === 0x7c || c === 0x3e || c === 0x25)
      return;
    // Properties before a key on the same line: the key's mark is the first property's.
    while (c === AMP || c === BANG) {
      while (i < this.len && !isBlankZ(src.charCodeAt(i))) i++;
      while (src.charCodeAt(i) === SP || src.charCodeAt(i) === TAB) i++;
      c = src.charCodeAt(i);
    }
    if (i < this.len && c !== NL && c !== HASH && this.keyAhead(i, false) !== -1) return;
    const eol = src.indexOf('\n', this.pos);
    this.fail(eol === -1 ? this.len : eol, "could not find expected ':'", 'yaml-syntax', this.pos);
  }

  // ---- scalars, aliases, flow collections ------------------------------------------------------

  /** A node that can sit inside a line: scalar, alias or flow collection (properties pending). */
  private inlineNode(depth: number, owner: Entry | null, isKey: boolean, parentIndent: number): YNode {
    this.checkDepth(depth);
    const c = this.src.charCodeAt(this.pos);
    if (c === STAR) return this.alias();
    if (c === 0x5b || c === 0x7b) {
      const props = this.takeProps();
      return this.flow(depth, props, this.valueEntry(owner, isKey));
    }
    const props = this.takeProps();
    return this.scalar(props, this.valueEntry(owner, isKey), parentIndent);
  }

  private alias(): YNode {
    const src = this.src;
    const start = this.pos;
    if (this.props) this.fail(start, 'did not find expected key');
    const i = scanAnchor(src, start, this.failAt);
    const name = src.slice(start + 1, i);
    const target = this.anchors.get(name);
    if (!target) this.fail(start, `unknown anchor '${name}' referenced`);
    this.expansions += 1 + (this.anchorWeight.get(target) ?? 0);
    if (this.expansions > this.input.limits.maxAliases) {
      this.fail(start, `YAML document expands more than ${this.input.limits.maxAliases} aliases`, 'yaml-alias-limit');
    }
    const node = this.place(newNode('alias', { value: name, alias: target }), start);
    this.content(this.lineOf(start));
    this.targetLine(node);
    this.pos = i;
    return node;
  }

  private scalar(props: Props | null, pseudo: Entry | null, parentIndent: number): YNode {
    const weight = this.expansions;
    const src = this.src;
    const start = this.pos;
    const node = this.node('scalar', '', '', start);
    const c = src.charCodeAt(start);
    let value: string;
    let style: YNode['style'];
    if (c === 0x7c || c === 0x3e) {
      // In flow context `|` and `>` start no block scalar, and no plain scalar either.
      if (this.flowDepth > 0) this.fail(start, 'found character that cannot start any token');
      style = c === 0x3e ? 'folded' : 'literal';
      value = this.blockScalar(node, parentIndent);
    } else {
      let end: number;
      if (c === 0x27 || c === 0x22) {
        style = c === 0x27 ? 'single' : 'double';
        end =
          c === 0x27
            ? scanSingle(src, start, this.quoted, this.failAt)
            : scanDouble(src, start, this.quoted, this.failAt);
        value = this.quoted.value;
      } else {
        // go-yaml's scanner cannot start a token with a reserved indicator.
        if (c === 0x25 || c === 0x40 || c === 0x60) this.fail(start, 'found character that cannot start any token');
        if (c === COMMA || c === 0x5d || c === 0x7d) {
          if (this.flowDepth === 0) this.fail(start, 'did not find expected node content');
        }
        // `- ` in a flow collection is a block entry token, which is no node.
        if (c === DASH && this.flowDepth > 0 && isBlankZ(src.charCodeAt(start + 1))) {
          this.fail(start, 'did not find expected node content');
        }
        const flow = this.flowDepth > 0;
        scanPlain(src, start, this.lineStarts[this.lineOf(start) - 1], parentIndent + 1, flow, this.plain);
        end = this.plain.end;
        if (end === start) this.fail(start, 'did not find expected node content');
        if (!flow) {
          this.plainStart = start;
          this.plainEnd = end;
          this.plainMinCol = parentIndent + 1;
          if (this.plain.multiline) this.checkPlainTabs(start, end);
        }
        style = '';
        value = this.plain.multiline ? foldPlain(src, start, end) : this.plainText(start, end);
      }
      this.pos = end;
      this.content(this.lineOf(end));
      if (style === '' && this.flowDepth === 0) this.plainTookBreak = true;
      this.targetLine(node);
    }
    node.value = value;
    node.style = style;
    this.applyProps(node, props);
    if (!node.tagged) {
      if (style !== '') node.tag = '!!str';
      else if (value === '<<') node.tag = '!!merge';
      else node.tag = resolvePlainTag(value);
    }
    this.registerAnchor(node, weight);
    if (pseudo) this.settle(pseudo, node);
    return node;
  }

  /** A `|` or `>` scalar at `pos`: header, its comment, then the body (scan.ts). */
  private blockScalar(node: YNode, parentIndent: number): string {
    const src = this.src;
    const start = this.pos;
    const header = this.header;
    this.scalarStart = start;
    scanBlockHeader(src, start, header, this.failAt);
    let i = header.end;
    const line = this.lineOf(start);
    this.content(line);
    this.targetLine(node);
    while (src.charCodeAt(i) === SP || src.charCodeAt(i) === TAB) i++;
    const after = src.charCodeAt(i);
    if (after === HASH) {
      let e = src.indexOf('\n', i);
      if (e === -1) e = this.len;
      this.comment(i, e);
      i = e;
    } else if (i < this.len && after !== NL) {
      this.fail(i, 'did not find expected comment or line break');
    }
    const headerEnd = i;
    const body = i < this.len ? i + 1 : i;
    const out = this.block;
    scanBlockBody(
      src,
      body,
      parentIndent,
      header.increment,
      header.chomp,
      src.charCodeAt(start) === 0x7c,
      out,
      this.failAt,
    );
    if (out.hasContent) {
      this.content(this.lineOf(out.contentEnd));
      this.pos = out.contentEnd;
    } else this.pos = headerEnd;
    return out.value;
  }

  private flow(depth: number, props: Props | null, pseudo: Entry | null): YNode {
    const weight = this.expansions;
    const src = this.src;
    const start = this.pos;
    const isMap = src.charCodeAt(start) === 0x7b;
    // A flow collection's start takes the held comments; only the head survives its end event.
    const heldHead = this.nextScalarHead;
    this.nextScalarLine = this.nextScalarHead = this.nextScalarFoot = '';
    const close = isMap ? 0x7d : 0x5d;
    const expected = isMap ? "did not find expected ',' or '}'" : "did not find expected ',' or ']'";
    const node = this.place(
      newNode(isMap ? 'mapping' : 'sequence', { tag: isMap ? '!!map' : '!!seq', style: 'flow' }),
      start,
    );
    if (heldHead) node.headComment = heldHead;
    this.applyProps(node, props);
    const outerMessage = this.contextMessage;
    const outerStart = this.contextStart;
    this.contextMessage = expected;
    this.contextStart = start;
    this.flowDepth++;
    this.flowHead = '';
    this.content(this.lineOf(start));
    this.target(T_FLOW_HEAD, this.lastContentLine, null, null);
    this.pos++;
    let prev: YNode | null = null;
    for (;;) {
      this.skipProps();
      // go-yaml's parser wants a node after `[`, `{` or `,`, and meets the end of the stream.
      if (this.pos >= this.len) this.fail(this.len, 'did not find expected node content');
      let c = src.charCodeAt(this.pos);
      // An anchor or tag alone is an empty node with those properties (`{&x }`, `[!!str , a]`).
      const bareProps = this.props !== null && (c === COMMA || c === 0x5d || c === 0x7d);
      if (c === close && !bareProps) break;
      if ((c === COMMA || c === 0x5d || c === 0x7d) && !bareProps)
        this.fail(this.pos, 'did not find expected node content');
      const head = this.flowHead;
      this.flowHead = '';
      let explicit = false;
      if (c === QMARK && isBlankZ(src.charCodeAt(this.pos + 1))) {
        explicit = true;
        this.content(this.lineOf(this.pos));
        this.pos++;
        this.skipProps();
        c = src.charCodeAt(this.pos);
      }
      const colonHere =
        c === COLON && (isBlankZ(src.charCodeAt(this.pos + 1)) || isFlowIndicator(src.charCodeAt(this.pos + 1)));
      if (colonHere && !explicit && this.props === null) this.fail(this.pos, 'did not find expected node content');
      let key: YNode;
      if (colonHere || bareProps || (explicit && (c === COMMA || c === close))) {
        key = this.node('scalar', '!!null', '', this.pos);
        this.applyProps(key, this.takeProps());
      } else key = this.inlineNode(depth + 1, null, true, -1);
      this.skip();
      let value: YNode | null = null;
      if (src.charCodeAt(this.pos) === COLON) {
        // A simple key ends on the line it starts (go-yaml): otherwise the ':' is out of place.
        if (!explicit && !colonHere && this.lineOf(this.pos) + this.input.firstLine - 1 !== key.line) {
          this.fail(this.pos, expected, 'yaml-syntax', start);
        }
        this.content(this.lineOf(this.pos));
        this.pos++;
        this.skipProps();
        if (this.pos >= this.len) this.fail(this.len, 'did not find expected node content');
        const d = src.charCodeAt(this.pos);
        value =
          this.pos >= this.len || d === COMMA || d === 0x5d || d === 0x7d
            ? this.emptyValue(start)
            : this.inlineNode(depth + 1, null, false, -1);
      } else if (explicit || isMap) value = this.emptyValue(start);
      if (value === null) {
        if (head) key.headComment = joinComment(head, key.headComment);
        node.content.push(key);
        prev = key;
      } else {
        if (head) key.headComment = joinComment(head, key.headComment);
        if (isMap) node.content.push(key, value);
        else {
          node.content.push(
            newNode('mapping', {
              tag: '!!map',
              style: 'flow',
              content: [key, value],
              line: key.line,
              column: key.column,
            }),
          );
        }
        prev = value;
      }
      this.skip();
      if (this.pos >= this.len) this.fail(this.len, expected, 'yaml-syntax', start);
      c = src.charCodeAt(this.pos);
      if (c === COMMA) {
        const line = this.lineOf(this.pos);
        this.content(line);
        this.target(T_NODE_LINE, line, prev, null);
        this.pos++;
        continue;
      }
      if (c === close) break;
      this.fail(this.pos, expected, 'yaml-syntax', start);
    }
    this.content(this.lineOf(this.pos));
    this.pos++;
    this.flowDepth--;
    this.flowHead = '';
    this.targetLine(node);
    this.trim(node);
    this.registerAnchor(node, weight);
    this.contextMessage = outerMessage;
    this.contextStart = outerStart;
    if (pseudo) this.settle(pseudo, node);
    return node;
  }
}

/**
 * go-yaml's column at the end of `src` (0-based): the characters of its last line, 0 after a
 * final line break. Its marks count characters, not UTF-16 units.
 */
function lastLineColumns(src: string): number {
  let n = 0;
  for (let i = src.lastIndexOf('\n') + 1; i < src.length; i++) {
    const c = src.charCodeAt(i);
    if (c < 0xdc00 || c > 0xdfff) n++;
  }
  return n;
}
