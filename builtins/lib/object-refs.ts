/**
 * Object renames with reference fixing, as the catalog's `bind` packages do them
 * (GoogleContainerTools/kpt-functions-catalog `functions/go/bind/pkg/rename/rename.go` and
 * `functions/go/bind/pkg/meta/*.go` at tag `set-name-prefix/v0.0.3`, on kpt-functions-sdk/go/fn
 * 5fa523b306fe). Used by set-name-prefix.
 *
 * `renameObject` renames (and re-namespaces) one object, then visits every reference in every
 * object and points the ones that named the old object at the new name. References are:
 * `metadata.namespace` (a reference to a Namespace), `metadata.ownerReferences[]` (and their
 * `namespace`), and the fields of `REF_INFOS` for exact GVKs. Errors are thrown as `RenameError`
 * with upstream's message; a walk that dereferences a missing intermediate field throws
 * `GoPanic`, because upstream crashes there (`visitFields` calls a method on a nil SubObject).
 * An error leaves the edits made before it in place, as upstream does.
 */
import type { KubeObject } from '../../sdk/index.ts';
import { GoPanic, NIL_DEREFERENCE } from './go-panic.ts';
import { goQuote } from './report.ts';

export class RenameError extends Error {}

interface Gvk {
  group: string;
  version: string;
  kind: string;
}

/** Go's `schema.GroupVersionKind.String()`. */
function gvkString(g: Gvk): string {
  return `${g.group}/${g.version}, Kind=${g.kind}`;
}

/** Go's `schema.ParseGroupVersion` (error text included). */
function parseGroupVersion(apiVersion: string): { group: string; version: string } {
  if (apiVersion === '' || apiVersion === '/') return { group: '', version: '' };
  const parts = apiVersion.split('/');
  if (parts.length === 1) return { group: '', version: apiVersion };
  if (parts.length === 2) return { group: parts[0], version: parts[1] };
  throw new RenameError(`unexpected GroupVersion string: ${apiVersion}`);
}

function gvkOf(obj: KubeObject): Gvk {
  let gv = { group: '', version: '' };
  try {
    gv = parseGroupVersion(obj.apiVersion);
  } catch {
    // The Go SDK's GroupVersionKind() ignores a parse error.
  }
  return { ...gv, kind: obj.kind };
}

const same = (a: Gvk, b: Gvk): boolean => a.group === b.group && a.version === b.version && a.kind === b.kind;

const G = (group: string, version: string, kind: string): Gvk => ({ group, version, kind });
const CNRM_CLUSTER = G('container.cnrm.cloud.google.com', 'v1beta1', 'ContainerCluster');
const CNRM_NODE_POOL = G('container.cnrm.cloud.google.com', 'v1beta1', 'ContainerNodePool');
const IAM_MEMBER = G('iam.cnrm.cloud.google.com', 'v1beta1', 'IAMPolicyMember');
const IAM_SA = G('iam.cnrm.cloud.google.com', 'v1beta1', 'IAMServiceAccount');
const IAM_PARTIAL = G('iam.cnrm.cloud.google.com', 'v1beta1', 'IAMPartialPolicy');
const PROJECT = G('resourcemanager.cnrm.cloud.google.com', 'v1beta1', 'Project');
const FOLDER = G('resourcemanager.cnrm.cloud.google.com', 'v1beta1', 'Folder');
const ROLE = G('rbac.authorization.k8s.io', 'v1', 'Role');
const CLUSTER_ROLE = G('rbac.authorization.k8s.io', 'v1', 'ClusterRole');
const ROLE_BINDING = G('rbac.authorization.k8s.io', 'v1', 'RoleBinding');
const SERVICE_ACCOUNT = G('', 'v1', 'ServiceAccount');
const WI_BINDING = G('config.porch.kpt.dev', 'v1alpha1', 'WorkloadIdentityBinding');

/** Upstream `kindInfos`: the only kinds whose scope it knows (anything else is an error). */
const CLUSTER_SCOPED: readonly [Gvk, boolean][] = [
  [CNRM_CLUSTER, false],
  [CNRM_NODE_POOL, false],
  [IAM_MEMBER, false],
  [IAM_SA, false],
  [PROJECT, false],
  [FOLDER, false],
  [CLUSTER_ROLE, true],
  [ROLE, false],
  [SERVICE_ACCOUNT, false],
  [WI_BINDING, false],
];

