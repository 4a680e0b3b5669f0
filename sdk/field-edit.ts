/**
 * Field edits the way kyaml-based catalog functions make them, as one module: every write goes
 * through `KubeObject.set`, so the write guard (`access`, protected annotations) applies to all
 * of them.
 * - `setScalarText`: an existing scalar gets a new text the way `node.Value = v; node.Tag = ""`
 *   does (apply-setters, search-replace): quote style kept, tag re-inferred from the text when
 *   plain, an empty plain value written `""`;
 * - `setMapEntry`: kustomize `filtersutil.SetEntry(key, value, "!!str")` (labels, annotations)
 *   on the mapping at a path (kubernetes-sigs/kustomize api/filters/filtersutil/setters.go,
 *   api/v0.7.1 – api/v0.11.0, over kyaml `FieldSetter`);
 * - `setStringScalar`: kustomize `filtersutil.SetScalar(value)` (namespaces, names).
 */
import { KrmfnError } from '../src/core/errors.ts';
import type { KubeObject } from '../src/core/kube-object.ts';
import type { PathSegment } from '../src/core/field-path.ts';
import { cloneNode, newNode, sequenceNode, type NodeStyle, type YNode } from '../src/core/yaml/node.ts';
import { resolvePlainTag } from '../src/core/yaml/resolve.ts';

export { resolvePlainTag };

/**
 * Replaces the text of the scalar at `path` (which must exist and be a scalar), keeping its
 * comments and quote style: `node.Value = text; node.Tag = ""` in kyaml.
 */
export function setScalarText(obj: KubeObject, path: readonly PathSegment[], text: string): void {
  const current = obj.getNode(path);
  if (!current || current.kind !== 'scalar') throw notScalar(path, current);
  let style = current.style;
  let tag: string;
  if (style === '' || style === 'literal' || style === 'folded') {
    if (text === '') {
      style = 'double';
      tag = '!!str';
    } else tag = style === '' ? resolvePlainTag(text) : '!!str';
  } else tag = '!!str';
  const fresh = newNode('scalar', { value: text, tag, style });
  obj.set([...path], fresh);
  // `set` keeps the existing node (and its comments); make its style exactly the computed one.
  const after = obj.getNode(path);
  if (after) after.style = style;
}

