/**
 * The YAML node model of krmfn: a faithful mirror of go-yaml v3's `Node`, because kpt (through
 * kyaml) reads, edits and writes packages in exactly this model. Every comment slot, style flag and
 * the source text of every scalar survives a parse/emit round trip, so untouched bytes come back
 * exactly as kpt would write them (see docs/yaml-output.md).
 *
 * Contract:
 * - `content` of a mapping is the flat list [key0, value0, key1, value1, ...] (as go-yaml).
 * - `content` of a document holds exactly one node (the root), or none for an empty document.
 * - `value` of a scalar is its text after unescaping/folding (never its quoted source); for plain
 *   scalars that is the source text, so `0755` stays `0755`.
 * - `tag` is the short form (`!!str`, `!!int`, `!mytag`) the parser resolved or the author set;
 *   `tagged` is true only when the tag was written explicitly and must be emitted.
 * - Comment strings keep their `#` and join several lines with `\n`; an empty line inside a comment
 *   string stands for a blank line.
 * - `line`/`column` are 1-based source positions, 0 when unknown (nodes built in code).
 * - `content` of a scalar or alias made by `placedNode` is one shared frozen empty array (no array
 *   per leaf: most nodes are leaves); assign a new array, never push into it.
 * Nodes are mutable; share none between two trees (use `cloneNode`). The library's nodes are
 * `TreeNode`s whose rarely set fields are accessors: copy one with `copyNode`, not a spread.
 */
export type NodeKind = 'document' | 'mapping' | 'sequence' | 'scalar' | 'alias';

/** '' = plain scalar / block collection. 'flow' applies to mappings and sequences only. */
export type NodeStyle = '' | 'double' | 'single' | 'literal' | 'folded' | 'flow';

export interface YNode {
  kind: NodeKind;
  style: NodeStyle;
  /** The tag was written explicitly in the source (or must be written on output). */
  tagged: boolean;
  tag: string;
  value: string;
  anchor: string;
  /** For `alias` nodes: the anchored node it refers to. */
  alias: YNode | null;
  content: YNode[];
  headComment: string;
  lineComment: string;
  footComment: string;
  line: number;
  column: number;
}

export function newNode(kind: NodeKind, init: Partial<YNode> = {}): YNode {
  return Object.assign(placedNode(kind, '', '', 0, 0), init);
}

/**
 * The fields most nodes leave at their defaults (no tag written, no anchor, no comments): one
 * object per node that sets any of them, null for the rest.
 */
interface RareFields {
  tagged: boolean;
  anchor: string;
  alias: YNode | null;
  headComment: string;
  lineComment: string;
  footComment: string;
}

/**
 * The node class behind every `YNode` the library makes. Eight own fields where a plain object
 * with all thirteen took 128 bytes (V8 without pointer compression, as Node ships: 8 bytes a
 * field plus a 24-byte header): 88 bytes, so a parsed package takes about a third less heap and
 * every walk over it touches fewer cache lines. The rare fields are accessors over `rare`; an
 * empty value written to a node without them allocates nothing. Accessors live on the prototype,
 * so a spread (`{ ...node }`) does not copy them: copy with `cloneNode` or `copyNode`.
 */
class TreeNode implements YNode {
  kind: NodeKind;
  style: NodeStyle;
  tag: string;
  value: string;
  content: YNode[];
  line: number;
  column: number;
  rare: RareFields | null;

  constructor(kind: NodeKind, tag: string, style: NodeStyle, line: number, column: number) {
    this.kind = kind;
    this.style = style;
    this.tag = tag;
    this.value = '';
    this.content = kind === 'scalar' || kind === 'alias' ? NO_CONTENT : [];
    this.line = line;
    this.column = column;
    this.rare = null;
  }

  private fields(): RareFields {
    return (this.rare ??= {
      tagged: false,
      anchor: '',
      alias: null,
      headComment: '',
      lineComment: '',
      footComment: '',
    });
  }

