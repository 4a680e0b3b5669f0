/**
 * set-namespace (builtins/docs/set-namespace.md), every behaviour generation, selected by the image version:
 * - v0.1.x / v0.2.x: kustomize's namespace transformer over every item (Kptfile included),
 *   kyaml-framework errors (error item, exit 1, `[error] : msg` on stderr), style group B;
 * - v0.3.x: replace the one old namespace (matcher, Namespace object or the common namespace);
 * - v0.4.0–v0.4.1: visit non-local-config items, rewrite namespace fields, depends-on, one info result;
 * - v0.4.2–v0.4.5, v0.5.x / latest: origin-aware matching, `namespaceMatcher`, config errors exit 0
 *   (only the v0.5.0 demo build warns about items without an upstream origin).
 * Known upstream bugs are reproduced (see builtins/docs/set-namespace.md for each decision).
 */
import {
  ANNOTATIONS,
  defineBuiltin,
  defineMutator,
  FIELD_SPEC_SCHEMA,
  FieldEditError,
  FieldSpecError,
  parseFieldSpecs,
  setStringScalar,
  walkFieldSpec,
  knownScope,
  reencodeAsKustomize,
  snapshotKeyOrder,
  versionAtLeast,
  type FieldSpec,
  type FnContext,
  type KubeObject,
  type PathSegment,
} from '../sdk/index.ts';
import { dropKustomizeIgnored } from './lib/kustomize-resmap.ts';
import { kyamlDataMap } from './lib/config.ts';
import { nestedStringError } from './lib/plugin-config.ts';
import { runSetNamespaceFnSdk } from './lib/set-namespace-fn-sdk.ts';
import { sigsYamlString } from './lib/sigs-yaml-string.ts';
import { goMapThenSigsString } from './lib/yaml-v3-roundtrip.ts';

const DEPENDS_ON = 'config.kubernetes.io/depends-on';
const DEPENDS_ON_RE = /^([-.\w]*)\/namespaces\/([-.\w]*)\/([-.\w]*)\/([-.\w]*)$/;

interface Settings {
  namespace: string;
  matcher: string;
  fieldSpecs: FieldSpec[];
}

/** A config problem, reported per the version's SDK generation. */
class BadConfig extends Error {}

type Ctx = FnContext<undefined>;

const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));

// ---- v0.1.x / v0.2.x: kustomize ------------------------------------------------------------

/**
 * What changes between the kustomize-based tags (catalog functions/go/set-namespace at each tag):
 * v0.1.4 adds the `SetNamespace` kind, `additionalNamespaceFields`, the CRD webhook FieldSpec
 * (kustomize api v0.8.11), local-config items and skips empty items; v0.2.0 adds the catalog's
 * own ServiceAccount subjects hack.
 */
interface KustomizeGeneration {
  v014: boolean;
  v02: boolean;
  /** v0.1.0–v0.1.2 decode the config into a Go map and rebuild it (`kyaml.FromMap`) first. */
  goMap: boolean;
}

const FN_CONFIG_API_VERSION = 'fn.kpt.dev/v1alpha1';

function kustomizeConfig(ctx: Ctx, gen: KustomizeGeneration): Settings {
  const fc = ctx.functionConfig;
  const kind = fc?.kind ?? '';
  const apiVersion = fc?.apiVersion ?? '';
  let namespace = '';
  let fieldSpecs: FieldSpec[] = [];
  // `validGVK` in main.go: apiVersion and kind must both match.
  // ConfigMap: kyaml GetDataMap; typed kinds: sigs.k8s.io/yaml into the plugin's `namespace`
  // string (builtins/docs/set-namespace.md, "v0.1.x and v0.2.x config values").
  if (kind === 'ConfigMap' && apiVersion === 'v1') namespace = kyamlDataMap(fc, gen.goMap).get('namespace') ?? '';
  else if (
    (kind === 'SetNamespaceConfig' || (gen.v014 && kind === 'SetNamespace')) &&
    apiVersion === FN_CONFIG_API_VERSION
  ) {
    const nested = nestedStringError(fc!, 'namespace', gen.goMap);
    if (nested !== undefined) throw new BadConfig(nested);
    const node = fc!.getNode(['namespace']);
    namespace = (node && (gen.goMap ? goMapThenSigsString(node) : sigsYamlString(node))) ?? '';
    if (gen.v014) {
      const extra = fc!.get('additionalNamespaceFields');
      const legacy = fc!.get('fieldSpecs');
      // Upstream's message names the wrong field (copied from set-labels): reproduced.
      if (isSet(extra) && isSet(legacy))
        throw new BadConfig('`fieldSpecs` has been deprecated, please rename it to `additionalLabelFields`');
      fieldSpecs = parseFieldSpecs(isSet(extra) ? extra : legacy);
    } else fieldSpecs = parseFieldSpecs(fc!.get('fieldSpecs'));
  } else {
    throw new BadConfig(
      gen.v014
        ? '`functionConfig` must be a `ConfigMap` or `SetNamespace`'
        : 'function config must be a ConfigMap or SetNamespaceConfig',
    );
  }
  if (namespace === '') throw new BadConfig('input namespace cannot be empty');
  return { namespace, matcher: '', fieldSpecs };
}