const YAML11_BOOL = /^(y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/;
const YAML11_NULL = /^(~|null|Null|NULL)$/;
const YAML11_INT = /^[-+]?(0b[01_]+|0[0-7_]+|(0|[1-9][0-9_]*)|0x[0-9a-fA-F_]+|[1-9][0-9_]*(:[0-5]?[0-9])+)$/;
const YAML11_FLOAT =
  /^([-+]?(\.[0-9]+|[0-9][0-9_]*(\.[0-9_]*)?)([eE][-+]?[0-9]+)?|[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(inf|Inf|INF)|\.(nan|NaN|NAN))$/;

/**
 * kyaml `IsValueNonString`: the text, read alone by a YAML 1.1 parser (go-yaml v2), is not a
 * string: booleans (`yes`, `on`, ...), nulls, ints (also octal `0755` and base-60 `1:20`),
 * floats, flow collections, `key: value` and `- item` forms, a lone comment. Multi-line and empty
 * texts count as strings; timestamps stay strings in go-yaml v2's untyped decoding.
 */
export function isYaml11NonString(value: string): boolean {
  if (value === '' || value.includes('\n')) return false;
  const t = value.trim();
  if (YAML11_BOOL.test(t) || YAML11_NULL.test(t) || YAML11_INT.test(t) || YAML11_FLOAT.test(t)) return true;
  if ((t.startsWith('[') && t.endsWith(']')) || (t.startsWith('{') && t.endsWith('}'))) return true;
  if (t.startsWith('#') || /^-( |$)/.test(t) || /^[^'"#[{][^#]*?:( |$)/.test(t)) return true;
  return false;
}

/**
 * kustomize `SetEntry(key, value, "!!str")` on the node at `mapPath`: a null target is left as
 * it is (kyaml's `FieldMatcher` never matches on a null node); a mapping gets `key: value` (an
 * existing value keeps its quote style, a new one is double-quoted when YAML 1.1 would not read
 * it as a string); any other node is kyaml's "wrong Node Kind" error.
 */
export function setMapEntry(obj: KubeObject, mapPath: readonly PathSegment[], key: string, value: string): void {
  const map = obj.readNode(mapPath);
  if (!map || (map.kind === 'scalar' && map.tag === '!!null')) return;
  if (map.kind !== 'mapping') {
    throw new FieldEditError(`wrong Node Kind for ${mapPath.join('.')} expected: MappingNode was ${nodeKindName(map)}`);
  }
  const existing = obj.readNode([...mapPath, key]);
  const style =
    existing?.kind === 'scalar' ? existing.style : isYaml11NonString(value) ? ('double' as const) : ('' as const);
  obj.set([...mapPath, key], newNode('scalar', { value, tag: '!!str', style }));
  // `set` may have re-quoted it (`quoteYaml11`); only then is the node edited again.
  const after = obj.readNode([...mapPath, key]);
  if (after && after.style !== style) obj.getNode([...mapPath, key])!.style = style;
}

/**
 * kustomize `SetScalar(value)`: the node at `path` (a scalar or null, or missing: then created)
 * becomes the string `value`, keeping an existing quote style. A mapping or list there is
 * kyaml's "wrong Node Kind" error.
 */
export function setStringScalar(obj: KubeObject, path: readonly PathSegment[], value: string): void {
  const existing = obj.readNode(path);
  if (existing && existing.kind !== 'scalar') {
    throw new FieldEditError(
      `wrong Node Kind for ${path.join('.')} expected: ScalarNode was ${nodeKindName(existing)}`,
    );
  }
  const style = existing ? existing.style : '';
  obj.set([...path], newNode('scalar', { value, tag: '!!str', style }));
  // `set` may have re-quoted it (`quoteYaml11`); only then is the node edited again.
  const after = obj.readNode(path);
  if (after && after.style !== style) obj.getNode(path)!.style = style;
}

/**
 * Replaces the list at `path` with `items` in `style` (the list's comments are kept) and returns
 * the new list node, for callers that move comments afterwards.
 */
export function setListItems(obj: KubeObject, path: readonly PathSegment[], items: YNode[], style: NodeStyle): YNode {
  obj.set([...path], sequenceNode(items, style));
  return obj.getNode(path)!;
}

/**
 * Replaces the node at `path` with a copy of `value` (kustomize replacements' `SetYNode`): the
 * new node takes `value`'s kind, tag, style and comments; where `value` has no comment the
 * target's stays, as kpt's comment restore after a function leaves it (kyaml
 * comments.CopyComments fills only empty slots). The path must exist.
 */
export function replaceNode(obj: KubeObject, path: readonly PathSegment[], value: YNode): void {
  const target = obj.getNode(path);
  if (!target) throw notScalar(path, target);
  const head = value.headComment || target.headComment;
  const line = value.lineComment || target.lineComment;
  const foot = value.footComment || target.footComment;
  const fresh = cloneNode(value);
  fresh.anchor = '';
  obj.set([...path], fresh);
  const after = obj.getNode(path)!;
  // `set` keeps an existing scalar node; make it the exact copy.
  if (after !== fresh) Object.assign(after, fresh);
  after.headComment = head;
  after.lineComment = line;
  after.footComment = foot;
}

/** An edit the target node's kind does not allow (kyaml's "wrong Node Kind" errors). */
export class FieldEditError extends KrmfnError {
  constructor(message: string) {
    super({ code: 'field-type', message });
  }
}

function notScalar(path: readonly PathSegment[], n: YNode | undefined): FieldEditError {
  return new FieldEditError(`cannot set ${path.join('.')}: ${n ? `it is a ${n.kind}` : 'it does not exist'}`);
}

function nodeKindName(n: YNode): string {
  return n.kind === 'mapping' ? 'MappingNode' : n.kind === 'sequence' ? 'SequenceNode' : 'ScalarNode';
}
