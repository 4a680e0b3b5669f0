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
 * - Typed getters (`getString`, `getNumber`, `getBool`, `getMap`, `getList`) return undefined when
 *   the field is missing (or null) and throw `FieldTypeError` (code 'field-type', with the path)
 *   when it holds another type. The identity getters (`kind`, `name`, ...) never throw.
 * - `access` guards writes: 'full' (the engine, default) allows everything; 'guarded' (what SDK
 *   functions get) refuses to change the orchestrator's annotations (`PROTECTED_ANNOTATIONS`) with
 *   `ProtectedFieldError`; 'read-only' (validators) refuses every write with `ReadOnlyError`.
 *   Every write path honours it: `set`, `delete`, `setComment` and `editTree` (in-place node edits).
 * - Edits are tracked (`takeEdits`, bits of `EDITS`), so the engine can skip the work a round trip
 *   would redo on items a function did not change (docs/architecture.md, "One function call"):
 *   `none` until anything changes; `values` after `set`s of plain values (strings, numbers,
 *   booleans, null) on absent or scalar fields under keys of at most 40 characters without a line
 *   break and not through an alias, edits that never add what `normalizeAfterFunction` rewrites
 *   (comments, folded scalars, `? ` keys; a scalar node or an empty collection node without
 *   comments, not folded, counts as plain), with `annotations` when the path is under
 *   `metadata.annotations` (or is `metadata`) and `identity` when it is under `apiVersion`,
 *   `kind`, `metadata.name` (or is `metadata`); `unknown` after any other write, and as soon as a
 *   node of the tree is handed out (`doc`, `root`, `getNode`, `editTree`), since whoever holds a
 *   node can change it unseen. `readNode` is `getNode` for readers that promise not to change
 *   what it returns.
 */
import { KrmfnError } from './errors.ts';
import { formatFieldPath, parseFieldPath, type FieldPathInput, type PathSegment } from './field-path.ts';
import { knownScope } from './kube-scope.ts';
import { fromJS, isYNode, scalarToJS, toJS } from './yaml/convert.ts';
import {
  cloneNode,
  documentNode,
  hasComments,
  mapGet,
  mapIndexOf,
  mappingNode,
  sequenceNode,
  strNode,
  type YNode,
} from './yaml/node.ts';

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

/** Annotations only the orchestrator may write (docs/sdk.md, "Design"). */
export const PROTECTED_ANNOTATIONS: readonly string[] = Object.freeze([
  ANNOTATIONS.id,
  ANNOTATIONS.legacyId,
  ANNOTATIONS.seqIndent,
  ANNOTATIONS.migrationId,
  ANNOTATIONS.packagePath,
  ANNOTATIONS.upstreamIdentifier,
]);

export type ObjectAccess = 'full' | 'guarded' | 'read-only';

/** A field holds a different type than the caller asked for. */
export class FieldTypeError extends KrmfnError {
  readonly path: string;
  constructor(path: readonly PathSegment[], expected: string, actual: string) {
    const p = formatFieldPath(path);
    super({ code: 'field-type', message: `${p}: expected ${expected}, found ${actual}` });
    this.name = 'FieldTypeError';
    this.path = p;
  }
}

/** A function tried to change an annotation owned by the orchestrator. */
export class ProtectedFieldError extends KrmfnError {
  constructor(key: string) {
    super({
      code: 'protected-field',
      message: `annotation ${key} is set by the orchestrator and cannot be changed by a function`,
    });
    this.name = 'ProtectedFieldError';
  }
}

/** A validator (or any read-only view) tried to change an object. */
export class ReadOnlyError extends KrmfnError {
  constructor(what: string) {
    super({
      code: 'read-only',
      message: `cannot change ${what}: the object is read-only (validators may not edit items)`,
    });
    this.name = 'ReadOnlyError';
  }
}

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

/** Where an object came from: reader annotations (internal form first, legacy second). */
export interface ObjectSource {
  path: string;
  index: number;
  /** 1-based line of the object's first key in the text it was parsed from (0 when unknown). */
  line: number;
}

/** Comments attached to a field: head (lines above), line (same line), foot (lines below). */
export interface FieldComments {
  head?: string;
  line?: string;
  foot?: string;
}

