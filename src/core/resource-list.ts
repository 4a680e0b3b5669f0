/**
 * The ResourceList codec at the function boundary (docs/kpt-semantics.md, "Calling a function").
 *
 * - `serializeResourceList` writes the YAML ResourceList kpt sends to bytes-moving functions:
 *   `apiVersion`, `kind`, `items`, then `functionConfig` when present; compact sequences. Item nodes
 *   are emitted as they are (their annotations are the engine's business).
 * - `parseFunctionOutput` reads what a function printed: a `ResourceList` (or `List`) with `items`
 *   is unwrapped and its `results` kept; any other stream is the complete item list, and those
 *   items get their index annotations restamped with their position. Empty output is zero items.
 * - `parseResultsValue` accepts the current list form and the legacy `{items: [...]}` wrapper, moves
 *   legacy `resourceRef.metadata.{name,namespace}` up and renames `field.suggestedValue`.
 * Errors: YAML problems surface as the YAML layer's KrmfnError; the output being a mapping that is
 * not an object list gives 'invalid-resource-list'.
 */
import { KrmfnError } from './errors.ts';
import { ANNOTATIONS, KubeObject } from './kube-object.ts';
import type { Limits } from './limits.ts';
import type { FieldRef, FileRef, ResourceRef, Result, Severity } from './result.ts';
import { fieldValueNode, rememberFieldSource, type FieldValueStyle } from './result-field-values.ts';
import { toJS } from './yaml/convert.ts';
import { documentNode, mapGet, mappingNode, sequenceNode, strNode, type YNode } from './yaml/node.ts';
import { emitYamlDocument, parseYamlFile } from './yaml/index.ts';

export const RESOURCE_LIST_API_VERSION = 'config.kubernetes.io/v1';

/** The ResourceList document node (items' roots are shared, not copied). */
export function resourceListNode(
  items: readonly KubeObject[],
  functionConfig?: KubeObject,
  results?: readonly Result[],
): YNode {
  const content: YNode[] = [
    strNode('apiVersion'),
    strNode(RESOURCE_LIST_API_VERSION),
    strNode('kind'),
    strNode('ResourceList'),
    strNode('items'),
    sequenceNode(items.map((o) => o.root)),
  ];
  if (functionConfig) content.push(strNode('functionConfig'), functionConfig.root);
  if (results && results.length) content.push(strNode('results'), resultsNode(results));
  return documentNode(mappingNode(content));
}

export function serializeResourceList(items: readonly KubeObject[], functionConfig?: KubeObject): string {
  return emitYamlDocument(resourceListNode(items, functionConfig), 'compact');
}

export interface FunctionOutput {
  items: KubeObject[];
  /** Results the function reported (only from a wrapped ResourceList). */
  results: Result[];
  /** Whether the output was a ResourceList/List (false for a plain stream). */
  wrapped: boolean;
}

function isListKind(root: YNode | undefined): boolean {
  if (!root || root.kind !== 'mapping') return false;
  const kind = mapGet(root, 'kind');
  if (!kind || kind.kind !== 'scalar') return false;
  if (kind.value !== 'ResourceList' && kind.value !== 'List') return false;
  return mapGet(root, 'items') !== undefined || kind.value === 'ResourceList';
}

/** Items of a list node; a bare (non-mapping) item is kept as its own document. */
function itemsOf(root: YNode): KubeObject[] {
  const items = mapGet(root, 'items');
  if (!items || (items.kind === 'scalar' && items.tag === '!!null')) return [];
  if (items.kind !== 'sequence') {
    throw new KrmfnError({ code: 'invalid-resource-list', message: 'ResourceList items must be a list' });
  }
  return items.content.map((n) => new KubeObject(documentNode(n)));
}

