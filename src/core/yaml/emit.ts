/**
 * The go-yaml v3 output rules with kyaml's settings (docs/yaml-output.md, "Scalars"): indent 2, no line
 * width (yaml.v2's folding at a width only when EmitOptions.foldWidth asks), unicode, `\n`, compact or wide sequences per document. Writes YNode trees; never uses the
 * `yaml` package's stringifier. Output is built from string parts joined once per document.
 */
import type { YNode } from './node.ts';
import type { SeqIndent } from './read.ts';
import { resolvePlainTag } from './resolve.ts';
import { analyzeScalar, blockScalar, hasLineBreak, spaces, writeDoubleQuoted, writeSingleQuoted } from './scalar.ts';
import { foldScalar } from './emit-fold.ts';

export type { SeqIndent } from './read.ts';

/** Documents joined by `---\n`, no leading `---`, exactly one final newline (except keep-chomped block scalars). */
export function emitYamlFile(docs: readonly YNode[], seqIndent: SeqIndent | readonly SeqIndent[]): string {
  // Parts joined per document: one list for a whole large file would be an old-generation array
  // full of young strings, which every scavenge must visit (measured slower at 10 MB).
  const texts: string[] = [];
  const out: string[] = [];
  for (let i = 0; i < docs.length; i++) {
    const style = typeof seqIndent === 'string' ? seqIndent : (seqIndent[i] ?? 'compact');
    if (i > 0) texts.push('---\n');
    const e = new Emitter(out, style === 'compact', false, undefined);
    e.document(docs[i]);
    e.end();
    texts.push(out.join(''));
    out.length = 0;
  }
  return texts.join('');
}

/**
 * Emitter dialects. `tabsInBlocks`: the go-yaml v3.0.4 (go.yaml.in/yaml/v3) rule that a tab does
 * not forbid literal/folded block scalars (kyaml v0.21, kpt v1.0.0-beta.67); go-yaml v3.0.1 (kyaml
 * v0.15, kpt v1.0.0-beta.56) double-quotes such values. Default: the v3.0.1 rule.
 * `foldWidth`: yaml.v2's best width (80 for `yaml.Marshal`): plain and quoted block values and
 * explicit keys are folded at a space past that column (emit-fold.ts). Default: no line width.
 */
export interface EmitOptions {
  tabsInBlocks?: boolean;
  foldWidth?: number;
}

export function emitYamlDocument(doc: YNode, seqIndent: SeqIndent, opts: EmitOptions = {}): string {
  const out: string[] = [];
  const e = new Emitter(out, seqIndent === 'compact', opts.tabsInBlocks ?? false, opts.foldWidth);
  e.document(doc);
  e.end();
  return out.join('');
}

type ScalarContext = 'value' | 'key' | 'flow' | 'explicit-key';

/** UTF-8 byte length of `s`, counted without encoding it (no allocation). */
export function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) n += c >= 0x800 && !(c >= 0xd800 && c <= 0xdfff) ? 2 : 1;
  }
  return n;
}

const MAX_BREAK_INDENT = 64;
/** `\n` followed by 0 to 64 spaces, made once. */
const BREAK_INDENTS: readonly string[] = Array.from({ length: MAX_BREAK_INDENT + 1 }, (_, n) => `\n${spaces(n)}`);

function isBlockCollection(n: YNode): boolean {
  return (n.kind === 'mapping' || n.kind === 'sequence') && n.style !== 'flow' && n.content.length > 0;
}

/** Writes a document into a list of parts (`out`, reused from one document to the next). */
class Emitter {
  private readonly out: string[];
  private atLineStart = true;
  /** Column of the last foot comment written; the next line at that column starts with a blank line. */
  private footCol = -1;
  private readonly compact: boolean;
  private readonly tabsInBlocks: boolean;
  private readonly foldWidth: number | undefined;

