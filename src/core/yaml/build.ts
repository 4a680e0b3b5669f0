/**
 * One kyaml document piece → a go-yaml-style `document` node (docs/yaml-output.md, "Reading a file").
 *
 * Walks the `yaml` package's CST directly (no Document composition): scalars keep their style and
 * source text, tags and anchors are attached as go-yaml does, same-line comments go to the node
 * they follow (§5.2), and own-line comments are gathered into runs that associate.ts distributes
 * (§6.3). Throws KrmfnError for syntax errors and exceeded limits.
 */
import { CST, Lexer, Parser } from 'yaml';
import { KrmfnError } from '../errors.ts';
import type { Limits } from '../limits.ts';
import { newNode, type YNode } from './node.ts';
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

type Token = CST.Token;
type SourceToken = CST.SourceToken;

export interface PieceInput {
  text: string;
  /** 1-based line of the piece in its file. */
  firstLine: number;
  file: string | undefined;
  limits: Pick<Limits, 'maxAliases' | 'maxDepth'>;
}

interface Props {
  anchor: string;
  tag: string;
  /** The tag was the non-specific `!`. */
  bang: boolean;
  line: number;
}

/** Where a comment on the current content line goes (kept as plain fields: no closure per node). */
const T_NONE = 0;
const T_NODE_LINE = 1;
const T_FLOW_HEAD = 2;
const T_FIRST_KEY_HEAD = 3;
const T_FIRST_KEY_LINE = 4;

const YAML_TAG_PREFIX = 'tag:yaml.org,2002:';
// go-yaml's parser errors (reported one line up once kyaml's piece offset is applied); the block
// scalar header check is the scanner's, reported on its own line.
const PARSER_ERRORS = /^did not find expected (?!comment or line break)/;
const NO_LINE_ERRORS = /^unknown anchor|^found incompatible YAML document/;

/** Builds the document of one piece, or returns null for an empty, comment-only or null document. */
export function buildPiece(input: PieceInput): YNode | null {
  return new PieceBuilder(input).build();
}

class PieceBuilder {
  private readonly src: string;
  private readonly lineStarts: number[] = [0];
  private readonly input: PieceInput;
  private readonly anchors = new Map<string, YNode>();
  private readonly anchorWeight = new Map<YNode, number>();
  private expansions = 0;

  private lastContentLine = 0;
  private lastTokenLine = 0;
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
  private readonly ctx: RunContext;

  constructor(input: PieceInput) {
    this.input = input;
    this.src = input.text;
    for (let i = this.src.indexOf('\n'); i !== -1; i = this.src.indexOf('\n', i + 1)) this.lineStarts.push(i + 1);
    this.ctx = { doc: newNode('document'), docFirstLine: 1, docFoot: [] };
  }

  /**
   * The `yaml` package's CST tokens, with the nesting limit enforced while parsing: its parser
   * keeps one stack entry per open collection (plus the document and a scalar), so a stack deeper
   * than `maxDepth` + 3 means the document nests deeper than `maxDepth`; stopping there keeps
   * hostile input (millions of `[` or `- `) from building a CST of that depth first. The exact
   * depth check, with the node's position, stays in `value`.
   */
  private *parse(): Generator<Token> {
    const parser = new Parser();
    const guard = this.input.limits.maxDepth + 3;
    for (const lexeme of new Lexer().lex(this.src)) {
      yield* parser.next(lexeme);
      if (parser.stack.length > guard) {
        this.fail(parser.offset, `YAML nesting deeper than ${this.input.limits.maxDepth} levels`, 'yaml-depth-limit');
      }
    }
    yield* parser.end();
  }