function isClusterScoped(g: Gvk): boolean {
  const hit = CLUSTER_SCOPED.find(([k]) => same(k, g));
  if (!hit) throw new RenameError(`kind ${gvkString(g)} not known`);
  return hit[1];
}

interface RefInfo {
  gvk: Gvk;
  fieldPath: string;
  /** undefined: any target (upstream's nil); [] an explicit empty list. */
  targets: readonly Gvk[] | undefined;
  namespaceFieldPath?: string;
}

/** Upstream `refInfos`, in its order. */
const REF_INFOS: readonly RefInfo[] = [
  { gvk: CNRM_NODE_POOL, fieldPath: 'spec.clusterRef', targets: [CNRM_CLUSTER] },
  { gvk: CNRM_NODE_POOL, fieldPath: 'spec.nodeConfig.serviceAccountRef', targets: [IAM_SA] },
  { gvk: IAM_MEMBER, fieldPath: 'spec.memberFrom.serviceAccountRef', targets: [IAM_SA] },
  { gvk: FOLDER, fieldPath: 'spec.folderRef', targets: [FOLDER], namespaceFieldPath: 'namespace' },
  { gvk: PROJECT, fieldPath: 'spec.folderRef', targets: [FOLDER], namespaceFieldPath: 'namespace' },
  { gvk: IAM_MEMBER, fieldPath: 'spec.resourceRef', targets: undefined, namespaceFieldPath: 'namespace' },
  { gvk: IAM_PARTIAL, fieldPath: 'spec.resourceRef', targets: [] },
  { gvk: IAM_PARTIAL, fieldPath: 'spec.bindings[].members[].memberFrom.serviceAccountRef', targets: [IAM_SA] },
  {
    gvk: G('serviceusage.cnrm.cloud.google.com', 'v1beta1', 'Service'),
    fieldPath: 'spec.projectRef',
    targets: [PROJECT],
    namespaceFieldPath: 'namespace',
  },
  { gvk: ROLE_BINDING, fieldPath: 'roleRef', targets: [ROLE, CLUSTER_ROLE] },
  {
    gvk: ROLE_BINDING,
    fieldPath: 'subjects[]',
    targets: [
      G('rbac.authorization.k8s.io', 'v1', 'User'),
      G('rbac.authorization.k8s.io', 'v1', 'Group'),
      SERVICE_ACCOUNT,
    ],
  },
  { gvk: WI_BINDING, fieldPath: 'spec.resourceRef', targets: [IAM_SA] },
  { gvk: WI_BINDING, fieldPath: 'spec.serviceAccountRef', targets: [SERVICE_ACCOUNT], namespaceFieldPath: 'namespace' },
];

/** A reference to an object, with the edits upstream can make through it. */
export interface Ref {
  group: string;
  kind: string;
  name: string;
  namespace: string;
  setName(name: string): void;
  /** Throws RenameError when the reference cannot carry a namespace. */
  setNamespace(namespace: string): void;
}

type Path = (string | number)[];

/** A located sub-mapping of an object (upstream's SubObject); `undefined` is upstream's nil. */
interface Sub {
  obj: KubeObject;
  path: Path;
  value: Record<string, unknown>;
}

function str(sub: Sub, key: string): string {
  const v = sub.value[key];
  return typeof v === 'string' ? v : '';
}

function childMap(sub: Sub | undefined, key: string): Sub | undefined {
  if (!sub) throw new GoPanic(NIL_DEREFERENCE);
  if (!(key in sub.value)) return undefined;
  const v = sub.value[key];
  return {
    obj: sub.obj,
    path: [...sub.path, key],
    value: v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {},
  };
}

function childSlice(sub: Sub | undefined, key: string): Sub[] {
  if (!sub) throw new GoPanic(NIL_DEREFERENCE);
  const v = sub.value[key];
  if (!Array.isArray(v)) return [];
  return v.map((e, i) => ({
    obj: sub.obj,
    path: [...sub.path, key, i],
    value: e && typeof e === 'object' && !Array.isArray(e) ? (e as Record<string, unknown>) : {},
  }));
}