  constructor(out: string[], compact: boolean, tabsInBlocks: boolean, foldWidth: number | undefined) {
    this.out = out;
    this.compact = compact;
    this.tabsInBlocks = tabsInBlocks;
    this.foldWidth = foldWidth;
  }

  /** Characters written on the current line so far. */
  private column(): number {
    let n = 0;
    for (let i = this.out.length - 1; i >= 0; i--) {
      const part = this.out[i];
      const nl = part.lastIndexOf('\n');
      if (nl >= 0) return n + Array.from(part.slice(nl + 1)).length;
      n += Array.from(part).length;
    }
    return n;
  }

  /** Ends the document's last line. */
  end(): void {
    if (!this.atLineStart) this.out.push('\n');
  }

  private w(s: string): void {
    this.out.push(s);
    this.atLineStart = false;
  }

  /** Starts a new line at `indent`. */
  private line(indent: number): void {
    if (!this.atLineStart && this.footCol !== indent && indent <= MAX_BREAK_INDENT) {
      // The common case as one part: the line break and the indentation.
      this.out.push(BREAK_INDENTS[indent]);
    } else {
      if (!this.atLineStart) this.out.push('\n');
      if (this.footCol === indent) this.out.push('\n');
      if (indent) this.out.push(spaces(indent));
    }
    this.footCol = -1;
    this.atLineStart = false;
  }