/** The identity paths, shared by every read (getNode walks a segment array without copying it). */
const API_VERSION_PATH: readonly PathSegment[] = Object.freeze(['apiVersion']);
const KIND_PATH: readonly PathSegment[] = Object.freeze(['kind']);
const NAME_PATH: readonly PathSegment[] = Object.freeze(['metadata', 'name']);
const NAMESPACE_PATH: readonly PathSegment[] = Object.freeze(['metadata', 'namespace']);

/** Bits of what changed in an object's tree since the last `takeEdits` (see the class contract). */
export const EDITS = Object.freeze({ none: 0, values: 1, annotations: 2, identity: 4, unknown: 8 });

/** The `EDITS` bits a tracked `set` at `segs` adds besides `values`. */
function pathEdits(segs: readonly PathSegment[]): number {
  const top = segs[0];
  if (top === 'apiVersion' || top === 'kind') return EDITS.identity;
  if (top !== 'metadata') return 0;
  if (segs.length === 1) return EDITS.identity | EDITS.annotations;
  return segs[1] === 'name' ? EDITS.identity : segs[1] === 'annotations' ? EDITS.annotations : 0;
}

/** A mapping key `set` may create without making go-yaml write it in the explicit `? ` form. */
const plainKey = (seg: PathSegment): boolean => typeof seg === 'number' || (seg.length <= 40 && !seg.includes('\n'));

/**
 * A value `set` writes without adding anything `normalizeAfterFunction` rewrites: plain data other
 * than a collection, or a scalar or empty collection node without comments that is not folded.
 */
function keepsNormalForm(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (!isYNode(value)) return false;
  const n = value;
  const leafOrEmpty =
    n.kind === 'scalar' || ((n.kind === 'mapping' || n.kind === 'sequence') && n.content.length === 0);
  return leafOrEmpty && n.style !== 'folded' && !n.headComment && !n.lineComment && !n.footComment;
}

export class KubeObject {
  private readonly document: YNode;
  private edits: number = EDITS.unknown;
  /** `watchInput`: null while watching with nothing kept yet, undefined when not watching. */
  private input: YNode | null | undefined = undefined;
  readonly isKubeObject = true;
  /** Write guard; see the class contract. Hosts set it around a function call and restore it. */
  access: ObjectAccess = 'full';
  /**
   * When true, `set` double-quotes plain string values YAML 1.1 would read as booleans or
   * base-60 numbers (`yes`, `on`, `1:20`), which the YAML 1.2 emitter leaves plain. Off by default
   * (kpt's node edits write them plain); the SDK turns it on for authored functions.
   */
  quoteYaml11 = false;

  constructor(doc: YNode) {
    if (doc.kind !== 'document') doc = documentNode(doc);
    this.document = doc;
  }

  /** The document node (kind 'document'); its single child is the object's root mapping. Handing it out counts as an unknown edit. */
  get doc(): YNode {
    this.unknownEdit();
    return this.document;
  }

  /**
   * Keeps, from the next unknown edit on, a deep copy of the document as it is now: the function
   * input kyaml copies comments from after a call (src/engine/call-objects.ts). Only unknown edits
   * can change comments, so an object no function edits that way is never copied, nor one
   * without comments.
   */
  watchInput(): void {
    this.input = null;
  }

  /** The copy `watchInput` kept (undefined when no unknown edit came since), and stops watching. */
  takeInput(): YNode | undefined {
    const input = this.input ?? undefined;
    this.input = undefined;
    return input;
  }

  private unknownEdit(): void {
    // A tree without comments has none to copy: an empty document stands for it.
    if (this.input === null && this.edits !== EDITS.unknown)
      this.input = hasComments(this.document) ? cloneNode(this.document) : documentNode(undefined);
    this.edits = EDITS.unknown;
  }

  /** The `EDITS` bits of the edits since the last call (see the class contract); counts anew from none. */
  takeEdits(): number {
    const e = this.edits;
    this.edits = EDITS.none;
    return e;
  }

  /** A new object from plain data (`{apiVersion, kind, metadata, ...}`). */
  static fromJS(value: Record<string, unknown>): KubeObject {
    return new KubeObject(documentNode(fromJS(value)));
  }