  get tagged(): boolean {
    return this.rare === null ? false : this.rare.tagged;
  }
  set tagged(v: boolean) {
    if (v || this.rare !== null) this.fields().tagged = v;
  }
  get anchor(): string {
    return this.rare === null ? '' : this.rare.anchor;
  }
  set anchor(v: string) {
    if (v !== '' || this.rare !== null) this.fields().anchor = v;
  }
  get alias(): YNode | null {
    return this.rare === null ? null : this.rare.alias;
  }
  set alias(v: YNode | null) {
    if (v !== null || this.rare !== null) this.fields().alias = v;
  }
  get headComment(): string {
    return this.rare === null ? '' : this.rare.headComment;
  }
  set headComment(v: string) {
    if (v !== '' || this.rare !== null) this.fields().headComment = v;
  }
  get lineComment(): string {
    return this.rare === null ? '' : this.rare.lineComment;
  }
  set lineComment(v: string) {
    if (v !== '' || this.rare !== null) this.fields().lineComment = v;
  }
  get footComment(): string {
    return this.rare === null ? '' : this.rare.footComment;
  }
  set footComment(v: string) {
    if (v !== '' || this.rare !== null) this.fields().footComment = v;
  }
}

/** Shared by every scalar and alias (`content` of a leaf); frozen, so a push into it throws. */
const NO_CONTENT = Object.freeze([]) as unknown as YNode[];

/** A fresh node at a source position: the parser's hot-path constructor (one class for every node). */
export function placedNode(kind: NodeKind, tag: string, style: NodeStyle, line: number, column: number): YNode {
  return new TreeNode(kind, tag, style, line, column);
}

/** A shallow copy of `n` (the same `content` array), any `YNode` shape in, a library node out. */
export function copyNode(n: YNode): YNode {
  const c = new TreeNode(n.kind, n.tag, n.style, n.line, n.column);
  c.value = n.value;
  c.content = n.content;
  c.tagged = n.tagged;
  c.anchor = n.anchor;
  c.alias = n.alias;
  c.headComment = n.headComment;
  c.lineComment = n.lineComment;
  c.footComment = n.footComment;
  return c;
}

/** A string scalar. Plain style unless given; the emitter quotes it when YAML would misread it. */
export function strNode(value: string, style: NodeStyle = ''): YNode {
  return newNode('scalar', { tag: '!!str', value, style });
}

export function mappingNode(content: YNode[] = [], style: NodeStyle = ''): YNode {
  return newNode('mapping', { tag: '!!map', content, style });
}

export function sequenceNode(content: YNode[] = [], style: NodeStyle = ''): YNode {
  return newNode('sequence', { tag: '!!seq', content, style });
}

export function documentNode(root: YNode | undefined): YNode {
  return newNode('document', { content: root ? [root] : [] });
}

/** Whether `node` or a node below it has a head, line or foot comment. Allocates nothing for a leaf. */
export function hasComments(node: YNode): boolean {
  if (node.headComment || node.lineComment || node.footComment) return true;
  if (node.content.length === 0) return false;
  const stack: YNode[] = [...node.content];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.headComment || n.lineComment || n.footComment) return true;
    for (const c of n.content) stack.push(c);
  }
  return false;
}

/** Deep copy. Aliases are re-pointed to the copies of their anchors when those are inside the copy. */
export function cloneNode(node: YNode): YNode {
  const copies = new Map<YNode, YNode>();
  const copy = (n: YNode): YNode => {
    const c = copyNode(n);
    copies.set(n, c);
    c.content = n.content.map(copy);
    return c;
  };
  const out = copy(node);
  const fix = (n: YNode): void => {
    if (n.alias) n.alias = copies.get(n.alias) ?? n.alias;
    for (const ch of n.content) fix(ch);
  };
  fix(out);
  return out;
}

/** Value node of `key` in a mapping (first match, as go-yaml), or undefined. */
export function mapGet(map: YNode, key: string): YNode | undefined {
  const c = map.content;
  for (let i = 0; i + 1 < c.length; i += 2) {
    if (c[i].value === key && c[i].kind === 'scalar') return c[i + 1];
  }
  return undefined;
}

/** Index of `key` in a mapping's content (the key's index), or -1. */
export function mapIndexOf(map: YNode, key: string): number {
  const c = map.content;
  for (let i = 0; i + 1 < c.length; i += 2) {
    if (c[i].value === key && c[i].kind === 'scalar') return i;
  }
  return -1;
}