/** A Go slice decoded from YAML is non-nil when the key holds a list (empty or not). */
const isSet = (v: unknown): boolean => Array.isArray(v);

/** kustomize's built-in `namespace` FieldSpecs (api/konfig/builtinpluginconsts/namespace.go). */
function builtinNamespaceFields(gen: KustomizeGeneration): FieldSpec[] {
  const specs: FieldSpec[] = [
    { path: 'metadata/namespace', create: true },
    { kind: 'Namespace', path: 'metadata/name', create: true },
    { kind: 'RoleBinding', path: 'subjects' },
    { kind: 'ClusterRoleBinding', path: 'subjects' },
    { group: 'apiregistration.k8s.io', kind: 'APIService', path: 'spec/service/namespace', create: true },
  ];
  if (gen.v014)
    specs.push({
      group: 'apiextensions.k8s.io',
      kind: 'CustomResourceDefinition',
      path: 'spec/conversion/webhook/clientConfig/service/namespace',
    });
  return specs;
}

function runKustomize(ctx: Ctx, gen: KustomizeGeneration): void {
  let s: Settings;
  try {
    s = kustomizeConfig(ctx, gen);
  } catch (e) {
    if (!(e instanceof BadConfig)) throw e;
    frameworkError(ctx, `failed to configure function: ${e.message}`);
    return;
  }
  // main.go appends the built-in FieldSpecs after the user's; the namespace filter then drops
  // the ones its hard-coded hacks implement (removeFieldSpecsForHacks).
  const specs = [...s.fieldSpecs, ...builtinNamespaceFields(gen)].filter(
    (fs) =>
      fs.path !== 'metadata/namespace' &&
      !((fs.kind === 'RoleBinding' || fs.kind === 'ClusterRoleBinding') && fs.path === 'subjects'),
  );
  // kustomize api v0.7 (v0.1.0 – v0.1.3) leaves local-config items out of its resource map.
  if (!gen.v014) dropKustomizeIgnored(ctx.items);
  const serviceAccounts = new Set(ctx.items.where((o) => o.kind === 'ServiceAccount').map((o) => o.name));
  try {
    for (const obj of ctx.items) {
      if (gen.v014 && isNilOrEmpty(obj)) continue;
      const before = snapshotKeyOrder(obj);
      // namespace filter: metadata/namespace hack, RoleBinding hack, then the FieldSpecs.
      if (knownScope(obj.apiVersion, obj.kind) !== 'cluster')
        setPath(obj, { path: 'metadata/namespace', create: true }, s.namespace);
      if (obj.kind === 'RoleBinding' || obj.kind === 'ClusterRoleBinding')
        setSubjectNamespaces(obj, s.namespace, (subject) => obj.get([...subject, 'name']) === 'default');
      for (const fs of specs) setPath(obj, fs, s.namespace);
      if (gen.v02 && (obj.kind === 'RoleBinding' || obj.kind === 'ClusterRoleBinding')) {
        // The catalog's own hack: subjects naming a ServiceAccount of the package.
        setSubjectNamespaces(
          obj,
          s.namespace,
          (subject) =>
            obj.get([...subject, 'kind']) === 'ServiceAccount' &&
            serviceAccounts.has(str(obj.get([...subject, 'name']))),
        );
      }
      reencodeAsKustomize(obj, before);
    }
  } catch (e) {
    if (!(e instanceof FieldSpecError || e instanceof FieldEditError)) throw e;
    frameworkError(ctx, `failed to run function: failed to run transformer: ${e.message}`);
  }
}