function namespaceRef(obj: KubeObject, path: Path, name: string): Ref {
  return {
    group: '',
    kind: 'Namespace',
    name,
    namespace: '',
    setName: (n) => obj.set(path, n),
    setNamespace: () => {
      throw new RenameError('cannot set namespace on Namespace ref');
    },
  };
}

function ownerRefs(obj: KubeObject): Ref[] {
  const refs: Ref[] = [];
  const root: Sub = { obj, path: [], value: obj.toJS() };
  const meta = childMap(root, 'metadata');
  for (const o of meta ? childSlice(meta, 'ownerReferences') : []) {
    const namespace = str(o, 'namespace') || obj.namespace;
    const name = str(o, 'name');
    if (name === '') throw new RenameError('expected name to be set');
    const apiVersion = str(o, 'apiVersion');
    if (apiVersion === '') throw new RenameError('expected apiVersion to be set');
    const kind = str(o, 'kind');
    if (kind === '') throw new RenameError('expected kind to be set');
    const gv = parseRefApiVersion(apiVersion);
    refs.push({
      group: gv.group,
      kind,
      name,
      namespace,
      setName: (n) => obj.set([...o.path, 'name'], n),
      setNamespace: (ns) => {
        if (ns !== namespace) throw new RenameError('cannot change namespace on ownerReference');
      },
    });
    if (namespace !== '') {
      // Upstream reads the owner reference's own `namespace` here, so an inherited one fails.
      const own = str(o, 'namespace');
      if (own === '') throw new RenameError('expected namespace to be set');
      refs.push(namespaceRef(obj, [...o.path, 'namespace'], own));
    }
  }
  return refs;
}

function parseRefApiVersion(apiVersion: string): { group: string; version: string } {
  try {
    return parseGroupVersion(apiVersion);
  } catch (e) {
    throw new RenameError(`error parsing apiVersion ${goQuote(apiVersion)}: ${(e as Error).message}`);
  }
}

function qualifiedRef(info: RefInfo, obj: KubeObject, ref: Sub): Ref {
  const name = str(ref, 'name');
  let namespace = str(ref, 'namespace');
  let apiVersion = str(ref, 'apiVersion');
  const apiGroup = str(ref, 'apiGroup');
  let kind = str(ref, 'kind');
  const where = `${gvkString(info.gvk)}:${info.fieldPath}`;
  let targets = info.targets ?? [];
  if (kind === '' || apiVersion === '') {
    if (targets.length === 0) {
      if (kind === '') throw new RenameError(`expected kind to be specified in ref ${where}`);
      throw new RenameError(`expected apiVersion to be specified in ref ${where}`);
    }
    if (kind !== '') {
      targets = targets.filter((t) => t.kind === kind && (apiGroup === '' || t.group === apiGroup));
      if (targets.length === 0)
        throw new RenameError(`unexpected target kind=${goQuote(kind)}, group=${goQuote(apiGroup)}`);
    }
    if (targets.length !== 1) throw new RenameError('found multiple target kinds');
    const t = targets[0];
    if (kind === '') kind = t.kind;
    if (apiVersion === '') apiVersion = t.group === '' ? t.version : `${t.group}/${t.version}`;
  }
  const target: Gvk = { ...parseRefApiVersion(apiVersion), kind };
  if (info.targets?.length === 1 && !same(info.targets[0], target)) {
    throw new RenameError(
      `unexpected GVK for path ${goQuote(info.fieldPath)}: got ${gvkString(target)} want ${gvkString(info.targets[0])}`,
    );
  }
  const clusterScoped = isClusterScoped(target);
  if (namespace === '' && !clusterScoped) namespace = obj.namespace;
  if (clusterScoped && namespace !== '')
    throw new RenameError(`namespace not expected on cluster-scoped kind ${gvkString(target)}`);
  if (name === '') throw new RenameError('name not set on reference');
  const nsPath = info.namespaceFieldPath?.split('.');
  return {
    group: target.group,
    kind: target.kind,
    name,
    namespace,
    setName: (n) => obj.set([...ref.path, 'name'], n),
    setNamespace: (ns) => {
      if (!nsPath) throw new RenameError(`ref does not support changing namespace: ${gvkString(target)}`);
      obj.set([...ref.path, ...nsPath], ns);
    },
  };
}

