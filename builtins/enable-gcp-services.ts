/**
 * enable-gcp-services: turns every `blueprints.cloud.google.com/v1alpha1 ProjectServiceSet` in the
 * package into Config Connector `serviceusage.cnrm.cloud.google.com/v1beta1 Service` objects, one
 * per listed service, written next to the set; Services the set generated before (owner
 * annotation) are pruned first, so a render regenerates them. Upstream:
 * GoogleContainerTools/kpt-functions-catalog `functions/go/enable-gcp-services/` at tag
 * `enable-gcp-services/v0.1.0` (`main.go`, `gcpservices/project_service_set.go`,
 * `gcpservices/services.go`), on kustomize kyaml v0.13.1-0.20211119203701-d11342489acd (its
 * go.mod): `yaml.SetAnnotation` writes single-quoted values and keeps an existing value's style,
 * `kioutil.CreatePathAnnotationValue` names the file `<dir of the set>/<namespace>/service_<name>.yaml`.
 *
 * Failures as the kyaml framework of that version reports them (`fn/framework/framework.go`,
 * `fn/framework/command/command.go`): exit 1, one error result `failed to add services: <error>`,
 * and the error printed on stderr twice (by the framework without a newline, then by `main`).
 */
import {
  copyComments,
  defineBuiltin,
  defineMutator,
  type FnContext,
  type KubeObject,
  type Result,
  strNode,
  syncOrder,
} from '../sdk/index.ts';
import { fileRefOf } from './lib/gvk.ts';

const SET_API_VERSION = 'blueprints.cloud.google.com/v1alpha1';
const SET_KIND = 'ProjectServiceSet';
const SERVICE_API_VERSION = 'serviceusage.cnrm.cloud.google.com/v1beta1';
const MANAGED_BY = 'blueprints.cloud.google.com/ownerReference';
const LOCAL_CONFIG = 'config.kubernetes.io/local-config';

/** Annotations of the set never copied to its Services (upstream `ignoreAnnotations`). */
const NOT_COPIED = new Set([
  'config.kubernetes.io/path',
  'internal.config.kubernetes.io/path',
  'config.kubernetes.io/index',
  'internal.config.kubernetes.io/index',
  LOCAL_CONFIG,
]);

/**
 * Upstream copies every other annotation of the set, kpt's bookkeeping ones included: the id
 * annotations and `internal.config.kubernetes.io/package-path`, which is what makes kpt file the
 * Services of a subpackage's set inside that subpackage. The kyaml framework's migration id is
 * removed again before output (`kio.ReconcileInternalAnnotations`), so it is not copied.
 */
function copied(key: string): boolean {
  return !NOT_COPIED.has(key) && key !== 'internal.config.kubernetes.io/annotations-migration-resource-id';
}

class ServicesError extends Error {}

interface ServiceSet {
  name: string;
  namespace: string;
  annotations: Record<string, string>;
  services: string[];
  projectID: string;
  dir: string;
  obj: KubeObject;
}

/** Marks the set local config, as upstream's `SetAnnotation` does (existing style kept, new value single-quoted). */
function markLocalConfig(obj: KubeObject): void {
  if (obj.getAnnotation(LOCAL_CONFIG) !== undefined) obj.set(['metadata', 'annotations', LOCAL_CONFIG], 'true');
  else obj.set(['metadata', 'annotations', LOCAL_CONFIG], strNode('true', 'single'));
}

function readSet(obj: KubeObject): ServiceSet {
  const services = obj.get(['spec', 'services']);
  const projectID = obj.get(['spec', 'projectID']);
  const file = fileRefOf(obj)?.path ?? '';
  const slash = file.lastIndexOf('/');
  return {
    name: obj.name,
    namespace: obj.namespace,
    annotations: obj.annotations(),
    services: Array.isArray(services) ? services.map((s) => String(s)) : [],
    projectID: typeof projectID === 'string' ? projectID : '',
    dir: slash < 0 ? '' : file.slice(0, slash),
    obj,
  };
}

/**
 * A Service carries its set's id annotations, so kpt treats it as the set's output: it copies the
 * set's comments onto matching fields and re-syncs key order to the set's (kustomize kyaml
 * `fn/runtime/runtimeutil/runtimeutil.go` `copyCommentsAndSyncOrder` at kyaml/v0.15.0, the kyaml
 * kpt v1.0.0-beta.56 uses). Done here so in-process runs, where no ids travel, write the same files.
 */
function adoptFromSet(set: KubeObject, svc: KubeObject): void {
  copyComments(set.doc, svc.doc);
  syncOrder(set.doc, svc.doc);
}