/** `subjects[*].namespace = namespace` for the subjects `pick` selects (created when missing). */
function setSubjectNamespaces(obj: KubeObject, namespace: string, pick: (subject: PathSegment[]) => boolean): void {
  const subjects = obj.getNode('subjects');
  if (subjects?.kind !== 'sequence') return;
  subjects.content.forEach((_, i) => {
    if (pick(['subjects', i])) setStringScalar(obj, ['subjects', i, 'namespace'], namespace);
  });
}

/** kyaml `RNode.IsNilOrEmpty` on an item: null, an empty map or list, or a zero scalar. */
function isNilOrEmpty(obj: KubeObject): boolean {
  const root = obj.root;
  if (root.kind === 'mapping' || root.kind === 'sequence') return root.content.length === 0;
  return root.kind === 'scalar' && (root.tag === '!!null' || root.value === '');
}

/** kustomize's fsslice filter with `SetScalar(value)` and a scalar creation kind. */
function setPath(obj: KubeObject, fs: FieldSpec, value: string): void {
  walkFieldSpec(obj, fs, (path) => setStringScalar(obj, path, value), { createKind: 'scalar' });
}

/** kyaml framework (v0.10–v0.13) error: an error item, exit 1, the item printed on stderr. */
function frameworkError(ctx: Ctx, message: string): void {
  ctx.results.add({ message, severity: 'error' });
  ctx.log(`[error] : ${message}`);
  ctx.exitCode = 1;
}

// ---- v0.3.x – v0.5.x: kpt-functions-sdk -------------------------------------------------------

/** v0.5.x config (the v0.3/v0.4 one is builtins/lib/set-namespace-fn-sdk.ts). */
function sdkConfig(ctx: Ctx): Settings {
  const fc = ctx.functionConfig;
  const expect = '`ConfigMap.v1` or `SetNamespace.v1alpha1.fn.kpt.dev`';
  if (!fc || Object.keys(fc.toJS()).length === 0) throw new BadConfig(`FunctionConfig is missing. Expect ${expect}`);
  if (fc.kind === 'ConfigMap' && fc.apiVersion === 'v1') {
    let namespace = str(fc.get('data.namespace'));
    const matcher = str(fc.get('data.namespaceMatcher'));
    if (namespace === '') {
      if (fc.name !== 'kptfile.kpt.dev') throw new BadConfig('`data.namespace` should not be empty');
      namespace = str(fc.get('data.name'));
      if (namespace === '') throw new BadConfig('`data.name` should not be empty');
    }
    return { namespace, matcher, fieldSpecs: [] };
  }
  if (fc.kind === 'SetNamespace') {
    const namespace = str(fc.get('namespace'));
    if (namespace === '') throw new BadConfig('`namespace` should not be empty');
    return { namespace, matcher: str(fc.get('namespaceMatcher')), fieldSpecs: [] };
  }
  throw new BadConfig(`unknown functionConfig Kind=${fc.kind} ApiVersion=${fc.apiVersion}, expect ${expect}`);
}

/** The fn SDK's failure: the processor returned false. */
function sdkFailure(ctx: Ctx, message: string, exitCode: number): void {
  ctx.results.error(message);
  if (exitCode !== 0) ctx.log('failed to evaluate function: error: function failure');
  ctx.exitCode = exitCode;
}

const isLocal = (o: KubeObject): boolean => o.isLocalConfig;

/** One namespace field: where it is and whether the version may create it. */
interface NsField {
  obj: KubeObject;
  path: (string | number)[];
  create: boolean;
  /** The origin value it is matched against (v0.5). */
  origin?: string;
}

function subjectFields(obj: KubeObject): NsField[] {
  const out: NsField[] = [];
  const subjects = obj.getNode('subjects');
  if (subjects?.kind !== 'sequence') return out;
  subjects.content.forEach((_, i) => {
    if (obj.has(['subjects', i, 'namespace'])) out.push({ obj, path: ['subjects', i, 'namespace'], create: false });
  });
  return out;
}

const current = (f: NsField): string => str(f.obj.get(f.path));

// ---- v0.5.x / master: origin-aware ----------------------------------------------------------

interface Origin {
  group: string;
  kind: string;
  namespace: string;
  name: string;
}

const resourceId = (o: KubeObject): string =>
  `Resource(apiVersion=${o.apiVersion}, kind=${o.kind}, Namespace=${o.namespace}, Name=${o.name})`;

