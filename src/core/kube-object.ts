/**
 * `KubeObject`: a view over one YAML document node. Reads and writes go straight to the node tree,
 * so comments, key order, quoting, flow/block style and sequence indentation of everything not
 * changed survive. This is the one object model of krmfn: the engine, the built-ins, the Starlark
 * bridge and the SDK all use it (the SDK adds ergonomics on top, no second model).
 *
 * Contract:
 * - `set` merges: an existing scalar keeps its style and comments when only its value changes;
 *   missing mappings are created (appended at the end of their parent, as kyaml does); new string
 *   values are plain `!!str` scalars, which the emitter quotes when YAML would misread them.
 * - `delete` removes a key (or sequence item); it never leaves an empty parent behind unless the
 *   parent existed before (annotations maps are pruned on write by the engine).
 * - Values returned by `get` are fresh plain data; editing them does not edit the object.
 */
import { KrmfnError } from './errors.ts';
import { parseFieldPath, type FieldPathInput, type PathSegment } from './field-path.ts';
import { fromJS, toJS } from './yaml/convert.ts';
import { cloneNode, documentNode, mapGet, mapIndexOf, mappingNode, sequenceNode, strNode, type YNode } from './yaml/node.ts';

export const ANNOTATIONS = Object.freeze({
  path: 'config.kubernetes.io/path',
  index: 'config.kubernetes.io/index',
  internalPath: 'internal.config.kubernetes.io/path',
  internalIndex: 'internal.config.kubernetes.io/index',
  seqIndent: 'internal.config.kubernetes.io/seqindent',
  packagePath: 'internal.config.kubernetes.io/package-path',
  id: 'internal.config.kubernetes.io/id',
  legacyId: 'config.k8s.io/id',
  migrationId: 'internal.config.kubernetes.io/annotations-migration-resource-id',
  kptResourceId: 'internal.config.k8s.io/kpt-resource-id',
  localConfig: 'config.kubernetes.io/local-config',
  upstreamIdentifier: 'internal.kpt.dev/upstream-identifier',
});

export class KubeObject {
  /** The document node (kind 'document'); its single child is the object's root mapping. */
  readonly doc: YNode;
  readonly isKubeObject = true;

  constructor(doc: YNode) {
    if (doc.kind !== 'document') doc = documentNode(doc);
    this.doc = doc;
  }

  /** A new object from plain data (`{apiVersion, kind, metadata, ...}`). */
  static fromJS(value: Record<string, unknown>): KubeObject {
    return new KubeObject(documentNode(fromJS(value)));
  }

  /** The root node (normally a mapping); created empty when the document has none. */
  get root(): YNode {
    let r = this.doc.content[0];
    if (!r) {
      r = mappingNode();
      this.doc.content.push(r);
    }
    return r;
  }

  get apiVersion(): string {
    return this.getString('apiVersion') ?? '';
  }
  get kind(): string {
    return this.getString('kind') ?? '';
  }
  get name(): string {
    return this.getString(['metadata', 'name']) ?? '';
  }
  get namespace(): string {
    return this.getString(['metadata', 'namespace']) ?? '';
  }

  /** The node at `path`, or undefined. Aliases are followed. */
  getNode(path: FieldPathInput): YNode | undefined {
    let node: YNode | undefined = this.root;
    for (const seg of parseFieldPath(path)) {
      node = deref(node);
      if (!node) return undefined;
      node = childOf(node, seg);
    }
    return deref(node);
  }

  has(path: FieldPathInput): boolean {
    return this.getNode(path) !== undefined;
  }

  get(path: FieldPathInput): unknown {
    return toJS(this.getNode(path));
  }

  /** The scalar text at `path` (whatever its tag), or undefined when missing or not a scalar. */
  getString(path: FieldPathInput): string | undefined {
    const n = this.getNode(path);
    if (!n || n.kind !== 'scalar' || n.tag === '!!null') return undefined;
    return n.value;
  }