function visitFields(
  info: RefInfo,
  obj: KubeObject,
  sub: Sub | undefined,
  fields: string[],
  visit: (r: Ref) => void,
): void {
  if (fields.length === 0) {
    if (!sub || str(sub, 'external') !== '') return;
    visit(qualifiedRef(info, obj, sub));
    if (info.namespaceFieldPath) {
      const nsPath = info.namespaceFieldPath.split('.');
      const ns = obj.getString([...sub.path, ...nsPath]) ?? '';
      if (ns !== '') visit(namespaceRef(obj, [...sub.path, ...nsPath], ns));
    }
    return;
  }
  const [field, ...rest] = fields as [string, ...string[]];
  if (field.endsWith('[]')) {
    for (const child of childSlice(sub, field.slice(0, -2))) visitFields(info, obj, child, rest, visit);
    return;
  }
  visitFields(info, obj, childMap(sub, field), rest, visit);
}

/** Upstream `meta.VisitRefs`: every reference of every object, in object order. */
export function visitRefs(objects: readonly KubeObject[], visit: (r: Ref) => void): void {
  for (const obj of objects) {
    const gvk = gvkOf(obj);
    const ns = obj.namespace;
    if (ns !== '') visit(namespaceRef(obj, ['metadata', 'namespace'], ns));
    for (const r of ownerRefs(obj)) visit(r);
    for (const info of REF_INFOS) {
      if (!same(info.gvk, gvk)) continue;
      visitFields(info, obj, { obj, path: [], value: obj.toJS() }, info.fieldPath.split('.'), visit);
    }
  }
}

/** The Go SDK's lenient `IsGVK`: a part empty on either side matches. */
function looselyIs(obj: KubeObject, g: Gvk): boolean {
  const o = gvkOf(obj);
  const ok = (a: string, b: string): boolean => a === '' || b === '' || a === b;
  return ok(o.kind, g.kind) && ok(o.group, g.group) && ok(o.version, g.version);
}

/** Upstream `rename.Rename`: renames `object` and every reference to it in `objects`. */
export function renameObject(
  object: KubeObject,
  newName: string,
  newNamespace: string,
  objects: readonly KubeObject[],
): void {
  const oldName = object.name;
  const oldNamespace = object.namespace;
  const apiVersion = object.apiVersion;
  const kind = object.kind;
  if (oldName === '') throw new RenameError('`oldName` is required');
  if (newName === '') throw new RenameError('`name` is required');
  if (apiVersion === '') throw new RenameError('`apiVersion` is required');
  if (kind === '') throw new RenameError('`kind` is required');
  let gv: { group: string; version: string };
  try {
    gv = parseGroupVersion(apiVersion);
  } catch (e) {
    throw new RenameError(`error parsing apiVersion ${goQuote(apiVersion)}: ${(e as Error).message}`);
  }
  const gvk: Gvk = { ...gv, kind };
  const gvText = gv.group === '' ? gv.version : `${gv.group}/${gv.version}`;
  const matches = objects.filter((o) => o.name === oldName && o.namespace === oldNamespace && looselyIs(o, gvk));
  if (matches.length === 0)
    throw new RenameError(`no object found matching ${gvText}/${kind}:${oldNamespace}/${oldName}`);
  if (matches.length > 1)
    throw new RenameError(`multiple objects found matching ${gvText}/${kind}:${newNamespace}/${newName}`);
  for (const m of matches) {
    m.set(['metadata', 'name'], newName);
    // Upstream sets the namespace even when it is empty, adding `namespace: ""`.
    m.set(['metadata', 'namespace'], newNamespace);
  }
  visitRefs(objects, (ref) => {
    if (ref.group !== gvk.group || ref.kind !== gvk.kind) return;
    if (ref.namespace !== oldNamespace || ref.name !== oldName) return;
    ref.setName(newName);
    if (newNamespace !== oldNamespace) ref.setNamespace(newNamespace);
  });
}
