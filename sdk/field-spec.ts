/**
 * kustomize FieldSpecs (`{group, version, kind, path: "a/b/c", create}`): the one FieldSpec
 * library of krmfn (config reader, GVK matcher, walker). Semantics follow kustomize's
 * `api/filters/fieldspec/fieldspec.go` (kubernetes-sigs/kustomize, tags api/v0.7.1, api/v0.8.11,
 * api/v0.11.0, the versions the catalog functions pin) over kyaml's `Lookup`/`LookupCreate`
 * (`kyaml/yaml/fns.go`, kyaml/v0.10.5 – v0.13.6):
 * - the GVK matches when every non-empty part of the spec equals the object's (group and version
 *   split at the first `/` of apiVersion, `resid.ParseGroupVersion`);
 * - `path` splits at `/`; `\/` keeps a slash inside a key; empty segments are not dropped (an
 *   empty segment that is reached is an error);
 * - `name[]` marks a list: it is looked up, never created, and each existing item is walked;
 *   an existing null `name[]` becomes an empty list (`[]`), as kustomize's kind hint does;
 * - a list met along the path without `[]` is walked item by item too;
 * - a null or missing field ends the walk, except with `create` and a creation kind: missing
 *   intermediates (and null ones) become empty mappings, the last field is created with the
 *   caller's kind (a mapping, or a scalar the visitor writes);
 * - a scalar met before the path ends is an error (`expected sequence or mapping node`).
 * Every change goes through `KubeObject.set`, so the write guard applies.
 */
import { KrmfnError } from '../src/core/errors.ts';
import type { KubeObject } from '../src/core/kube-object.ts';
import type { PathSegment } from '../src/core/field-path.ts';
import { mappingNode, sequenceNode, type YNode } from '../src/core/yaml/node.ts';

export interface FieldSpec {
  group?: string;
  version?: string;
  kind?: string;
  path: string;
  create?: boolean;
}

/** A kustomize GVK selector (`resid.Gvk`): empty parts are wildcards. */
export interface GvkSelector {
  group?: string;
  version?: string;
  kind?: string;
}

/** JSON Schema of one FieldSpec (for function config schemas). */
export const FIELD_SPEC_SCHEMA = Object.freeze({
  type: 'object',
  required: ['path'],
  properties: {
    group: { type: 'string' },
    version: { type: 'string' },
    kind: { type: 'string' },
    path: { type: 'string', description: '`/`-separated field path; `x[]` walks the items of list `x`.' },
    create: { type: 'boolean' },
  },
});

/**
 * The FieldSpecs of a config value (a list of `{group, version, kind, path, create}` maps), read
 * as Go's yaml decoding into `[]types.FieldSpec` would: entries without a string `path` are
 * skipped, non-string GVK parts are ignored, `create` is true only when it is `true`.
 */
export function parseFieldSpecs(value: unknown): FieldSpec[] {
  if (!Array.isArray(value)) return [];
  const out: FieldSpec[] = [];
  for (const v of value) {
    if (!v || typeof v !== 'object' || Array.isArray(v)) continue;
    const o = v as Record<string, unknown>;
    if (typeof o.path !== 'string') continue;
    const fs: FieldSpec = { path: o.path };
    if (typeof o.group === 'string') fs.group = o.group;
    if (typeof o.version === 'string') fs.version = o.version;
    if (typeof o.kind === 'string') fs.kind = o.kind;
    if (o.create === true) fs.create = true;
    out.push(fs);
  }
  return out;
}

/** `apps/v1` → {apps, v1}; `v1` → {'', v1} (kustomize `resid.ParseGroupVersion`: first `/`). */
export function parseGroupVersion(apiVersion: string): { group: string; version: string } {
  const i = apiVersion.indexOf('/');
  return i < 0
    ? { group: '', version: apiVersion }
    : { group: apiVersion.slice(0, i), version: apiVersion.slice(i + 1) };
}