function originOf(o: KubeObject): Origin {
  const raw = o.getAnnotation(ANNOTATIONS.upstreamIdentifier);
  if (raw !== undefined) {
    const parts = raw.split('|');
    if (parts.length !== 4) {
      throw new BadConfig(
        `annotation ${ANNOTATIONS.upstreamIdentifier}: ${raw} is in bad format. expect "<GROUP>|<KIND>|<NAMESPACE>|<NAME>"`,
      );
    }
    return { group: parts[0], kind: parts[1], namespace: parts[2], name: parts[3] };
  }
  const ns = o.namespace || (o.isNamespaceScoped ? 'default' : '~C');
  return { group: o.group, kind: o.kind, namespace: ns, name: o.name };
}

const effectiveNs = (o: KubeObject): string => o.namespace || (o.isNamespaceScoped ? 'default' : '~C');
const dependsOnId = (o: KubeObject): string => `${o.group}/namespaces/${effectiveNs(o)}/${o.kind}/${o.name}`;

/**
 * The origin-aware function (kptdev/krm-functions-catalog functions/go/set-namespace/transformer/
 * namespace.go since its "New set-namespace with origin logic" change). `warnWithoutOrigin`: list
 * each item without `internal.kpt.dev/upstream-identifier` first (the 2022 build, v0.5.0; the
 * releases v0.4.2 and later do not, builtins/docs/set-namespace.md "Tags after v0.4.1").
 */
function runV05(ctx: Ctx, warnWithoutOrigin: boolean): void {
  let s: Settings;
  try {
    s = sdkConfig(ctx);
  } catch (e) {
    if (!(e instanceof BadConfig)) throw e;
    sdkFailure(ctx, e.message, 0);
    return;
  }
  const items = ctx.items.whereNot(isLocal);
  const preIds = new Set(items.map(dependsOnId));
  const origins = new Map<KubeObject, Origin>();
  for (const o of items) {
    if (warnWithoutOrigin && o.getAnnotation(ANNOTATIONS.upstreamIdentifier) === undefined)
      ctx.results.info(`${resourceId(o)} does not have upstream origin.`);
    let origin: Origin;
    try {
      origin = originOf(o);
    } catch (e) {
      if (!(e instanceof BadConfig)) throw e;
      ctx.results.error(e.message);
      return;
    }
    if (o.isNamespaceScoped && origin.namespace === '~C') {
      ctx.results.error(
        `${resourceId(o)} is namespace-scoped, but has cluster-scoped or unknown scoepd origin ${JSON.stringify(origin)}`,
      );
      return;
    }
    origins.set(o, origin);
  }
  if (!s.matcher) {
    const originNs = [...new Set(items.filter((o) => o.isNamespaceScoped).map((o) => origins.get(o)!.namespace))];
    if (originNs.length > 1) {
      ctx.results.error(
        `unable to use origin \`namespace\` to match. expect a single upstream namespace, found [${originNs.join(' ')}]. please switch to use \`namespaceMatcher\`to specify the namespace value you want to change`,
      );
      return;
    }
  }
  const olds: string[] = [];
  let count = 0;
  const visit = (f: NsField): void => {
    const origin = f.origin ?? '';
    if (origin === '~C') return;
    const cur = current(f) || 'default';
    if (cur === s.namespace) return;
    if (s.matcher) {
      if (cur !== s.matcher && origin !== s.matcher) return;
      if (cur !== s.matcher) ctx.results.info(`${resourceId(f.obj)} has matching origin ${s.matcher}`);
    }
    if (!olds.includes(cur)) olds.push(cur);
    f.obj.set(f.path, s.namespace);
    count++;
  };
  const clusterScoped = items.filter((o) => !o.isNamespaceScoped);
  for (const obj of clusterScoped) {
    if (obj.kind === 'Namespace' && obj.apiVersion === 'v1')
      visit({ obj, path: ['metadata', 'name'], create: true, origin: origins.get(obj)!.name });
    if (obj.kind === 'CustomResourceDefinition' && obj.apiVersion === 'apiextensions.k8s.io/v1') {
      visit({
        obj,
        path: ['spec', 'conversion', 'webhook', 'clientConfig', 'service', 'namespace'],
        create: true,
        origin: '',
      });
    }
    if (obj.kind === 'APIService' && obj.apiVersion === 'apiregistration.k8s.io/v1') {
      visit({ obj, path: ['spec', 'service', 'namespace'], create: true, origin: '' });
    }
    if (obj.kind === 'RoleBinding' || obj.kind === 'ClusterRoleBinding')
      for (const f of subjectFields(obj)) visit({ ...f, origin: '' });
  }
  for (const obj of items.filter((o) => o.isNamespaceScoped)) {
    visit({ obj, path: ['metadata', 'namespace'], create: true, origin: origins.get(obj)!.namespace });
  }
  if (count === 0)
    ctx.results.info(`all matching namespaces are already ${JSON.stringify(s.namespace)}. no value changed`);
  else
    ctx.results.info(
      `namespace [${olds.join(' ')}] updated to ${JSON.stringify(s.namespace)}, ${count} value(s) changed`,
    );

  const depOlds: string[] = [];
  let depCount = 0;
  for (const obj of items) {
    const value = obj.getAnnotation(DEPENDS_ON);
    if (value === undefined) continue;
    const next = value
      .split(',')
      .map((ref) => {
        const m = DEPENDS_ON_RE.exec(ref);
        if (!m || !preIds.has(ref)) return ref;
        const [, group, ns, kind, name] = m;
        if (ns === s.namespace || (s.matcher && ns !== s.matcher)) return ref;
        if (!depOlds.includes(ns)) depOlds.push(ns);
        depCount++;
        return `${group}/namespaces/${s.namespace}/${kind}/${name}`;
      })
      .join(',');
    if (next !== value) obj.setAnnotation(DEPENDS_ON, next);
  }
  if (depCount === 0) ctx.results.info('all `depends-on` annotations are up-to-date. no `namespace` changed');
  else
    ctx.results.info(
      `\`depends-on\` annotation namespace [${depOlds.join(' ')}] updated to ${JSON.stringify(s.namespace)}, ${depCount} value(s) changed`,
    );
  ctx.exitCode = 0;
}