  /** The root node (normally a mapping); created empty when the document has none. Handing it out counts as an unknown edit. */
  get root(): YNode {
    this.unknownEdit();
    return this.rootNode();
  }

  private rootNode(): YNode {
    let r = this.document.content[0];
    if (!r) {
      r = mappingNode();
      this.document.content.push(r);
    }
    return r;
  }

  // ---- identity -------------------------------------------------------------------------

  get apiVersion(): string {
    return this.text(API_VERSION_PATH);
  }
  get kind(): string {
    return this.text(KIND_PATH);
  }
  get name(): string {
    return this.text(NAME_PATH);
  }
  get namespace(): string {
    return this.text(NAMESPACE_PATH);
  }
  /** API group: '' for the core group (`v1`). */
  get group(): string {
    const av = this.apiVersion;
    const i = av.lastIndexOf('/');
    return i < 0 ? '' : av.slice(0, i);
  }
  get version(): string {
    const av = this.apiVersion;
    return av.slice(av.lastIndexOf('/') + 1);
  }
  get gvk(): GroupVersionKind {
    return { group: this.group, version: this.version, kind: this.kind };
  }
  /** `group/version/kind/namespace/name` (empty parts kept), a stable key for maps. */
  get id(): string {
    return `${this.group}/${this.version}/${this.kind}/${this.namespace}/${this.name}`;
  }
  /** `config.kubernetes.io/local-config` is set to anything but '' or "false" (kyaml's rule). */
  get isLocalConfig(): boolean {
    const v = this.lenientAnnotation(ANNOTATIONS.localConfig);
    return v !== undefined && v !== '' && v !== 'false';
  }
  /** Known namespaced kind, or an unknown kind that has `metadata.namespace` (kyaml `IsNamespaceScoped`). */
  get isNamespaceScoped(): boolean {
    const s = knownScope(this.apiVersion, this.kind);
    if (s !== 'unknown') return s === 'namespaced';
    return this.namespace !== '';
  }
  get isClusterScoped(): boolean {
    return !this.isNamespaceScoped;
  }
  /** Exact apiVersion and kind; an empty argument matches anything (old-SDK `IsGVK`). */
  isKind(kind: string, apiVersion = ''): boolean {
    return (kind === '' || this.kind === kind) && (apiVersion === '' || this.apiVersion === apiVersion);
  }
  /** Group, version and kind; empty arguments are wildcards (new-SDK `IsGVK`). */
  isGVK(group: string, version: string, kind: string): boolean {
    return (
      (group === '' || this.group === group) &&
      (version === '' || this.version === version) &&
      (kind === '' || this.kind === kind)
    );
  }

  /** Reader annotations: internal form first, legacy second; undefined when the object has no path. */
  get source(): ObjectSource | undefined {
    const path = this.lenientAnnotation(ANNOTATIONS.internalPath) ?? this.lenientAnnotation(ANNOTATIONS.path);
    if (path === undefined) return undefined;
    const idx = this.lenientAnnotation(ANNOTATIONS.internalIndex) ?? this.lenientAnnotation(ANNOTATIONS.index) ?? '0';
    const n = Number(idx);
    return { path, index: Number.isInteger(n) ? n : 0, line: this.rootNode().content[0]?.line ?? this.rootNode().line };
  }

  /**
   * Sets the path (and index, default 0) in every annotation form the object already uses; an
   * object with neither form gets both (docs/sdk.md, "Wire format").
   */
  setSource(src: { path: string; index?: number }): void {
    const hasLegacy =
      this.lenientAnnotation(ANNOTATIONS.path) !== undefined || this.lenientAnnotation(ANNOTATIONS.index) !== undefined;
    const hasInternal =
      this.lenientAnnotation(ANNOTATIONS.internalPath) !== undefined ||
      this.lenientAnnotation(ANNOTATIONS.internalIndex) !== undefined;
    const both = !hasLegacy && !hasInternal;
    const index = String(src.index ?? 0);
    if (hasLegacy || both) {
      this.setAnnotation(ANNOTATIONS.path, src.path);
      this.setAnnotation(ANNOTATIONS.index, index);
    }
    if (hasInternal || both) {
      this.setAnnotation(ANNOTATIONS.internalPath, src.path);
      this.setAnnotation(ANNOTATIONS.internalIndex, index);
    }
  }

