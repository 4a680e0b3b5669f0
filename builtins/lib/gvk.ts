/**
 * Group/version/kind helpers shared by the catalog built-ins. Pure functions over strings and
 * KubeObjects; no SDK state.
 */
import { type FileRef, type KubeObject, parseGroupVersion, type ResourceRef } from '../../sdk/index.ts';

export { matchesGvk, type GvkSelector } from '../../sdk/index.ts';

/** `apps/v1` → {apps, v1}; `v1` → {'', v1} (kustomize `resid.ParseGroupVersion`). */
export const splitApiVersion = parseGroupVersion;

export function groupOf(obj: KubeObject): string {
  return parseGroupVersion(obj.apiVersion).group;
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