// ---- descriptor ------------------------------------------------------------------------------

export const SET_NAMESPACE_VERSIONS: readonly string[] = Object.freeze([
  'v0.1.0',
  'v0.1.1',
  'v0.1.2',
  'v0.1.3',
  'v0.1.4',
  'v0.2.0',
  'v0.3.0',
  'v0.3.1',
  'v0.3.2',
  'v0.3.3',
  'v0.3.4',
  'v0.4.0',
  'v0.4.1',
  'v0.4.2',
  'v0.4.3',
  'v0.4.4',
  'v0.4.5',
  'v0.5.0',
  'v0.5.1',
]);

export const setNamespaceSchema = Object.freeze({
  type: 'object',
  properties: {
    namespace: { type: 'string', description: 'The new namespace.' },
    namespaceMatcher: {
      type: 'string',
      description: 'v0.5+: only change namespaces equal to this value (or with this origin).',
    },
    fieldSpecs: {
      type: 'array',
      description: 'v0.1–v0.2 (`SetNamespaceConfig`/`SetNamespace`): extra kustomize FieldSpecs.',
      items: FIELD_SPEC_SCHEMA,
    },
  },
});

export const setNamespace = defineMutator({
  name: 'set-namespace',
  usage:
    'Sets the namespace of every namespaced resource (and the namespace references kpt knows about) to `namespace`.',
  run(ctx) {
    const version = ctx.image?.version ?? SET_NAMESPACE_VERSIONS[SET_NAMESPACE_VERSIONS.length - 1];
    if (!versionAtLeast(version, 'v0.3.0'))
      return runKustomize(ctx, {
        v014: versionAtLeast(version, 'v0.1.4'),
        v02: versionAtLeast(version, 'v0.2.0'),
        goMap: !versionAtLeast(version, 'v0.1.3'),
      });
    if (versionAtLeast(version, 'v0.4.2'))
      return runV05(ctx, versionAtLeast(version, 'v0.5.0') && !versionAtLeast(version, 'v0.5.1'));
    runSetNamespaceFnSdk(ctx, version);
  },
});

export default defineBuiltin({
  name: 'set-namespace',
  versions: SET_NAMESPACE_VERSIONS,
  configKinds: ['ConfigMap', 'SetNamespace', 'SetNamespaceConfig'],
  summary: 'Set the namespace of namespaced resources (and namespace references) in a package.',
  schema: setNamespaceSchema,
  fn: setNamespace,
});