  // ---- reading --------------------------------------------------------------------------

  /** The node at `path`, or undefined. Aliases are followed. Handing it out counts as an unknown edit. */
  getNode(path: FieldPathInput): YNode | undefined {
    this.unknownEdit();
    return this.readNode(path);
  }

  /**
   * `getNode` for reading only: the caller must not change the node or anything below it (the
   * object does not count it as an edit, so a change made through it would go unseen).
   */
  readNode(path: FieldPathInput): YNode | undefined {
    // A segment array is walked as given (no copy): this is every field read's path.
    const segs = typeof path === 'string' ? parseFieldPath(path) : path;
    let node: YNode | undefined = this.rootNode();
    for (let i = 0; i < segs.length; i++) {
      node = deref(node);
      if (!node) return undefined;
      node = childOf(node, segs[i]);
    }
    return deref(node);
  }

  has(path: FieldPathInput): boolean {
    return this.readNode(path) !== undefined;
  }

  /** Plain data at `path` (fresh copy), or `fallback` when missing. */
  get(path: FieldPathInput, fallback?: unknown): unknown {
    const n = this.readNode(path);
    return n === undefined ? fallback : toJS(n);
  }

  /** The scalar text at `path` (any scalar tag: `5` reads as "5"); undefined when missing or null. */
  getString(path: FieldPathInput): string | undefined {
    const n = this.typed(path, 'string');
    return n?.value;
  }

  getNumber(path: FieldPathInput): number | undefined {
    const segs = parseFieldPath(path);
    const n = this.typed(segs, 'number');
    if (!n) return undefined;
    if (n.tag !== '!!int' && n.tag !== '!!float') throw new FieldTypeError(segs, 'number', describe(n));
    const v = scalarToJS(n);
    return typeof v === 'bigint' ? Number(v) : (v as number);
  }

  getBool(path: FieldPathInput): boolean | undefined {
    const segs = parseFieldPath(path);
    const n = this.typed(segs, 'boolean');
    if (!n) return undefined;
    if (n.tag !== '!!bool') throw new FieldTypeError(segs, 'boolean', describe(n));
    return scalarToJS(n) as boolean;
  }

  getMap(path: FieldPathInput): Record<string, unknown> | undefined {
    const segs = parseFieldPath(path);
    const n = this.readNode(segs);
    if (!n || isNull(n)) return undefined;
    if (n.kind !== 'mapping') throw new FieldTypeError(segs, 'map', describe(n));
    return toJS(n) as Record<string, unknown>;
  }

  getList(path: FieldPathInput): unknown[] | undefined {
    const segs = parseFieldPath(path);
    const n = this.readNode(segs);
    if (!n || isNull(n)) return undefined;
    if (n.kind !== 'sequence') throw new FieldTypeError(segs, 'list', describe(n));
    return toJS(n) as unknown[];
  }

  // ---- writing --------------------------------------------------------------------------