  /** kyaml decodes one document per piece: stream tokens after the first document are not read. */
  build(): YNode | null {
    const doc = this.ctx.doc;
    let seenDoc = false;
    for (const tok of this.parse()) {
      if (tok.type === 'document') {
        if (seenDoc) break;
        seenDoc = true;
        this.document(tok, doc);
      } else if (tok.type === 'error') {
        this.fail(tok.offset, goMessage(tok.message));
      } else if (tok.type === 'directive') {
        if (seenDoc) break;
        const m = /^%YAML\s+(\S+)/.exec(tok.source);
        this.fail(
          tok.offset,
          m && m[1] !== '1.1' ? 'found incompatible YAML document' : 'did not find expected <document start>',
        );
      } else if (tok.type === 'doc-end') {
        this.token(tok as unknown as SourceToken);
        if (tok.end) this.tokens(tok.end);
      } else if (
        tok.type === 'comment' ||
        tok.type === 'newline' ||
        tok.type === 'space' ||
        tok.type === 'byte-order-mark'
      ) {
        this.token(tok);
      } else if (seenDoc) break;
    }
    const root = doc.content[0];
    if (!root || (root.kind === 'scalar' && root.tag === '!!null' && !root.anchor)) return null;
    this.endRun(null);
    if (this.ctx.docFoot.length) doc.footComment = joinComment(doc.footComment, this.ctx.docFoot.join('\n'));
    return doc;
  }

  // ---- positions and errors -------------------------------------------------------------

  private lineHint = 0;

  /** 1-based line of an offset. Tokens arrive mostly in order, so the last answer is tried first. */
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

  private colOf(offset: number, line: number): number {
    return offset - this.lineStarts[line - 1];
  }

  /**
   * Throws. go-yaml words the message `yaml: line N: ...` with N the 1-based line for scanner
   * errors, the 0-based line for parser errors (its own off-by-one), and no line for composer
   * errors; the error's `line` field is always the true 1-based line.
   */
  /**
   * go-yaml's scanner (scannerc.go `yaml_parser_scan_block_scalar`): after a block scalar's header
   * only spaces, a comment or a line break may follow; `a: >- !!str` and `a: > x` are errors, which
   * the `yaml` CST accepts or reads differently.
   */
  private checkBlockHeaderEnd(header: SourceToken): void {
    let i = header.offset + header.source.length;
    while (this.src[i] === ' ' || this.src[i] === '\t') i++;
    const c = this.src[i];
    if (c !== undefined && c !== '\n' && c !== '\r' && c !== '#') {
      this.fail(i, 'did not find expected comment or line break');
    }
  }

  private fail(
    offset: number,
    message: string,
    code: 'yaml-syntax' | 'yaml-depth-limit' | 'yaml-alias-limit' = 'yaml-syntax',
  ): never {
    const local = this.lineOf(offset);
    const line = local + this.input.firstLine - 1;
    const kind = PARSER_ERRORS.test(message) ? 'parser' : NO_LINE_ERRORS.test(message) ? 'none' : 'scanner';
    // kyaml decodes each document piece on its own, so go-yaml's line counts from the piece.
    const shown = kind === 'none' ? 'yaml: ' : `yaml: line ${kind === 'parser' ? local - 1 : local}: `;
    throw new KrmfnError({
      code,
      message: code === 'yaml-syntax' ? shown + message : message,
      ...(this.input.file ? { file: this.input.file } : {}),
      line,
      column: this.colOf(offset, this.lineOf(offset)) + 1,
    });
  }

  private place(node: YNode, offset: number): YNode {
    const line = this.lineOf(offset);
    node.line = line + this.input.firstLine - 1;
    node.column = this.colOf(offset, line) + 1;
    return node;
  }

  // ---- source tokens: comments, blank lines, props ----------------------------------------

  private content(line: number): void {
    this.lastContentLine = line;
    this.lastTokenLine = line;
  }

  /** Processes separator tokens. Returns the offset of the first property or indicator seen. */
  private tokens(list: readonly SourceToken[] | undefined): void {
    if (!list) return;
    for (let i = 0; i < list.length; i++) this.token(list[i]);
  }