  /** Sets `path` to a plain value or a node. See the class contract for what is preserved. */
  set(path: FieldPathInput, value: unknown): void {
    const segs = parseFieldPath(path);
    if (segs.length === 0) throw new KrmfnError({ code: 'usage', message: 'cannot set the object root' });
    let parent = this.root;
    for (let i = 0; i < segs.length - 1; i++) {
      const seg = segs[i]!;
      let next = deref(childOf(parent, seg));
      if (!next || next.kind === 'scalar') {
        next = typeof segs[i + 1] === 'number' ? sequenceNode() : mappingNode();
        setChild(parent, seg, next, path);
      }
      parent = next;
    }
    const last = segs[segs.length - 1]!;
    const existing = childOf(parent, last);
    const fresh = fromJS(value);
    if (existing && existing.kind === 'scalar' && fresh.kind === 'scalar') {
      // Keep comments and position; keep the style only if the value stays representable in it.
      existing.value = fresh.value;
      existing.tag = fresh.tag;
      existing.tagged = false;
      if (existing.style !== '' && fresh.tag !== '!!str') existing.style = '';
      return;
    }
    if (existing) {
      fresh.headComment = existing.headComment;
      fresh.lineComment = existing.lineComment;
      fresh.footComment = existing.footComment;
    }
    setChild(parent, last, fresh, path);
  }

  /** Removes `path`. Returns whether something was removed. */
  delete(path: FieldPathInput): boolean {
    const segs = parseFieldPath(path);
    if (segs.length === 0) return false;
    const parentPath = segs.slice(0, -1);
    const parent = parentPath.length ? this.getNode(parentPath) : this.root;
    if (!parent) return false;
    const last = segs[segs.length - 1]!;
    if (parent.kind === 'mapping' && typeof last === 'string') {
      const i = mapIndexOf(parent, last);
      if (i < 0) return false;
      parent.content.splice(i, 2);
      return true;
    }
    if (parent.kind === 'sequence' && typeof last === 'number') {
      if (last >= parent.content.length) return false;
      parent.content.splice(last, 1);
      return true;
    }
    return false;
  }

  getAnnotation(key: string): string | undefined {
    return this.getString(['metadata', 'annotations', key]);
  }
  setAnnotation(key: string, value: string): void {
    this.set(['metadata', 'annotations', key], value);
  }
  removeAnnotation(key: string): boolean {
    return this.delete(['metadata', 'annotations', key]);
  }
  getLabel(key: string): string | undefined {
    return this.getString(['metadata', 'labels', key]);
  }
  setLabel(key: string, value: string): void {
    this.set(['metadata', 'labels', key], value);
  }
  removeLabel(key: string): boolean {
    return this.delete(['metadata', 'labels', key]);
  }

  /** All annotations as plain strings, in document order. */
  annotations(): Record<string, string> {
    return stringMap(this.getNode(['metadata', 'annotations']));
  }
  labels(): Record<string, string> {
    return stringMap(this.getNode(['metadata', 'labels']));
  }

  /** The whole object as plain data. */
  toJS(): Record<string, unknown> {
    const v = toJS(this.doc);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  }

  clone(): KubeObject {
    return new KubeObject(cloneNode(this.doc));
  }
}

export function isKubeObject(v: unknown): v is KubeObject {
  return typeof v === 'object' && v !== null && (v as { isKubeObject?: unknown }).isKubeObject === true;
}

function deref(n: YNode | undefined): YNode | undefined {
  let guard = 0;
  while (n && n.kind === 'alias' && guard++ < 100) n = n.alias ?? undefined;
  return n;
}

function childOf(node: YNode, seg: PathSegment): YNode | undefined {
  if (node.kind === 'mapping') return mapGet(node, String(seg));
  if (node.kind === 'sequence' && typeof seg === 'number') return node.content[seg];
  return undefined;
}

function setChild(parent: YNode, seg: PathSegment, value: YNode, path: FieldPathInput): void {
  if (parent.kind === 'mapping') {
    const key = String(seg);
    const i = mapIndexOf(parent, key);
    if (i >= 0) parent.content[i + 1] = value;
    else parent.content.push(strNode(key), value);
    return;
  }
  if (parent.kind === 'sequence' && typeof seg === 'number') {
    if (seg < parent.content.length) parent.content[seg] = value;
    else if (seg === parent.content.length) parent.content.push(value);
    else throw new KrmfnError({ code: 'field-type', message: `index ${seg} out of range at ${String(path)}` });
    return;
  }
  throw new KrmfnError({ code: 'field-type', message: `cannot set ${String(path)}: parent is a ${parent.kind}` });
}

function stringMap(n: YNode | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!n || n.kind !== 'mapping') return out;
  for (let i = 0; i + 1 < n.content.length; i += 2) {
    const v = n.content[i + 1]!;
    out[n.content[i]!.value] = v.kind === 'scalar' ? v.value : '';
  }
  return out;
}