  /** Sets `path` to a plain value or a node. See the class contract for what is preserved. */
  set(path: FieldPathInput, value: unknown): void {
    const segs = parseFieldPath(path);
    if (segs.length === 0) throw new KrmfnError({ code: 'usage', message: 'cannot set the object root' });
    this.checkWrite(segs, value, false);
    let parent = this.rootNode();
    let aliased = false;
    for (let i = 0; i < segs.length - 1; i++) {
      const seg = segs[i];
      const child = childOf(parent, seg);
      if (child?.kind === 'alias') aliased = true;
      let next = deref(child);
      if (!next || next.kind === 'scalar') {
        next = typeof segs[i + 1] === 'number' ? sequenceNode() : mappingNode();
        setChild(parent, seg, next, path);
      }
      parent = next;
    }
    const last = segs[segs.length - 1];
    const existing = childOf(parent, last);
    if (this.edits !== EDITS.unknown) {
      const plain =
        !aliased && keepsNormalForm(value) && (!existing || existing.kind === 'scalar') && segs.every(plainKey);
      if (plain) this.edits |= EDITS.values | pathEdits(segs);
      else this.unknownEdit();
    }
    const fresh = fromJS(value);
    if (this.quoteYaml11) quoteYaml11Strings(fresh);
    if (existing && existing.kind === 'scalar' && fresh.kind === 'scalar') {
      if (fresh.style === 'double' && existing.style === '') existing.style = 'double';
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
    const parent = parentPath.length ? this.readNode(parentPath) : this.rootNode();
    if (!parent) return false;
    const last = segs[segs.length - 1];
    if (parent.kind === 'mapping' && typeof last === 'string') {
      const i = mapIndexOf(parent, last);
      if (i < 0) return false;
      this.checkWrite(segs, undefined, true);
      this.unknownEdit();
      parent.content.splice(i, 2);
      return true;
    }
    if (parent.kind === 'sequence' && typeof last === 'number') {
      if (last >= parent.content.length) return false;
      this.checkWrite(segs, undefined, true);
      this.unknownEdit();
      parent.content.splice(last, 1);
      return true;
    }
    return false;
  }

  /**
   * Applies the changes `recipe` makes to a plain copy of the object, merging only what changed
   * into the node tree: comments, styles and key order of everything else survive (kpt#3923).
   * `recipe` may mutate the draft in place or return a replacement.
   */
  edit<T extends object = Record<string, unknown>>(recipe: (draft: T) => T | void): void {
    const before = this.toJS();
    const draft = toJS(this.document) as T; // a second fresh copy (toJS never shares)
    const after = (recipe(draft) ?? draft) as Record<string, unknown>;
    mergeInto(this, [], before, after);
  }

  /** A plain snapshot typed as `T` (for example a `kubernetes-models` interface). */
  as<T = Record<string, unknown>>(): T {
    return this.toJS() as T;
  }

  /** An annotation's value; undefined when absent (or not a scalar: annotations never throw). */
  getAnnotation(key: string): string | undefined {
    return this.lenientAnnotation(key);
  }
  setAnnotation(key: string, value: string): void {
    this.set(['metadata', 'annotations', key], value);
  }
  /** Removes one annotation; removing the last one drops the `annotations` map. */
  removeAnnotation(key: string): boolean {
    const removed = this.delete(['metadata', 'annotations', key]);
    if (removed) this.pruneEmpty(['metadata', 'annotations']);
    return removed;
  }
  /** A label's value; undefined when absent (or not a scalar). */
  getLabel(key: string): string | undefined {
    const n = this.readNode(['metadata', 'labels', key]);
    return n && n.kind === 'scalar' && n.tag !== '!!null' ? n.value : undefined;
  }
  setLabel(key: string, value: string): void {
    this.set(['metadata', 'labels', key], value);
  }
  /** Removes one label; removing the last one drops the `labels` map. */
  removeLabel(key: string): boolean {
    const removed = this.delete(['metadata', 'labels', key]);
    if (removed) this.pruneEmpty(['metadata', 'labels']);
    return removed;
  }

  /** All annotations as plain strings, in document order. */
  annotations(): Record<string, string> {
    return stringMap(this.readNode(['metadata', 'annotations']));
  }
  labels(): Record<string, string> {
    return stringMap(this.readNode(['metadata', 'labels']));
  }

  // ---- comments -------------------------------------------------------------------------

  /**
   * Comments of the field at `path` (the root for `[]`). Comment text keeps its `#` markers, lines
   * joined by `\n`. A mapping field's head comment lives on its key node (go-yaml's model); its
   * line comment on the value for scalars, on the key for collections.
   */
  comments(path: FieldPathInput): FieldComments {
    const at = this.locate(parseFieldPath(path));
    if (!at) return {};
    const out: FieldComments = {};
    const head = at.key?.headComment || at.value.headComment;
    const line = at.value.lineComment || at.key?.lineComment || '';
    const foot = at.value.footComment || at.key?.footComment || '';
    if (head) out.head = head;
    if (line) out.line = line;
    if (foot) out.foot = foot;
    return out;
  }

  /**
   * Runs `edit` on the node tree, for the changes `set` and `setComment` cannot express (a comment
   * moved between a key and its value, a style, a list appended in place, key order), under the
   * same write guard: a read-only object refuses it (`ReadOnlyError`); on a guarded one the
   * protected annotations must be unchanged afterwards (else `ProtectedFieldError`).
   */
  editTree(edit: (root: YNode) => void): void {
    if (this.access === 'read-only') throw new ReadOnlyError('the object');
    this.unknownEdit();
    if (this.access === 'full') return edit(this.rootNode());
    const before = PROTECTED_ANNOTATIONS.map((k) => this.lenientAnnotation(k));
    edit(this.rootNode());
    PROTECTED_ANNOTATIONS.forEach((k, i) => {
      if (this.lenientAnnotation(k) !== before[i]) throw new ProtectedFieldError(k);
    });
  }

  /** Sets (or clears with '') the given comment slots; lines without `#` get `# ` prepended. */
  setComment(path: FieldPathInput, c: FieldComments): void {
    const segs = parseFieldPath(path);
    if (this.access === 'read-only') throw new ReadOnlyError(formatFieldPath(segs) || 'the object');
    const at = this.locate(segs);
    if (!at) throw new KrmfnError({ code: 'usage', message: `cannot comment ${formatFieldPath(segs)}: no such field` });
    this.unknownEdit();
    const fmt = (t: string): string =>
      t === ''
        ? ''
        : t
            .split('\n')
            .map((l) => (l.startsWith('#') || l === '' ? l : `# ${l}`))
            .join('\n');
    const headNode = at.key ?? at.value;
    if (c.head !== undefined) {
      headNode.headComment = fmt(c.head);
      if (at.key) at.value.headComment = '';
    }
    if (c.line !== undefined) {
      const lineNode = at.key && at.value.kind !== 'scalar' ? at.key : at.value;
      lineNode.lineComment = fmt(c.line);
    }
    if (c.foot !== undefined) (at.key ?? at.value).footComment = fmt(c.foot);
  }

  // ---- output ---------------------------------------------------------------------------

  /** The whole object as plain data. */
  toJS(): Record<string, unknown> {
    const v = toJS(this.document);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  }
  toJSON(): Record<string, unknown> {
    return this.toJS();
  }

  /** A deep copy (node tree included); the copy has 'full' access. */
  clone(): KubeObject {
    return new KubeObject(cloneNode(this.document));
  }

  // ---- internals ------------------------------------------------------------------------

  private text(segs: readonly PathSegment[]): string {
    const n = this.readNode(segs);
    return n && n.kind === 'scalar' && n.tag !== '!!null' ? n.value : '';
  }

  /** An annotation's string value, read without allocating a path (identity and local-config reads are hot). */
  private lenientAnnotation(key: string): string | undefined {
    const root = deref(this.rootNode());
    const meta = root && deref(childOf(root, 'metadata'));
    const ann = meta && deref(childOf(meta, 'annotations'));
    const n = ann && deref(childOf(ann, key));
    return n && n.kind === 'scalar' && n.tag !== '!!null' ? n.value : undefined;
  }

  /** The scalar at `path`, undefined when missing/null; FieldTypeError when it is a collection. */
  private typed(path: FieldPathInput, expected: string): YNode | undefined {
    const segs = parseFieldPath(path);
    const n = this.readNode(segs);
    if (!n || isNull(n)) return undefined;
    if (n.kind !== 'scalar') throw new FieldTypeError(segs, expected, describe(n));
    return n;
  }

  private locate(segs: PathSegment[]): { key?: YNode; value: YNode } | undefined {
    if (segs.length === 0) return { value: this.rootNode() };
    const parent = segs.length === 1 ? this.rootNode() : this.readNode(segs.slice(0, -1));
    if (!parent) return undefined;
    const last = segs[segs.length - 1];
    if (parent.kind === 'mapping') {
      const i = mapIndexOf(parent, String(last));
      if (i < 0) return undefined;
      return { key: parent.content[i], value: parent.content[i + 1] };
    }
    if (parent.kind === 'sequence' && typeof last === 'number' && last < parent.content.length) {
      return { value: parent.content[last] };
    }
    return undefined;
  }

  private pruneEmpty(segs: PathSegment[]): void {
    const n = this.readNode(segs);
    if (n && n.kind === 'mapping' && n.content.length === 0) this.delete(segs);
  }

  /** Enforces `access` for a write of `value` (or a delete) at `segs`. */
  private checkWrite(segs: PathSegment[], value: unknown, isDelete: boolean): void {
    if (this.access === 'full') return;
    if (this.access === 'read-only') throw new ReadOnlyError(formatFieldPath(segs));
    for (const key of PROTECTED_ANNOTATIONS) {
      const target: PathSegment[] = ['metadata', 'annotations', key];
      const n = Math.min(segs.length, target.length);
      let prefix = true;
      for (let i = 0; i < n; i++) if (segs[i] !== target[i]) prefix = false;
      if (!prefix) continue;
      const current = this.lenientAnnotation(key);
      if (segs.length >= target.length) {
        if (isDelete ? current !== undefined : current !== String(value)) throw new ProtectedFieldError(key);
        continue;
      }
      // Writing (or deleting) an ancestor: refuse only if the protected value would change.
      if (current === undefined) continue;
      if (isDelete) throw new ProtectedFieldError(key);
      let v: unknown = value;
      for (const s of target.slice(segs.length))
        v = v && typeof v === 'object' ? (v as Record<string, unknown>)[String(s)] : undefined;
      if (v !== current) throw new ProtectedFieldError(key);
    }
  }
}

export function isKubeObject(v: unknown): v is KubeObject {
  return typeof v === 'object' && v !== null && (v as { isKubeObject?: unknown }).isKubeObject === true;
}

const YAML11_NON_STRING =
  /^(y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF|[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?|[-+]?[0-9][0-9]*(_[0-9]+)+)$/;

/** Whether YAML 1.1 reads this plain text as a non-string (go-yaml v3 double-quotes such strings). */
export function isYaml11NonString(value: string): boolean {
  return YAML11_NON_STRING.test(value);
}

/** Double-quotes plain `!!str` scalars YAML 1.1 reads as non-strings, in a freshly built tree. */
export function quoteYaml11Strings(n: YNode): void {
  if (n.kind === 'scalar') {
    if (n.tag === '!!str' && n.style === '' && YAML11_NON_STRING.test(n.value)) n.style = 'double';
    return;
  }
  for (let i = 0; i < n.content.length; i++) {
    // Keys stay as they are; only values are quoted.
    if (n.kind === 'mapping' && i % 2 === 0) continue;
    quoteYaml11Strings(n.content[i]);
  }
}

function isNull(n: YNode): boolean {
  return n.kind === 'scalar' && n.tag === '!!null';
}

function describe(n: YNode): string {
  if (n.kind === 'mapping') return 'map';
  if (n.kind === 'sequence') return 'list';
  switch (n.tag) {
    case '!!int':
    case '!!float':
      return `number ${n.value}`;
    case '!!bool':
      return `boolean ${n.value}`;
    case '!!null':
      return 'null';
    default:
      return `string ${JSON.stringify(n.value)}`;
  }
}

/** Writes the differences between `before` and `after` (plain data) at `path` of `obj`. */
function mergeInto(obj: KubeObject, path: PathSegment[], before: unknown, after: unknown): void {
  const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isMap(before) && isMap(after)) {
    for (const k of Object.keys(before)) if (!(k in after) || after[k] === undefined) obj.delete([...path, k]);
    for (const [k, v] of Object.entries(after)) {
      if (v === undefined) continue;
      if (k in before) mergeInto(obj, [...path, k], before[k], v);
      else obj.set([...path, k], v);
    }
    return;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const common = Math.min(before.length, after.length);
    for (let i = 0; i < common; i++) mergeInto(obj, [...path, i], before[i], after[i]);
    for (let i = before.length - 1; i >= after.length; i--) obj.delete([...path, i]);
    for (let i = before.length; i < after.length; i++) obj.set([...path, i], after[i]);
    return;
  }
  if (Object.is(before, after)) return;
  if (path.length === 0) throw new KrmfnError({ code: 'usage', message: 'edit() must return an object' });
  obj.set(path, after);
}

function deref(n: YNode | undefined): YNode | undefined {
  let guard = 0;
  while (n && n.kind === 'alias' && guard++ < 100) n = n.alias ?? undefined;
  return n;
}

function childOf(node: YNode, seg: PathSegment): YNode | undefined {
  if (node.kind === 'mapping') return mapGet(node, typeof seg === 'string' ? seg : String(seg));
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
    const v = n.content[i + 1];
    out[n.content[i].value] = v.kind === 'scalar' ? v.value : '';
  }
  return out;
}