  private token(t: SourceToken): void {
    // Lists of source tokens can hold stray scalars at run time (see the scalar cases below).
    switch (t.type as SourceToken['type'] | 'scalar' | 'single-quoted-scalar' | 'double-quoted-scalar') {
      case 'space':
        if (this.flowDepth === 0 && t.source.includes('\t')) this.checkTab(t);
        break;
      case 'newline': {
        const line = this.lineOf(t.offset);
        if (this.lastTokenLine < line && this.flowDepth === 0) this.pushRun({ blank: true, line, col: 0, text: '' });
        this.lastTokenLine = line;
        break;
      }
      case 'comment': {
        const line = this.lineOf(t.offset);
        const text = t.source.replace(/[ \t]+$/, '');
        if (line === this.lastContentLine) {
          if (this.ltKind !== T_NONE && this.ltLine === line) this.lineComment(text);
        } else if (this.flowDepth > 0) {
          this.flowHead = joinComment(this.flowHead, text);
        } else {
          this.pushRun({ blank: false, line, col: this.colOf(t.offset, line), text });
        }
        this.lastTokenLine = line;
        break;
      }
      case 'anchor':
      case 'tag': {
        const line = this.lineOf(t.offset);
        this.content(line);
        const pr = (this.props ??= { anchor: '', tag: '', bang: false, line });
        if (t.type === 'anchor') pr.anchor = t.source.slice(1);
        else {
          const tag = shortTag(t.source);
          if (tag === '') pr.bang = true;
          else pr.tag = tag;
        }
        break;
      }
      case 'byte-order-mark':
        break;
      case 'flow-error-end':
        this.fail(t.offset, "did not find expected ',' or ']'");
        break;
      case 'directive-line':
        this.fail(t.offset, 'did not find expected <document start>');
        break;
      case 'scalar':
      case 'single-quoted-scalar':
      case 'double-quoted-scalar':
        // Text after a complete node on its line (`name: "a "b" c"`): go-yaml stops there.
        this.fail(t.offset, 'did not find expected key');
        break;
      default:
        this.content(this.lineOf(t.offset));
    }
  }

  /** go-yaml rejects a tab in the indentation of block content. */
  private checkTab(t: SourceToken): void {
    const line = this.lineOf(t.offset);
    const col = this.colOf(t.offset, line);
    if (col !== 0 && this.src.slice(this.lineStarts[line - 1], t.offset).trim() !== '') return;
    const after = this.src[t.offset + t.source.length];
    if (after === undefined || after === '\n' || after === '#') return;
    const tab = t.offset + t.source.indexOf('\t');
    this.fail(tab, 'found character that cannot start any token');
  }