/** kustomize's `Gvk.IsSelected` / fieldspec `isMatchGVK`: every non-empty part must be equal. */
export function matchesGvk(obj: KubeObject, sel: GvkSelector): boolean {
  if (sel.kind && sel.kind !== obj.kind) return false;
  const gv = parseGroupVersion(obj.apiVersion);
  if (sel.group && sel.group !== gv.group) return false;
  if (sel.version && sel.version !== gv.version) return false;
  return true;
}

/** kustomize `utils.PathSplitter(path, "/")`: `\/` keeps the slash; empty parts are kept. */
export function splitFieldSpecPath(path: string): string[] {
  const parts = path.split('/');
  const out = [parts[0]];
  for (let i = 1; i < parts.length; i++) {
    const last = out.length - 1;
    if (out[last].endsWith('\\')) out[last] = `${out[last].slice(0, -1)}/${parts[i]}`;
    else out.push(parts[i]);
  }
  return out;
}

/** A FieldSpec path that cannot be walked on an object (kustomize returns these as errors). */
export class FieldSpecError extends KrmfnError {
  readonly fieldSpecPath: string;
  readonly reason: string;
  constructor(fieldSpecPath: string, reason: string) {
    super({ code: 'field-type', message: `considering field '${fieldSpecPath}': ${reason}` });
    this.fieldSpecPath = fieldSpecPath;
    this.reason = reason;
  }
}

/** What the walk creates at the end of the path when the spec says `create` (kustomize `CreateKind`). */
export type CreateKind = 'mapping' | 'scalar';

export interface WalkOptions {
  /** Omitted: the walk never creates anything, whatever the spec says. */
  createKind?: CreateKind;
}

/**
 * Calls `visit` with the path of every target of `fs` in `obj` (see the module contract). The
 * target exists when visited, except with `createKind: 'scalar'`, where a missing last field is
 * left for `visit` to write. Objects whose GVK does not match are skipped. Throws
 * `FieldSpecError` where kustomize's filter fails.
 */
export function walkFieldSpec(
  obj: KubeObject,
  fs: FieldSpec,
  visit: (path: PathSegment[]) => void,
  opts: WalkOptions = {},
): void {
  if (!matchesGvk(obj, fs)) return;
  const segs = splitFieldSpecPath(fs.path);
  const createKind = fs.create ? opts.createKind : undefined;
  const rec = (path: PathSegment[], i: number): void => {
    if (i === segs.length) {
      visit(path);
      return;
    }
    const node = obj.readNode(path);
    if (!node || isNull(node)) return;
    if (node.kind === 'sequence') {
      for (let k = 0; k < node.content.length; k++) rec([...path, k], i);
      return;
    }
    if (node.kind !== 'mapping') throw new FieldSpecError(fs.path, 'expected sequence or mapping node');
    const raw = segs[i];
    const isSeq = raw.endsWith('[]');
    const name = isSeq ? raw.slice(0, -2) : raw;
    if (name === '') throw new FieldSpecError(fs.path, 'cannot set or create an empty field name');
    const last = i === segs.length - 1;
    const kind: CreateKind | 'sequence' | undefined =
      !createKind || isSeq ? (isSeq ? 'sequence' : undefined) : last ? createKind : 'mapping';
    const fieldPath = [...path, name];
    const field = obj.readNode(fieldPath);
    const creates = !!createKind && !isSeq;
    if (!field) {
      if (!creates) return;
      if (kind === 'mapping') obj.set(fieldPath, mappingNode());
      // A scalar is created by the visitor's write.
    } else if (isNull(field) && kind === 'mapping') obj.set(fieldPath, mappingNode());
    else if (isNull(field) && kind === 'sequence') obj.set(fieldPath, sequenceNode([], 'flow'));
    rec(fieldPath, i + 1);
  };
  rec([], 0);
}

function isNull(n: YNode): boolean {
  return n.kind === 'scalar' && n.tag === '!!null';
}
