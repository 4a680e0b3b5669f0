/**
 * kustomize `replacements` field paths, split and looked up exactly as kustomize does:
 * - `smarterPathSplit`: `SmarterPathSplitter(path, ".")` (kubernetes-sigs/kustomize
 *   kyaml/utils/pathsplitter.go at kyaml/v0.19.0; the same code is api/internal/utils at
 *   api/v0.10.1): `\.` escapes a dot, a bracketed part spanning dots is kept whole when it holds
 *   `=` (`[name=a.b]`) and unbracketed otherwise (`[a.b]` is the map key `a.b`);
 * - `pathGet`: kyaml's `PathGetter` (`Lookup` / `LookupCreate`, kyaml/yaml/fns.go at
 *   kyaml/v0.13.6 and kyaml/v0.19.0), with its errors and messages per version.
 * A lookup walks `Loc`s: a node and its path in the object, or no path when kyaml appended the
 * node under a null scalar (its `Content`, which no encoder writes): such nodes are "detached"
 * and an edit of them changes nothing in the output, as upstream.
 * Errors are `KyamlPathError`s carrying kyaml's message; callers add their own prefix.
 */
import {
  cloneNode,
  documentNode,
  emitYamlDocument,
  type KubeObject,
  mapIndexOf,
  mappingNode,
  newNode,
  type NodeKind,
  type PathSegment,
  resolvePlainTag,
  sequenceNode,
  strNode,
  type YNode,
} from '../../sdk/index.ts';

/** The kyaml generation whose lookups and messages to follow. */
export type KyamlDialect = 'v0.13' | 'v0.19';

export class KyamlPathError extends Error {}

/** A node reached by a lookup; `path` is undefined for a detached node (see the file comment). */
export interface Loc {
  node: YNode;
  path: PathSegment[] | undefined;
}

/** kustomize `PathSplitter` then `SmarterPathSplitter` with delimiter `.`. */
export function smarterPathSplit(path: string): string[] {
  let ps = path.split('.');
  if (ps.length > 1 && ps[0] === '') ps = ps.slice(1);
  const split: string[] = [ps[0]];
  for (let i = 1; i < ps.length; i++) {
    const last = split.length - 1;
    if (split[last].endsWith('\\')) split[last] = `${split[last].slice(0, -1)}.${ps[i]}`;
    else split.push(ps[i]);
  }
  const result: string[] = [];
  for (let i = 0; i < split.length; i++) {
    const elem = split[i];
    if (!(elem.startsWith('[') && !elem.endsWith(']'))) {
      result.push(elem);
      continue;
    }
    const bracketed = [elem];
    while (i < split.length - 1) {
      i++;
      bracketed.push(split[i]);
      if (split[i].endsWith(']')) break;
    }
    const joined = bracketed.join('.');
    result.push(joined.includes('=') ? joined : joined.replace(/^[[\]]+/, '').replace(/[[\]]+$/, ''));
  }
  return result;
}

export const isNull = (n: YNode): boolean => n.tag === '!!null';
export const isListIndex = (p: string): boolean => p.startsWith('[') && p.endsWith(']');
/** Go `strconv.Atoi` succeeds (decimal digits, optional sign). */
const isAtoi = (p: string): boolean => /^[+-]?[0-9]+$/.test(p);

/** kyaml `SplitIndexNameValue`: `[name=value]` → [name, value]; `[=value]` → ['', value]. */
export function splitIndexNameValue(p: string): [string, string] {
  const elem = p.replace(/\]$/, '').replace(/^\[/, '');
  const eq = elem.indexOf('=');
  if (eq < 0) throw new KyamlPathError('list path element must contain fieldName=fieldValue for element to match');
  return [elem.slice(0, eq), elem.slice(eq + 1)];
}

const KIND_NAMES: Record<NodeKind, string> = {
  document: 'DocumentNode',
  mapping: 'MappingNode',
  sequence: 'SequenceNode',
  scalar: 'ScalarNode',
  alias: 'AliasNode',
};

/** kyaml `String(node)`: the node encoded alone (indent 2, compact sequences). */
export function kyamlString(n: YNode): string {
  return emitYamlDocument(documentNode(cloneNode(n)), 'compact');
}

/**
 * kyaml `ErrorIfInvalid(rn, kind)`: a null node passes; another kind is an error, worded per
 * version (`fieldPath` is the node's kyaml field path, used by v0.13 only).
 */
export function requireKind(n: YNode, want: NodeKind, dialect: KyamlDialect, fieldPath: readonly string[]): void {
  if (isNull(n) || n.kind === want) return;
  if (dialect === 'v0.19') {
    throw new KyamlPathError(
      `wrong node kind: expected ${KIND_NAMES[want]} but got ${KIND_NAMES[n.kind]}: node contents:\n${kyamlString(n)}`,
    );
  }
  throw new KyamlPathError(
    `wrong Node Kind for ${fieldPath.join('.')} expected: ${KIND_NAMES[want]} was ${KIND_NAMES[n.kind]}: value: {${kyamlString(n).trim()}}`,
  );
}

/**
 * A node kyaml creates without a tag (`&yaml.Node{Kind: k}`): block collections, or a scalar
 * that the caller gives its text later (see `settleCreatedScalar`).
 */
export function untaggedNode(kind: NodeKind): YNode {
  if (kind === 'mapping') return mappingNode();
  if (kind === 'sequence') return sequenceNode();
  return newNode('scalar', { tag: '' });
}

/**
 * The tag an untagged scalar gets when the function's output is read back (the fn SDK re-parses
 * every item): what its plain text resolves to; multi-line text is written as a literal block.
 */
export function settleCreatedScalar(n: YNode): void {
  if (n.kind === 'scalar' && n.tag === '') n.tag = n.value.includes('\n') ? '!!str' : resolvePlainTag(n.value);
}