  private pushRun(l: RunLine): void {
    if (this.run.length === 0) this.runContentLine = this.lastContentLine;
    if (!l.blank) this.runHasText = true;
    this.run.push(l);
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
      else assignRun(run, this.p, this.runContentLine, n, this.ctx);
    }
    this.run = [];
    this.runHasText = false;
  }

  private takeProps(): Props | null {
    const p = this.props;
    this.props = null;
    return p;
  }

  // ---- entries ---------------------------------------------------------------------------

  private entry(kind: Entry['kind'], offset: number, level: Level | null, key: YNode | null): Entry {
    const line = this.lineOf(offset);
    const e: Entry = {
      kind,
      line,
      col: this.colOf(offset, line),
      level,
      key,
      item: null,
      hasValue: false,
      itemHead: '',
      firstKeyHead: '',
      firstKeyFoot: '',
      firstKeyLine: '',
    };
    if (level && level.count === 0 && level.owner && key) {
      const owner = level.owner;
      if (owner.firstKeyHead) key.headComment = joinComment(owner.firstKeyHead, key.headComment);
      if (owner.firstKeyFoot) key.footComment = owner.firstKeyFoot;
      if (owner.firstKeyLine && !key.lineComment) key.lineComment = owner.firstKeyLine;
      owner.firstKeyHead = owner.firstKeyFoot = owner.firstKeyLine = '';
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
      if (e.firstKeyLine && !item.lineComment) item.lineComment = e.firstKeyLine;
    }
    e.itemHead = e.firstKeyHead = e.firstKeyFoot = e.firstKeyLine = '';
  }

  // ---- nodes -----------------------------------------------------------------------------

  private document(doc: CST.Document, out: YNode): void {
    this.tokens(doc.start);
    const start = doc.start.find((t) => t.type === 'doc-start');
    if (start) out.line = this.lineOf(start.offset) + this.input.firstLine - 1;
    if (doc.value) {
      const root = this.value(doc.value, 1, null, null);
      out.content.push(root);
      if (!start) this.place(out, root.line ? doc.value.offset : 0);
    }
    this.tokens(doc.end);
  }

  /** Builds a value token. `owner` is the entry it belongs to (null for the root or a key). */
  private value(tok: Token, depth: number, owner: Entry | null, ownerLevel: Level | null, isKey = false): YNode {
    if (depth > this.input.limits.maxDepth) {
      this.fail(tok.offset, `YAML nesting deeper than ${this.input.limits.maxDepth} levels`, 'yaml-depth-limit');
    }
    const props = this.takeProps();
    switch (tok.type) {
      case 'block-map':
        return this.blockMap(tok, depth, owner, ownerLevel, props);
      case 'block-seq':
        return this.blockSeq(tok, depth, owner, ownerLevel, props);
      case 'flow-collection':
        return this.flow(tok, depth, props, this.valueEntry(tok, owner, isKey));
      case 'alias':
        return this.alias(tok, props);
      case 'scalar':
      case 'single-quoted-scalar':
      case 'double-quoted-scalar':
      case 'block-scalar':
        return this.scalar(tok, props, this.valueEntry(tok, owner, isKey));
      case 'error':
        return this.fail(tok.offset, goMessage(tok.message));
      default:
        return this.fail(tok.offset, 'did not find expected node content');
    }
  }

  /** A value starting on its own line after pending comments gets a pseudo entry (their head). */
  private valueEntry(tok: Token, owner: Entry | null, isKey: boolean): Entry | null {
    if (isKey || !this.runHasText || this.flowDepth > 0 || !owner) return null;
    return this.entry('value', tok.offset, null, null);
  }

  private applyProps(node: YNode, props: Props | null): void {
    if (!props) return;
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

  private alias(tok: CST.FlowScalar, props: Props | null): YNode {
    if (props) this.fail(tok.offset, 'did not find expected key');
    const name = tok.source.slice(1);
    const target = this.anchors.get(name);
    if (!target) this.fail(tok.offset, `unknown anchor '${name}' referenced`);
    this.expansions += 1 + (this.anchorWeight.get(target) ?? 0);
    if (this.expansions > this.input.limits.maxAliases) {
      this.fail(
        tok.offset,
        `YAML document expands more than ${this.input.limits.maxAliases} aliases`,
        'yaml-alias-limit',
      );
    }
    const node = this.place(newNode('alias', { value: name, alias: target }), tok.offset);
    this.content(this.lineOf(tok.offset));
    this.targetLine(node);
    this.tokens(tok.end);
    return node;
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
      case T_FIRST_KEY_LINE:
        if (entry && !entry.firstKeyLine) entry.firstKeyLine = text;
        break;
    }
  }

  private scalar(tok: CST.FlowScalar | CST.BlockScalar, props: Props | null, pseudo: Entry | null): YNode {
    const weight = this.expansions;
    const node = this.place(newNode('scalar'), tok.offset);
    let value: string;
    let style: YNode['style'];
    if (tok.type === 'block-scalar') {
      const header = tok.props.find((t) => t.type === 'block-scalar-header') as SourceToken | undefined;
      if (header) this.checkBlockHeaderEnd(header);
      style = header?.source[0] === '>' ? 'folded' : 'literal';
      value = this.resolve(tok);
      this.content(this.lineOf(tok.offset));
      this.targetLine(node);
      this.tokens(tok.props.filter((t) => t.type !== 'block-scalar-header') as SourceToken[]);
      // The content lines: the last non-empty one ends the scalar's content.
      const body = tok.source.replace(/\n[ \t\n]*$/, '');
      if (body.trim() !== '') this.content(this.lineOf(blockBodyStart(tok) + body.length));
      this.blockTail(tok);
    } else {
      const src = tok.source;
      if (tok.type === 'scalar') {
        // go-yaml's scanner cannot start a token with a reserved indicator.
        const c0 = src.charCodeAt(0);
        if (c0 === 0x25 || c0 === 0x40 || c0 === 0x60)
          this.fail(tok.offset, 'found character that cannot start any token');
        style = '';
        value = src.includes('\n') ? this.resolve(tok) : src;
      } else if (tok.type === 'single-quoted-scalar') {
        style = 'single';
        value = src.includes('\n') || src.includes("''") ? this.resolve(tok) : src.slice(1, -1);
      } else {
        style = 'double';
        value = src.includes('\n') || src.includes('\\') ? this.resolve(tok) : src.slice(1, -1);
      }
      this.content(this.lineOf(tok.offset + src.length));
      this.targetLine(node);
      this.tokens(tok.end);
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

  /** Blank lines at the end of a block scalar's source count as blank lines of the stream. */
  private blockTail(tok: CST.BlockScalar): void {
    const start = blockBodyStart(tok);
    const src = tok.source;
    let end = src.length;
    if (src.endsWith('\n')) end--;
    let i = src.lastIndexOf('\n', end - 1);
    const blanks: number[] = [];
    while (i !== -1 && src.slice(i + 1, end).trim() === '' && end > 0) {
      blanks.push(this.lineOf(start + i + 1));
      end = i;
      i = src.lastIndexOf('\n', end - 1);
    }
    for (let k = blanks.length - 1; k >= 0; k--) {
      if (blanks[k] > this.lastContentLine) this.pushRun({ blank: true, line: blanks[k], col: 0, text: '' });
    }
    if (src.length) this.lastTokenLine = this.lineOf(start + src.length - 1);
  }

  private resolve(tok: CST.FlowScalar | CST.BlockScalar): string {
    const r = CST.resolveAsScalar(tok, true, (offset, _code, message) => {
      const m = goMessage(message);
      // go-yaml reports an unterminated quoted scalar at its start.
      this.fail(m === 'found unexpected end of stream' ? tok.offset : offset, m);
    });
    return r.value;
  }

  private blockMap(
    tok: CST.BlockMap,
    depth: number,
    owner: Entry | null,
    ownerLevel: Level | null,
    props: Props | null,
  ): YNode {
    const weight = this.expansions;
    const node = this.place(newNode('mapping', { tag: '!!map' }), tok.offset);
    this.applyProps(node, props);
    if (owner && owner.kind === 'key' && this.lineOf(tok.offset) === owner.line) {
      this.fail(tok.offset, 'mapping values are not allowed in this context');
    }
    const level: Level = {
      kind: 'map',
      node,
      indent: 0,
      isLevel: true,
      parent: ownerLevel,
      owner,
      last: null,
      count: 0,
    };
    let first = true;
    for (const item of tok.items) {
      let keyProps: Props | null = null;
      let indOffset = -1;
      for (const t of item.start) {
        if (indOffset === -1 && (t.type === 'explicit-key-ind' || t.type === 'anchor' || t.type === 'tag'))
          indOffset = t.offset;
      }
      this.tokens(item.start);
      keyProps = this.takeProps();
      if (!item.key && !item.sep && !item.value) continue;
      const keyTok = item.key ?? null;
      const keyOffset = indOffset !== -1 ? indOffset : keyTok ? keyTok.offset : item.sep[0].offset;
      const keyCol = this.colOf(keyOffset, this.lineOf(keyOffset));
      if (first) {
        level.indent = keyCol;
        first = false;
      } else if (keyCol !== level.indent && this.lineOf(keyOffset) !== this.lineOf(tok.offset)) {
        this.fail(keyOffset, 'did not find expected key');
      }
      let key: YNode;
      if (keyTok) {
        if (!item.explicitKey && 'source' in keyTok && keyTok.type !== 'block-scalar' && keyTok.source.includes('\n')) {
          this.fail(keyTok.offset, "could not find expected ':'");
        }
        this.props = keyProps;
        key = this.value(keyTok, depth + 1, null, level, true);
      } else {
        key = this.place(newNode('scalar', { tag: '!!null' }), keyOffset);
        this.applyProps(key, keyProps);
      }
      const e = this.entry('key', keyOffset, level, key);
      node.content.push(key);
      const sep = item.sep ?? [];
      for (const t of sep) {
        this.token(t);
        if (t.type === 'map-value-ind') {
          const line = this.lineOf(t.offset);
          this.target(T_NODE_LINE, line, key, null);
        } else if ((t.type === 'anchor' || t.type === 'tag') && this.ltKind !== T_NONE) {
          this.target(T_FIRST_KEY_LINE, this.lineOf(t.offset), null, e);
        }
      }
      let value: YNode;
      if (item.value) {
        value = this.value(item.value, depth + 1, e, level);
        e.hasValue = true;
      } else {
        value = this.emptyValue(item.sep?.length ? item.sep[item.sep.length - 1].offset : keyOffset);
      }
      if (e.item === null) this.settle(e, value);
      node.content.push(value);
    }
    this.registerAnchor(node, weight);
    return node;
  }

  private emptyValue(offset: number): YNode {
    const weight = this.expansions;
    const node = this.place(newNode('scalar', { tag: '!!null' }), offset);
    const props = this.takeProps();
    this.applyProps(node, props);
    this.registerAnchor(node, weight);
    return node;
  }

  private blockSeq(
    tok: CST.BlockSequence,
    depth: number,
    owner: Entry | null,
    ownerLevel: Level | null,
    props: Props | null,
  ): YNode {
    const weight = this.expansions;
    const node = this.place(newNode('sequence', { tag: '!!seq' }), tok.offset);
    this.applyProps(node, props);
    const indent = this.colOf(tok.offset, this.lineOf(tok.offset));
    const compact = owner?.kind === 'key' && ownerLevel?.kind === 'map' && ownerLevel.indent === indent;
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
    for (const item of tok.items) {
      let e: Entry | null = null;
      for (const t of item.start) {
        if (t.type === 'seq-item-ind') {
          this.token(t);
          e = this.entry('dash', t.offset, level, null);
          this.target(T_FIRST_KEY_HEAD, this.lineOf(t.offset), null, e);
        } else {
          this.token(t);
          if ((t.type === 'anchor' || t.type === 'tag') && e)
            this.target(T_FIRST_KEY_LINE, this.lineOf(t.offset), null, e);
        }
      }
      if (!e) continue;
      let value: YNode;
      if (item.value) {
        value = this.value(item.value, depth + 1, e, level);
        e.hasValue = true;
      } else value = this.emptyValue(e.line ? this.lineStarts[e.line - 1] + e.col : tok.offset);
      if (e.item === null) this.settle(e, value);
      node.content.push(value);
    }
    this.registerAnchor(node, weight);
    return node;
  }

  private flow(tok: CST.FlowCollection, depth: number, props: Props | null, pseudo: Entry | null): YNode {
    const weight = this.expansions;
    const isMap = tok.start.type === 'flow-map-start';
    const node = this.place(
      newNode(isMap ? 'mapping' : 'sequence', { tag: isMap ? '!!map' : '!!seq', style: 'flow' }),
      tok.offset,
    );
    this.applyProps(node, props);
    this.flowDepth++;
    this.flowHead = '';
    this.token(tok.start);
    this.target(T_FLOW_HEAD, this.lastContentLine, null, null);
    let prev: YNode | null = null;
    for (const item of tok.items) {
      for (const t of item.start) {
        this.token(t);
        if (t.type === 'comma' && prev) {
          this.target(T_NODE_LINE, this.lineOf(t.offset), prev, null);
        }
      }
      const head = this.flowHead;
      this.flowHead = '';
      const hasPair = item.key !== undefined || item.sep !== undefined;
      if (!hasPair && !item.value) {
        this.takeProps();
        continue;
      }
      if (!hasPair) {
        const v = this.value(item.value!, depth + 1, null, null);
        if (head) v.headComment = joinComment(head, v.headComment);
        node.content.push(v);
        prev = v;
        continue;
      }
      // go-yaml's parser (parserc.go, flow entries): a `:` with no key and no `?` before it is not
      // a node (`[:]`, `[: x]`, `{: x}`), checked with the real kpt.
      if (
        !item.key &&
        item.sep?.[0]?.type === 'map-value-ind' &&
        !item.start.some((t) => t.type === 'explicit-key-ind')
      ) {
        this.fail(item.sep[0].offset, 'did not find expected node content');
      }
      const keyProps = this.takeProps();
      let key: YNode;
      if (item.key) {
        this.props = keyProps;
        key = this.value(item.key, depth + 1, null, null, true);
      } else {
        key = this.place(newNode('scalar', { tag: '!!null' }), item.sep![0].offset);
        this.applyProps(key, keyProps);
      }
      if (head) key.headComment = joinComment(head, key.headComment);
      this.tokens(item.sep);
      const value = item.value
        ? this.value(item.value, depth + 1, null, null)
        : this.emptyValue(key.line ? tok.offset : tok.offset);
      if (isMap) node.content.push(key, value);
      else {
        const pair = newNode('mapping', {
          tag: '!!map',
          style: 'flow',
          content: [key, value],
          line: key.line,
          column: key.column,
        });
        node.content.push(pair);
      }
      prev = value;
    }
    let closed = false;
    for (const t of tok.end) {
      this.token(t);
      if (!closed && (t.type === 'flow-map-end' || t.type === 'flow-seq-end')) {
        closed = true;
        this.flowDepth--;
        this.flowHead = '';
        this.targetLine(node);
      }
    }
    if (!closed) {
      this.flowDepth--;
      this.fail(tok.offset, isMap ? "did not find expected ',' or '}'" : "did not find expected ',' or ']'");
    }
    this.registerAnchor(node, weight);
    if (pseudo) this.settle(pseudo, node);
    return node;
  }
}

/** Offset of a block scalar's first content line: after the newline that ends its header line. */
function blockBodyStart(tok: CST.BlockScalar): number {
  let start = tok.offset;
  for (const t of tok.props) if ('source' in t) start = Math.max(start, t.offset + t.source.length);
  return start;
}

/** `!!x` and `!<tag:yaml.org,2002:x>` → `!!x`; `!<!x>` → `!x`; the non-specific `!` → ''. */
function shortTag(source: string): string {
  if (source === '!') return '';
  if (source.startsWith('!<') && source.endsWith('>')) {
    const v = decodeURIComponentSafe(source.slice(2, -1));
    if (v.startsWith(YAML_TAG_PREFIX)) return `!!${v.slice(YAML_TAG_PREFIX.length)}`;
    return v.startsWith('!') ? v : `!<${v}>`;
  }
  return source.includes('%') ? decodeURIComponentSafe(source) : source;
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** A go-yaml-like wording for the `yaml` package's parse errors. */
function goMessage(message: string): string {
  if (/tab/i.test(message)) return 'found character that cannot start any token';
  if (/block-seq-ind on same line/i.test(message)) return 'block sequence entries are not allowed in this context';
  if (/flow (map|sequence)|Expected a .* ([\]}])/i.test(message)) {
    return message.includes('}') || /map/i.test(message)
      ? "did not find expected ',' or '}'"
      : "did not find expected ',' or ']'";
  }
  if (/implicit key|single line/i.test(message)) return "could not find expected ':'";
  if (/indent/i.test(message)) return 'did not find expected key';
  if (/quote|Missing closing/i.test(message)) return 'found unexpected end of stream';
  if (/escape/i.test(message)) return 'found unknown escape character';
  return 'did not find expected node content';
}
