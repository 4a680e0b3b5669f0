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
 * Nodes are plain mutable objects; share none between two trees (use `cloneNode`).
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
 * A fresh node at a source position, every field written in one literal in one order (one hidden
 * class for every node, no spread of an init object): the parser's hot-path constructor.
 */
const NO_CONTENT = Object.freeze([]) as unknown as YNode[];

export function placedNode(kind: NodeKind, tag: string, style: NodeStyle, line: number, column: number): YNode {
  return {
    kind,
    style,
    tagged: false,
    tag,
    value: '',
    anchor: '',
    alias: null,
    content: kind === 'scalar' || kind === 'alias' ? NO_CONTENT : [],
    headComment: '',
    lineComment: '',
    footComment: '',
    line,
    column,
  };
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

/** Deep copy. Aliases are re-pointed to the copies of their anchors when those are inside the copy. */
export function cloneNode(node: YNode): YNode {
  const copies = new Map<YNode, YNode>();
  const copy = (n: YNode): YNode => {
    const c: YNode = { ...n, content: [] };
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
