/**
 * Group/version/kind helpers shared by the catalog built-ins. Pure functions over strings and
 * KubeObjects; no SDK state.
 */
import type { KubeObject } from '../../src/core/kube-object.ts';
import type { FileRef, ResourceRef } from '../../src/core/result.ts';

export interface GroupVersion {
  group: string;
  version: string;
}

/** `apps/v1` → {apps, v1}; `v1` → {'', v1}. */
export function splitApiVersion(apiVersion: string): GroupVersion {
  const i = apiVersion.lastIndexOf('/');
  return i < 0
    ? { group: '', version: apiVersion }
    : { group: apiVersion.slice(0, i), version: apiVersion.slice(i + 1) };
}

export function groupOf(obj: KubeObject): string {
  return splitApiVersion(obj.apiVersion).group;
}

/** A kustomize-style GVK selector: empty parts are wildcards. */
export interface GvkSelector {
  group?: string;
  version?: string;
  kind?: string;
}

export function matchesGvk(obj: KubeObject, sel: GvkSelector): boolean {
  const gv = splitApiVersion(obj.apiVersion);
  if (sel.group && sel.group !== gv.group) return false;
  if (sel.version && sel.version !== gv.version) return false;
  if (sel.kind && sel.kind !== obj.kind) return false;
  return true;
}

/** The file an object came from: internal path annotation first, then the legacy one. */
export function fileRefOf(obj: KubeObject): FileRef | undefined {
  const path =
    obj.getAnnotation('internal.config.kubernetes.io/path') ?? obj.getAnnotation('config.kubernetes.io/path');
  if (path === undefined) return undefined;
  const idx =
    obj.getAnnotation('internal.config.kubernetes.io/index') ?? obj.getAnnotation('config.kubernetes.io/index');
  const n = idx === undefined ? 0 : Number(idx);
  return Number.isInteger(n) && n > 0 ? { path, index: n } : { path };
}

export function resourceRefOf(obj: KubeObject): ResourceRef {
  const ref: ResourceRef = { apiVersion: obj.apiVersion, kind: obj.kind, name: obj.name };
  if (obj.namespace) ref.namespace = obj.namespace;
  return ref;
}

/** `IsLocalConfig` of the Go SDKs: the annotation is present with a value other than '' or 'false'. */
export function isLocalConfig(obj: KubeObject): boolean {
  const v = obj.getAnnotation('config.kubernetes.io/local-config');
  return v !== undefined && v !== '' && v !== 'false';
}

export function isKptfile(obj: KubeObject): boolean {
  return obj.kind === 'Kptfile' && groupOf(obj) === 'kpt.dev';
}

/** Kubernetes' GroupVersionKind string form: `apps/v1, Kind=Deployment`; core group prints as `/v1`. */
export function gvkString(obj: KubeObject): string {
  const gv = splitApiVersion(obj.apiVersion);
  return `${gv.group}/${gv.version}, Kind=${obj.kind}`;
}