const ownerValue = (set: ServiceSet): string => `blueprints.cloud.google.com/${SET_KIND}/${set.name}`;

/** Go `path.Join` for the relative slash paths kpt uses. */
function joinPath(...parts: string[]): string {
  const segs = parts
    .join('/')
    .split('/')
    .filter((s) => s !== '' && s !== '.');
  return segs.join('/') || '.';
}

function resultFor(
  message: string,
  apiVersion: string,
  kind: string,
  name: string,
  namespace: string,
  path: string,
): Result {
  return {
    message,
    severity: 'info',
    resourceRef: { apiVersion, kind, name, ...(namespace ? { namespace } : {}) },
    file: { path },
  };
}

/** Upstream's `sortResultItems`: by file path, then by its `resource-ref:…,field:…,message:…` text. */
function sortResults(results: Result[]): void {
  const text = (r: Result): string => {
    const ref = r.resourceRef!;
    return `resource-ref:&{{${ref.apiVersion} ${ref.kind}} {${ref.name} ${ref.namespace ?? ''}}},field:%!s(*framework.Field=<nil>),message:${r.message}`;
  };
  results.sort((a, b) => {
    const pa = a.file?.path ?? '';
    const pb = b.file?.path ?? '';
    if (pa !== pb) return pa < pb ? -1 : 1;
    const ta = text(a);
    const tb = text(b);
    return ta < tb ? -1 : ta > tb ? 1 : 0;
  });
}

function generate(ctx: FnContext<undefined>, set: ServiceSet): Result[] {
  if (set.services.length < 1)
    throw new ServicesError('at least one service must be specified under `spec.services[]`');
  const pruned = new Map<string, Result>();
  for (const o of ctx.items.all) {
    if (o.getAnnotation(MANAGED_BY) !== ownerValue(set)) continue;
    const key = `${o.apiVersion}|${o.kind}|${o.namespace}|${o.name}`;
    pruned.set(key, resultFor('pruned service', o.apiVersion, o.kind, o.name, o.namespace, fileRefOf(o)?.path ?? ''));
    ctx.items.remove(o);
  }
  for (const s of set.services) {
    if (s.split('.').length < 3) throw new ServicesError(`invalid service specified: ${s}`);
  }
  const results: Result[] = [];
  for (const s of set.services) {
    const name = `${set.name}-${s.split('.')[0]}`;
    const annotations: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(set.annotations)) if (copied(k)) annotations[k] = strNode(v, 'single');
    annotations[MANAGED_BY] = strNode(ownerValue(set), 'single');
    const path = joinPath(set.dir, set.namespace, `service_${name}.yaml`);
    const svc = ctx.items.add({
      apiVersion: SERVICE_API_VERSION,
      kind: 'Service',
      metadata: { name, annotations, ...(set.namespace ? { namespace: set.namespace } : {}) },
      spec: { resourceID: s, ...(set.projectID ? { projectRef: { external: set.projectID } } : {}) },
    });
    svc.setSource({ path });
    adoptFromSet(set.obj, svc);
    const key = `${SERVICE_API_VERSION}|Service|${set.namespace}|${name}`;
    const was = pruned.get(key);
    if (was) {
      pruned.delete(key);
      results.push({ ...was, message: 'recreated service', file: { path } });
    } else {
      results.push(resultFor('generated service', SERVICE_API_VERSION, 'Service', name, set.namespace, path));
    }
  }
  return [...pruned.values(), ...results];
}

function run(ctx: FnContext<undefined>): void {
  const sets = ctx.items.all.filter((o) => o.apiVersion === SET_API_VERSION && o.kind === SET_KIND);
  for (const o of sets) markLocalConfig(o);
  const results: Result[] = [];
  try {
    for (const o of sets) results.push(...generate(ctx, readSet(o)));
  } catch (e) {
    if (!(e instanceof ServicesError)) throw e;
    ctx.results.add({ message: `failed to add services: ${e.message}`, severity: 'error' });
    ctx.log(`${e.message}${e.message}`);
    ctx.exitCode = 1;
    return;
  }
  sortResults(results);
  for (const r of results) ctx.results.add(r);
  ctx.exitCode = 0;
}

export const enableGcpServicesFn = defineMutator({
  name: 'enable-gcp-services',
  usage:
    'Generates Config Connector Service objects from ProjectServiceSet resources (pruning the ones it generated before).',
  run,
});

export default defineBuiltin({
  name: 'enable-gcp-services',
  versions: ['v0.1.0'],
  configKinds: [],
  summary: 'Generate Config Connector Service objects from ProjectServiceSet resources',
  fn: enableGcpServicesFn,
});