export function parseFunctionOutput(
  text: string,
  opts: { file?: string; limits?: Partial<Limits> } = {},
): FunctionOutput {
  const parsed = parseYamlFile(text, opts);
  const first = parsed.docs[0]?.content[0];
  if (parsed.docs.length >= 1 && isListKind(first)) {
    const root = first;
    const resultsAt = mapGet(root, 'results');
    const results = parseResultsValue(toJS(resultsAt, opts.limits), resultsAt);
    const items = itemsOf(root);
    return { items, results, wrapped: true };
  }
  const items = parsed.docs.map((d, i) => {
    const o = new KubeObject(d);
    if (o.root.kind === 'mapping') {
      o.setAnnotation(ANNOTATIONS.index, String(i));
      o.setAnnotation(ANNOTATIONS.internalIndex, String(i));
      if (!o.getAnnotation(ANNOTATIONS.seqIndent))
        o.setAnnotation(ANNOTATIONS.seqIndent, parsed.seqIndent[i] ?? 'compact');
    }
    return o;
  });
  return { items, results: [], wrapped: false };
}

/**
 * A ResourceList or plain stream given as input (eval from stdin). Its functionConfig is ignored.
 * Items of a plain stream get index and seqindent annotations; items of a list keep theirs.
 */
export function parseResourceListInput(
  text: string,
  opts: { file?: string; limits?: Partial<Limits> } = {},
): KubeObject[] {
  const parsed = parseYamlFile(text, opts);
  const first = parsed.docs[0]?.content[0];
  if (parsed.docs.length === 1 && isListKind(first)) {
    const items = itemsOf(first);
    items.forEach((o, i) => {
      if (o.root.kind !== 'mapping') return;
      if (o.getAnnotation(ANNOTATIONS.index) === undefined) o.setAnnotation(ANNOTATIONS.index, String(i));
      if (o.getAnnotation(ANNOTATIONS.internalIndex) === undefined)
        o.setAnnotation(ANNOTATIONS.internalIndex, o.getAnnotation(ANNOTATIONS.index)!);
      if (o.getAnnotation(ANNOTATIONS.seqIndent) === undefined) o.setAnnotation(ANNOTATIONS.seqIndent, 'compact');
    });
    return items;
  }
  return parsed.docs.map((d, i) => {
    const o = new KubeObject(d);
    if (o.root.kind === 'mapping') {
      // kyaml's ByteReader sets these with SetAnnotation, which single-quotes them
      // (kustomize kyaml/yaml/kfns.go at kyaml/v0.15.0).
      for (const [k, v] of [
        [ANNOTATIONS.index, String(i)],
        [ANNOTATIONS.internalIndex, String(i)],
        [ANNOTATIONS.seqIndent, parsed.seqIndent[i] ?? 'compact'],
      ] as const) {
        o.setAnnotation(k, v);
        const n = annotationNode(o, k);
        if (n) n.style = 'single';
      }
    }
    return o;
  });
}

function annotationNode(o: KubeObject, key: string): YNode | undefined {
  const meta = o.root.kind === 'mapping' ? mapGet(o.root, 'metadata') : undefined;
  const ann = meta && meta.kind === 'mapping' ? mapGet(meta, 'annotations') : undefined;
  return ann && ann.kind === 'mapping' ? mapGet(ann, key) : undefined;
}

const SEVERITIES = new Set(['error', 'warning', 'info']);

function str(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  return typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
}

function deref(n: YNode | undefined): YNode | undefined {
  let x = n;
  while (x && x.kind === 'alias' && x.alias) x = x.alias;
  return x;
}

function childOf(n: YNode | undefined, key: string): YNode | undefined {
  const m = deref(n);
  return m && m.kind === 'mapping' ? mapGet(m, key) : undefined;
}

/**
 * Results as a function reported them, in either the list or the legacy wrapper form. With the
 * `results` node they were decoded from, each field's value nodes are remembered for the
 * release-specific form of results files (src/core/result-field-values.ts).
 */