  /** Own-line comment text at `indent`; empty lines inside stand for blank lines. */
  private comment(text: string, indent: number, inlineFirst = false): void {
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const l = lines[i];
      if (l === '') {
        if (!this.atLineStart) this.out.push('\n');
        this.out.push('\n');
        this.atLineStart = true;
        this.footCol = -1;
        continue;
      }
      if (i === 0 && inlineFirst) this.w(l[0] === '#' ? l : `# ${l}`);
      else {
        this.line(indent);
        this.w(l[0] === '#' ? l : `# ${l}`);
      }
    }
  }

  private foot(text: string, indent: number): void {
    if (!text) return;
    this.comment(text, indent);
    this.footCol = indent;
  }

  private lineComment(text: string): void {
    if (text) this.w(text[0] === '#' ? ` ${text}` : ` # ${text}`);
  }

  document(doc: YNode): void {
    if (doc.headComment) {
      this.comment(doc.headComment, 0);
      this.out.push('\n\n');
      this.atLineStart = true;
    }
    const root = doc.content[0];
    if (root) this.root(root);
    if (doc.lineComment) this.lineComment(doc.lineComment);
    if (doc.footComment) {
      this.footCol = 0;
      this.comment(doc.footComment, 0);
    }
  }

  private root(n: YNode): void {
    if (n.headComment) this.comment(n.headComment, 0);
    const props = this.props(n);
    if (isBlockCollection(n)) {
      if (props) {
        this.line(0);
        this.w(props);
        this.lineComment(n.lineComment);
      }
      if (n.kind === 'mapping') this.mapping(n, 0, false);
      else this.sequence(n, 0, false);
    } else {
      this.line(0);
      this.inlineValue(n, 0, 'value', props, '');
    }
    // The root node's foot is written like a document foot: after a blank line.
    if (n.footComment) {
      this.footCol = 0;
      this.foot(n.footComment, 0);
    }
  }

  // ---- tags and anchors ------------------------------------------------------------------

  /** The node `tagOf` last answered for, and its answer (a key or value asks up to three times). */
  private tagNode: YNode | null = null;
  private tagText = '';
  private tagForce = false;

  /**
   * The tag to write for `n`; afterwards `tagForce` says whether a plain string must be
   * double-quoted instead. Answers for one node at a time, kept for the next question about it.
   */
  private tagOf(n: YNode): string {
    if (n !== this.tagNode) {
      this.tagNode = n;
      this.tagForce = false;
      this.tagText = this.resolveTag(n);
    }
    return this.tagText;
  }

  private resolveTag(n: YNode): string {
    const tag = n.tag;
    if (!tag) return '';
    if (n.tagged) return tag;
    switch (n.kind) {
      case 'scalar':
        if (tag === '!!str' && n.style !== '') return '';
        // A plain `<<` reads back as a merge key (go-yaml's resolve table at v3.0.1): a string is quoted.
        if (tag === '!!str' && n.value === '<<') {
          this.tagForce = true;
          return '';
        }
        {
          const r = resolvePlainTag(n.value);
          if (r === tag) return '';
          if (tag === '!!str') {
            this.tagForce = true;
            return '';
          }
          return tag;
        }
      case 'mapping':
        return tag === '!!map' ? '' : tag;
      case 'sequence':
        return tag === '!!seq' ? '' : tag;
      default:
        return '';
    }
  }

  private props(n: YNode): string {
    if (n.kind === 'alias') return '';
    const tag = this.tagOf(n);
    if (n.anchor) return tag ? `&${n.anchor} ${tag}` : `&${n.anchor}`;
    return tag;
  }

  // ---- scalars ---------------------------------------------------------------------------

  private scalarStyle(n: YNode, ctx: ScalarContext): YNode['style'] {
    const v = n.value;
    let style = n.style;
    if (style === '') {
      if (v.includes('\n')) style = 'literal';
      else {
        this.tagOf(n);
        if (this.tagForce) style = 'double';
      }
    }
    const a = analyzeScalar(v, this.tabsInBlocks);
    const simpleKey = ctx === 'key';
    const flow = ctx === 'flow';
    if (simpleKey && a.multiline) return 'double';
    if (style === '') {
      if ((flow && !a.flowPlain) || (!flow && !a.blockPlain) || (a.empty && (flow || simpleKey))) style = 'single';
      else return '';
    }
    if (style === 'single') return a.single ? 'single' : 'double';
    if (style === 'literal' || style === 'folded') {
      return !a.block || flow || simpleKey ? 'double' : style;
    }
    return 'double';
  }

  /** A scalar or alias written on the current line (block scalars continue on the next lines). */
  private scalarText(n: YNode, ctx: ScalarContext, indent: number, contentIndent: number, lineComment: string): string {
    if (n.kind === 'alias') return `*${n.value}`;
    const style = this.scalarStyle(n, ctx);
    switch (style) {
      case '':
        return this.fold(n, ctx, n.value, 'plain', contentIndent);
      case 'single':
        return this.fold(n, ctx, writeSingleQuoted(n.value, spaces(indent)), 'single', contentIndent);
      case 'double':
        return this.fold(n, ctx, writeDoubleQuoted(n.value), 'double', contentIndent);
      case 'literal':
      case 'folded':
        return blockScalar(n.value, style, contentIndent, lineComment);
      default:
        return writeDoubleQuoted(n.value);
    }
  }

  /**
   * With a fold width, a block value or explicit key (yaml.v2 folds all but simple keys; flow
   * scalars are left on one line), written after its props on the current line.
   */
  private fold(
    n: YNode,
    ctx: ScalarContext,
    text: string,
    style: 'plain' | 'single' | 'double',
    indent: number,
  ): string {
    if (this.foldWidth === undefined || (ctx !== 'value' && ctx !== 'explicit-key') || !text.includes(' ')) return text;
    const props = this.props(n);
    const column = this.column() + (props ? Array.from(props).length + 1 : 0);
    return foldScalar(text, style, column, indent, this.foldWidth);
  }

  /**
   * Writes a non-block-collection value after `prefix` (a key's `:` or a dash) on the current line:
   * props, then the scalar, alias or flow collection, then the line comment.
   */
  private inlineValue(
    n: YNode,
    indent: number,
    ctx: ScalarContext,
    props: string,
    heldComment: string,
    ownComment = true,
  ): void {
    const comment = (ownComment ? n.lineComment : '') || heldComment;
    if (n.kind === 'mapping' || n.kind === 'sequence') {
      this.w(props ? `${props} ` : '');
      this.flow(n, indent + 2, comment);
      return;
    }
    const isBlock = n.kind === 'scalar' && (n.style === 'literal' || n.style === 'folded' || n.value.includes('\n'));
    const text = this.scalarText(n, ctx, indent, indent + 2, comment);
    const sep = props && text ? `${props} ${text}` : props || text;
    if (sep) this.w(sep);
    if (isBlock && (text[0] === '|' || text[0] === '>')) {
      this.atLineStart = text.endsWith('\n');
      return;
    }
    this.lineComment(comment);
  }

  // ---- block collections -----------------------------------------------------------------

  private isSimpleKey(k: YNode): boolean {
    if (k.kind === 'alias') return true;
    if (k.kind === 'mapping' || k.kind === 'sequence') return k.content.length === 0;
    if (hasLineBreak(k.value)) return false;
    const tag = this.tagOf(k);
    return utf8Length(k.anchor) + utf8Length(tag) + utf8Length(k.value) <= 128;
  }

  private mapping(m: YNode, indent: number, inline: boolean): void {
    const c = m.content;
    // go-yaml writes a scalar value's head comment late: as the next key's head unless that key has
    // its own (then it is lost), or at the mapping's end (emitterc.go at v3.0.1: the emitter's
    // pending head comment is only written where a key or the mapping's end processes it).
    let held = '';
    for (let i = 0; i + 1 < c.length; i += 2) {
      const k = c[i];
      const v = c[i + 1];
      const head = k.headComment || held;
      held = '';
      if (i === 0 && inline) {
        if (head) {
          this.comment(head, indent, true);
          this.line(indent);
        }
      } else {
        if (head) this.comment(head, indent);
        this.line(indent);
      }
      this.pair(k, v, indent);
      this.foot(k.footComment || (v.kind !== 'mapping' && v.kind !== 'sequence' ? v.footComment : ''), indent);
      if (v.headComment && !isBlockCollection(v)) held = v.headComment;
    }
    if (held) this.comment(held, indent);
  }

  private key(k: YNode, indent: number): void {
    const props = this.props(k);
    if (k.kind === 'mapping' || k.kind === 'sequence') {
      this.w(props ? `${props} ` : '');
      this.flow(k, indent + 2, '');
      return;
    }
    const text = this.scalarText(k, 'key', indent, indent + 2, '');
    this.w(props && text ? `${props} ${text}` : props || text);
    if (k.kind === 'alias') this.w(' ');
  }

  private pair(k: YNode, v: YNode, indent: number): void {
    if (this.isSimpleKey(k)) {
      this.key(k, indent);
      this.w(':');
    } else {
      this.w('?');
      // go-yaml writes a block collection key after `? ` as it writes a sequence item after `- `.
      if (isBlockCollection(k)) this.item(k, indent, '', true);
      else {
        this.w(' ');
        // The key's line comment is held for the value, as for a simple key.
        this.inlineValue(k, indent, 'explicit-key', this.props(k), '', false);
      }
      this.line(indent);
      this.w(':');
      // After an explicit key's `:` the value is written like a sequence item.
      this.item(v, indent, k.lineComment, true);
      return;
    }
    this.value(v, indent, k.lineComment);
  }

  /** The value of a block mapping pair, after `key:`. */
  private value(v: YNode, indent: number, keyComment: string): void {
    const props = this.props(v);
    if (isBlockCollection(v)) {
      if (props) this.w(` ${props}`);
      this.lineComment(keyComment || v.lineComment);
      if (v.kind === 'mapping') {
        if (v.headComment) this.comment(v.headComment, indent + 2);
        this.mapping(v, indent + 2, false);
      } else {
        const seqIndent = this.compact ? indent : indent + 2;
        if (v.headComment) this.comment(v.headComment, seqIndent);
        this.sequence(v, seqIndent, false);
      }
      if (v.footComment) this.foot(v.footComment, indent);
      return;
    }
    if (!(v.kind === 'scalar' && v.value === '' && !props && this.scalarStyle(v, 'value') === '')) {
      this.w(' ');
    }
    this.inlineValue(v, indent, 'value', props, keyComment);
  }

  private sequence(s: YNode, indent: number, inline: boolean): void {
    const c = s.content;
    for (let i = 0; i < c.length; i++) {
      const item = c[i];
      if (i === 0 && inline) {
        if (item.headComment) {
          this.comment(item.headComment, indent, true);
          this.line(indent);
        }
      } else {
        if (item.headComment) this.comment(item.headComment, indent);
        this.line(indent);
      }
      this.w('-');
      this.item(item, indent);
      this.foot(item.footComment, indent);
    }
  }

  /** A sequence item after `-`, or (`explicitValue`) a value after an explicit key's `:`. */
  private item(n: YNode, indent: number, heldComment = '', explicitValue = false): void {
    const props = this.props(n);
    if (isBlockCollection(n)) {
      if (props || heldComment) {
        if (props) this.w(` ${props}`);
        this.lineComment(heldComment || n.lineComment);
        if (n.kind === 'mapping') this.mapping(n, indent + 2, false);
        else this.sequence(n, explicitValue && this.compact ? indent : indent + 2, false);
        return;
      }
      this.w(' ');
      if (n.kind === 'mapping') this.mapping(n, indent + 2, true);
      else this.sequence(n, indent + 2, true);
      return;
    }
    if (!(n.kind === 'scalar' && n.value === '' && !props && this.scalarStyle(n, 'value') === '')) this.w(' ');
    this.inlineValue(n, indent, 'value', props, heldComment);
  }

  // ---- flow collections ------------------------------------------------------------------

  /**
   * A flow collection on the current line. Comments inside force line breaks, continued at
   * `indent` (§5.7): a head comment starts a new line before its entry, a line comment ends the
   * line after the entry's comma.
   */
  private flow(n: YNode, indent: number, comment: string): void {
    const isMap = n.kind === 'mapping';
    const c = n.content;
    this.w(isMap ? '{' : '[');
    const step = isMap ? 2 : 1;
    let pendingComment = '';
    for (let i = 0; i < c.length; i += step) {
      const entry = c[i];
      const value = isMap ? c[i + 1] : entry;
      if (i > 0) this.w(',');
      const head = entry.headComment;
      if (pendingComment) {
        this.lineComment(pendingComment);
        pendingComment = '';
        if (head) this.comment(head, indent);
        this.line(indent);
      } else if (head) {
        this.comment(head, indent);
        this.line(indent);
      } else if (i > 0) this.w(' ');
      if (isMap) {
        this.flowNode(entry, indent, true);
        this.w(': ');
        this.flowNode(value, indent, false);
      } else this.flowNode(entry, indent, false);
      pendingComment = value.lineComment;
    }
    // go-yaml ends a flow mapping whose last key has a foot comment with `,`, then writes the
    // foot after the collection, at the indentation of the line holding it.
    const tail = isMap && c.length >= 2 ? c[c.length - 2].footComment : '';
    if (tail) this.w(',');
    if (pendingComment) {
      this.lineComment(pendingComment);
      this.line(indent);
    }
    this.w(isMap ? '}' : ']');
    this.lineComment(comment);
    if (tail) this.foot(tail, indent - 2);
  }

  private flowNode(n: YNode, indent: number, isKey: boolean): void {
    const props = this.props(n);
    if (n.kind === 'mapping' || n.kind === 'sequence') {
      if (props) this.w(`${props} `);
      this.flow(n, indent + 2, '');
      return;
    }
    const text = this.scalarText(n, isKey ? 'key' : 'flow', indent, indent, '');
    this.w(props && text ? `${props} ${text}` : props || text);
  }
}