/** The child at `key` of a mapping Loc, creating it (attached, or detached under a null). */
export function addField(obj: KubeObject, at: Loc, key: string, fresh: YNode): Loc {
  if (at.path && at.node.kind === 'mapping') {
    const path = [...at.path, key];
    obj.set(path, fresh);
    return { node: obj.getNode(path)!, path };
  }
  at.node.content = [...at.node.content, keyNode(key), fresh];
  return { node: fresh, path: undefined };
}

/** Appends an element to a sequence Loc (attached), or to a null node's content (detached). */
export function appendElement(obj: KubeObject, at: Loc, fresh: YNode): Loc {
  if (at.path && at.node.kind === 'sequence') {
    const path = [...at.path, at.node.content.length];
    obj.set(path, fresh);
    return { node: obj.getNode(path)!, path };
  }
  at.node.content = [...at.node.content, fresh];
  return { node: fresh, path: undefined };
}

/** A mapping key kyaml creates untagged (`{Kind: ScalarNode, Value: name}`). */
export function keyNode(name: string): YNode {
  return newNode('scalar', { value: name, tag: resolvePlainTag(name) });
}

/** A child keeps a path only under an attached mapping or list (not under a null scalar). */
function childLoc(at: Loc, seg: PathSegment, node: YNode): Loc {
  const attached = at.path && (at.node.kind === 'mapping' || at.node.kind === 'sequence');
  return { node, path: attached ? [...at.path!, seg] : undefined };
}

export function fieldOf(at: Loc, key: string): Loc | undefined {
  const i = mapIndexOf(at.node, key);
  return i < 0 ? undefined : childLoc(at, key, at.node.content[i + 1]);
}

export function elementOf(at: Loc, index: number): Loc {
  return childLoc(at, index, at.node.content[index]);
}

export interface GetOptions {
  dialect: KyamlDialect;
  /** `LookupCreate(kind, …)`: the kind of a created last node (v0.13 `LookupCreate` only). */
  create?: NodeKind;
}

/**
 * kyaml `PathGetter{Path: parts}` on the object: the node reached, or undefined when a part is
 * missing (a null field stops the walk, even with `create`).
 */
export function pathGet(obj: KubeObject, rawParts: readonly string[], opts: GetOptions): Loc | undefined {
  const parts = rawParts.map((p) => p.trim()).filter((p) => p !== '');
  let at: Loc = { node: obj.root, path: [] };
  const fieldPath: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    const next = parts[i + 1] ?? '';
    const here = [...fieldPath];
    let found: Loc | undefined;
    if (isAtoi(part)) {
      const idx = Number(part);
      if (idx < 0) throw new KyamlPathError(`array index ${idx} cannot be negative`);
      requireKind(at.node, 'sequence', opts.dialect, here);
      found = idx < at.node.content.length ? elementOf(at, idx) : undefined;
    } else if (part === '-') {
      requireKind(at.node, 'sequence', opts.dialect, here);
      // An empty list panics upstream (index -1); treated as missing.
      found = at.node.content.length > 0 ? elementOf(at, at.node.content.length - 1) : undefined;
    } else if (part === '*' && opts.dialect === 'v0.19') {
      throw new KyamlPathError('wildcard is not supported in PathGetter');
    } else if (isListIndex(part)) {
      found = matchElement(obj, at, part, opts, here);
    } else {
      fieldPath.push(part);
      found = getField(obj, at, part, next, opts, here);
    }
    if (!found) return undefined;
    at = found;
  }
  return at;
}

/** kyaml `ElementMatcher` for `[name=value]` / `[=value]`: the first exact match, or created. */
function matchElement(obj: KubeObject, at: Loc, part: string, opts: GetOptions, here: string[]): Loc | undefined {
  const [name, value] = splitIndexNameValue(part);
  requireKind(at.node, 'sequence', opts.dialect, here);
  const elements = at.node.content;
  for (let i = 0; i < elements.length; i++) {
    const el = elements[i];
    if (name === '') {
      if (el.value === value) return elementOf(at, i);
      continue;
    }
    if (el.kind !== 'mapping') continue;
    const k = mapIndexOf(el, name);
    if (k >= 0 && el.content[k + 1].value === value) return elementOf(at, i);
  }
  if (opts.create === undefined) return undefined;
  const fresh =
    name === ''
      ? strNode(value)
      : mappingNode([keyNode(name), newNode('scalar', { value, tag: resolvePlainTag(value) })]);
  return appendElement(obj, at, fresh);
}

/** kyaml `Get(name)` / `FieldMatcher{Name, Create}`: a null node has no fields and gets none. */
function getField(
  obj: KubeObject,
  at: Loc,
  name: string,
  next: string,
  opts: GetOptions,
  here: string[],
): Loc | undefined {
  if (isNull(at.node)) return undefined;
  requireKind(at.node, 'mapping', opts.dialect, here);
  const found = fieldOf(at, name);
  if (found || opts.create === undefined) return found;
  return addField(obj, at, name, untaggedNode(partKind(next, opts.create, opts.dialect)));
}

/**
 * The kind of a node created before `nextPart`: a list before `[k=v]` (and, from kyaml v0.19, before
 * an index), the created kind at the end of the path, else a mapping (`getKind` at v0.13.6,
 * `getPathPartKind` at v0.19.0).
 */
export function partKind(nextPart: string, createKind: NodeKind, dialect: KyamlDialect): NodeKind {
  if (isListIndex(nextPart)) return 'sequence';
  if (dialect === 'v0.19' && isAtoi(nextPart) && Number(nextPart) >= 0) return 'sequence';
  if (nextPart === '') return createKind;
  return 'mapping';
}