export function parseResultsValue(value: unknown, node?: YNode): Result[] {
  let list: unknown = value;
  let listNode = deref(node);
  if (list && typeof list === 'object' && !Array.isArray(list)) {
    list = (list as { items?: unknown }).items;
    listNode = deref(childOf(listNode, 'items'));
  }
  if (!Array.isArray(list)) return [];
  const itemNodes = listNode && listNode.kind === 'sequence' ? listNode.content : [];
  const out: Result[] = [];
  for (const [at, raw] of list.entries()) {
    if (!raw || typeof raw !== 'object') continue;
    const r = raw as Record<string, unknown>;
    const result: Result = { message: str(r.message) ?? '' };
    const sev = str(r.severity);
    if (sev) result.severity = (SEVERITIES.has(sev) ? sev : sev) as Severity;
    const ref = r.resourceRef as Record<string, unknown> | undefined;
    if (ref && typeof ref === 'object') {
      const meta = (ref.metadata ?? {}) as Record<string, unknown>;
      const rr: ResourceRef = {
        apiVersion: str(ref.apiVersion) ?? '',
        kind: str(ref.kind) ?? '',
        name: str(ref.name) ?? str(meta.name) ?? '',
      };
      const ns = str(ref.namespace) ?? str(meta.namespace);
      if (ns) rr.namespace = ns;
      result.resourceRef = rr;
    }
    const field = r.field as Record<string, unknown> | undefined;
    if (field && typeof field === 'object') {
      const f: FieldRef = { path: str(field.path) ?? '' };
      if (field.currentValue !== undefined) f.currentValue = field.currentValue;
      const proposed = field.suggestedValue !== undefined ? field.suggestedValue : field.proposedValue;
      if (proposed !== undefined) f.proposedValue = proposed;
      const fieldNode = childOf(itemNodes[at], 'field');
      if (fieldNode) {
        // kpt reads `proposedValue`, then lets a legacy `suggestedValue` override it.
        const suggested = childOf(fieldNode, 'suggestedValue');
        const current = childOf(fieldNode, 'currentValue');
        const proposedNode = suggested ?? childOf(fieldNode, 'proposedValue');
        rememberFieldSource(f, {
          ...(current ? { current } : {}),
          ...(proposedNode ? { proposed: proposedNode } : {}),
          ...(suggested ? { suggested: true } : {}),
        });
      }
      result.field = f;
    }
    const file = r.file as Record<string, unknown> | undefined;
    if (file && typeof file === 'object') {
      const fr: FileRef = { path: str(file.path) ?? '' };
      const idx = Number(file.index ?? 0);
      if (Number.isFinite(idx) && idx !== 0) fr.index = idx;
      result.file = fr;
    }
    const tags = r.tags as Record<string, unknown> | undefined;
    if (tags && typeof tags === 'object' && !Array.isArray(tags)) {
      result.tags = Object.fromEntries(Object.entries(tags).map(([k, v]) => [k, str(v) ?? '']));
    }
    out.push(result);
  }
  return out;
}

/** Results as YAML nodes in kpt's key order, omitting empty fields. */
export function resultsNode(results: readonly Result[], fieldValues: FieldValueStyle = 'as-given'): YNode {
  return sequenceNode(results.map((r) => resultNode(r, fieldValues)));
}

function resultNode(r: Result, fieldValues: FieldValueStyle): YNode {
  const c: YNode[] = [];
  const add = (k: string, v: YNode): void => void c.push(strNode(k), v);
  if (r.message) add('message', strNode(r.message));
  if (r.severity) add('severity', strNode(r.severity));
  if (r.resourceRef) {
    const rc: YNode[] = [];
    for (const k of ['apiVersion', 'kind', 'name', 'namespace'] as const) {
      const v = r.resourceRef[k];
      if (v) rc.push(strNode(k), strNode(v));
    }
    add('resourceRef', mappingNode(rc, rc.length ? '' : 'flow'));
  }
  if (r.field) {
    const fc: YNode[] = [];
    if (r.field.path) fc.push(strNode('path'), strNode(r.field.path));
    const current = fieldValueNode(r.field, 'current', fieldValues);
    if (current) fc.push(strNode('currentValue'), current);
    const proposed = fieldValueNode(r.field, 'proposed', fieldValues);
    if (proposed) fc.push(strNode('proposedValue'), proposed);
    add('field', mappingNode(fc, fc.length ? '' : 'flow'));
  }
  if (r.file) {
    const fc: YNode[] = [];
    if (r.file.path) fc.push(strNode('path'), strNode(r.file.path));
    if (r.file.index) fc.push(strNode('index'), { ...strNode(String(r.file.index)), tag: '!!int' });
    add('file', mappingNode(fc, fc.length ? '' : 'flow'));
  }
  if (r.tags && Object.keys(r.tags).length) {
    const tc: YNode[] = [];
    for (const [k, v] of Object.entries(r.tags)) tc.push(strNode(k), strNode(v));
    add('tags', mappingNode(tc));
  }
  return mappingNode(c, c.length ? '' : 'flow');
}
