/**
 * set-labels (builtins/docs/set-labels.md), both behaviour generations, selected by the image version:
 * - v0.1.x: kustomize commonLabels over every item (Kptfile, fn-configs and local-config
 *   included), kyaml-framework errors, style group B; v0.1.5 renames the config kind to
 *   `SetLabels` and its `fieldSpecs` to `additionalLabelFields`;
 * - v0.2.x: the catalog's own implementation: skips local-config items, visits a fixed set of
 *   label paths, reports `set N labels in total`, style group A.
 * Known upstream bugs are reproduced (see builtins/docs/set-labels.md for each decision).
 */
import {
  defineBuiltin,
  defineMutator,
  FIELD_SPEC_SCHEMA,
  FieldEditError,
  FieldSpecError,
  isEmptyConfig,
  parseFieldSpecs,
  reencodeAsKustomize,
  setMapEntry,
  snapshotKeyOrder,
  toJS,
  versionAtLeast,
  walkFieldSpec,
  type FieldSpec,
  type FnContext,
  type KubeObject,
  type PathSegment,
} from '../sdk/index.ts';
import { kyamlDataMap } from './lib/config.ts';
import { nestedValueError } from './lib/plugin-config.ts';
import { sigsYamlStringMap } from './lib/sigs-yaml-string.ts';
import { goMapThenSigsString } from './lib/yaml-v3-roundtrip.ts';
import { dropKustomizeIgnored } from './lib/kustomize-resmap.ts';

type Ctx = FnContext<undefined>;
type Labels = Record<string, string>;

const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));
const sortedKeys = (labels: Labels): string[] => Object.keys(labels).sort();

function toLabels(v: unknown): Labels {
  const out: Labels = {};
  if (v && typeof v === 'object' && !Array.isArray(v)) for (const [k, x] of Object.entries(v)) out[k] = str(x);
  return out;
}

// ---- v0.1.x: kustomize commonLabels -------------------------------------------------------------

class BadConfig extends Error {}

/** kustomize's commonLabels FieldSpecs (api v0.7/v0.8). */
const COMMON_LABELS: readonly FieldSpec[] = Object.freeze([
  { path: 'metadata/labels', create: true },
  { version: 'v1', kind: 'Service', path: 'spec/selector', create: true },
  { version: 'v1', kind: 'ReplicationController', path: 'spec/selector', create: true },
  { version: 'v1', kind: 'ReplicationController', path: 'spec/template/metadata/labels', create: true },
  { kind: 'Deployment', path: 'spec/selector/matchLabels', create: true },
  { kind: 'Deployment', path: 'spec/template/metadata/labels', create: true },
  ...['Deployment', 'StatefulSet'].flatMap((kind): FieldSpec[] =>
    ['podAffinity', 'podAntiAffinity'].flatMap((a): FieldSpec[] => [
      {
        group: 'apps',
        kind,
        path: `spec/template/spec/affinity/${a}/preferredDuringSchedulingIgnoredDuringExecution/podAffinityTerm/labelSelector/matchLabels`,
      },
      {
        group: 'apps',
        kind,
        path: `spec/template/spec/affinity/${a}/requiredDuringSchedulingIgnoredDuringExecution/labelSelector/matchLabels`,
      },
    ]),
  ),
  { group: 'apps', kind: 'Deployment', path: 'spec/template/spec/topologySpreadConstraints/labelSelector/matchLabels' },
  { kind: 'ReplicaSet', path: 'spec/selector/matchLabels', create: true },
  { kind: 'ReplicaSet', path: 'spec/template/metadata/labels', create: true },
  { kind: 'DaemonSet', path: 'spec/selector/matchLabels', create: true },
  { kind: 'DaemonSet', path: 'spec/template/metadata/labels', create: true },
  { group: 'apps', kind: 'StatefulSet', path: 'spec/selector/matchLabels', create: true },
  { group: 'apps', kind: 'StatefulSet', path: 'spec/template/metadata/labels', create: true },
  {
    group: 'apps',
    kind: 'StatefulSet',
    path: 'spec/template/spec/topologySpreadConstraints/labelSelector/matchLabels',
  },
  { group: 'apps', kind: 'StatefulSet', path: 'spec/volumeClaimTemplates[]/metadata/labels', create: true },
  { group: 'batch', kind: 'Job', path: 'spec/selector/matchLabels' },
  { group: 'batch', kind: 'Job', path: 'spec/template/metadata/labels', create: true },
  { group: 'batch', kind: 'CronJob', path: 'spec/jobTemplate/spec/selector/matchLabels' },
  { group: 'batch', kind: 'CronJob', path: 'spec/jobTemplate/metadata/labels', create: true },
  { group: 'batch', kind: 'CronJob', path: 'spec/jobTemplate/spec/template/metadata/labels', create: true },
  { group: 'policy', kind: 'PodDisruptionBudget', path: 'spec/selector/matchLabels' },
  { group: 'networking.k8s.io', kind: 'NetworkPolicy', path: 'spec/podSelector/matchLabels' },
  { group: 'networking.k8s.io', kind: 'NetworkPolicy', path: 'spec/ingress/from/podSelector/matchLabels' },
  { group: 'networking.k8s.io', kind: 'NetworkPolicy', path: 'spec/egress/to/podSelector/matchLabels' },
]);

function kustomizeConfig(ctx: Ctx, v015: boolean, v013: boolean): { labels: Labels; fieldSpecs: FieldSpec[] } {
  const fc = ctx.functionConfig;
  const kind = fc?.kind ?? '';
  const apiVersion = fc?.apiVersion ?? '';
  let labels: Labels = {};
  let fieldSpecs: FieldSpec[] = [];
  // `validGVK` in main.go: apiVersion and kind must both match.
  if (kind === 'ConfigMap' && apiVersion === 'v1') labels = Object.fromEntries(kyamlDataMap(fc));
  else if ((kind === 'SetLabelConfig' || (v015 && kind === 'SetLabels')) && apiVersion === 'fn.kpt.dev/v1alpha1') {
    const nested = nestedValueError(fc!, 'labels', v013);
    if (nested !== undefined) throw new BadConfig(nested);
    // sigs.k8s.io/yaml v1.2.0 into `map[string]string`: `yes` is "true", `0755` is "493", ...
    // v0.1.3 decodes through a Go map first (builtins/lib/yaml-v3-roundtrip.ts): `yes` stays "yes".
    const read = v013 ? goMapThenSigsString : undefined;
    labels = Object.fromEntries(sigsYamlStringMap(fc!.getNode('labels'), (v) => str(toJS(v)), read));
    if (v015) {
      if (fc!.has('fieldSpecs') && fc!.has('additionalLabelFields')) {
        throw new BadConfig('`fieldSpecs` has been deprecated, please rename it to `additionalLabelFields`');
      }
      fieldSpecs = parseFieldSpecs(fc!.get('additionalLabelFields') ?? fc!.get('fieldSpecs'));
    } else fieldSpecs = parseFieldSpecs(fc!.get('fieldSpecs'));
  } else {
    throw new BadConfig(
      v015
        ? '`functionConfig` must be either a `ConfigMap` or `SetLabels`'
        : 'function config must be a ConfigMap or SetLabelConfig',
    );
  }
  if (Object.keys(labels).length === 0) throw new BadConfig('input label list cannot be empty');
  return { labels, fieldSpecs };
}

function runKustomize(ctx: Ctx, v015: boolean, v013: boolean): void {
  let cfg: { labels: Labels; fieldSpecs: FieldSpec[] };
  try {
    cfg = kustomizeConfig(ctx, v015, v013);
  } catch (e) {
    if (!(e instanceof BadConfig)) throw e;
    frameworkError(ctx, `failed to configure function: ${e.message}`);
    return;
  }
  // kustomize api v0.7 (v0.1.3, v0.1.4) leaves local-config items out of its resource map.
  if (!v015) dropKustomizeIgnored(ctx.items);
  const keys = sortedKeys(cfg.labels);
  // main.go appends the default FieldSpecs after the user's.
  const specs = [...cfg.fieldSpecs, ...COMMON_LABELS];
  for (const obj of ctx.items) {
    const before = snapshotKeyOrder(obj);
    try {
      // kustomize's labels filter: for each key (sorted), every FieldSpec; labels are mappings.
      for (const k of keys)
        for (const fs of specs)
          walkFieldSpec(obj, fs, (path) => setMapEntry(obj, path, k, cfg.labels[k]), { createKind: 'mapping' });
    } catch (e) {
      if (!(e instanceof FieldSpecError || e instanceof FieldEditError)) throw e;
      // The kyaml framework stops at the first failing item; kpt then writes nothing.
      frameworkError(ctx, `failed to run function: failed to run transformer: ${e.message}`);
      return;
    }
    reencodeAsKustomize(obj, before);
  }
}

/** kyaml framework error: an error result, exit 1, `[error] : msg` on stderr. */
function frameworkError(ctx: Ctx, message: string): void {
  ctx.results.add({ message, severity: 'error' });
  ctx.log(`[error] : ${message}`);
  ctx.exitCode = 1;
}

// ---- v0.2.x: the catalog's own implementation -----------------------------------------------------

interface V02Config {
  empty: boolean;
  labels: Labels;
}

/** The fn SDK's `Runner` config parsing for `SetLabels` (docs/catalog.md, "SDK generations: how errors and results surface"). */
function sdkConfig(ctx: Ctx): V02Config | undefined {
  const fc = ctx.functionConfig;
  if (isEmptyConfig(fc) || (fc && Object.keys(fc.toJS()).length === 0)) {
    ctx.results.info('`FunctionConfig` is not given');
    return { empty: true, labels: {} };
  }
  const group = fc!.group;
  if (fc!.kind === 'ConfigMap' && fc!.apiVersion === 'v1') return { empty: false, labels: toLabels(fc!.get('data')) };
  if (fc!.kind === 'SetLabels' && group === 'fn.kpt.dev') {
    const raw = fc!.get('labels');
    if (raw !== undefined && raw !== null && (typeof raw !== 'object' || Array.isArray(raw))) {
      const jsonType = Array.isArray(raw)
        ? 'array'
        : typeof raw === 'boolean'
          ? 'bool'
          : typeof raw === 'number'
            ? 'number'
            : 'string';
      fail(
        ctx,
        `unable to convert object to *setlabels.SetLabels with error: json: cannot unmarshal ${jsonType} into Go struct field SetLabels.labels of type map[string]string`,
      );
      return undefined;
    }
    // The SDK decodes through JSON (kyaml MarshalJSON, keys sorted; json.Unmarshal into
    // map[string]string): an unquoted number or boolean value fails, the first in key order.
    const values = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
    const typed = Object.keys(values)
      .sort()
      .map((k) => values[k])
      .find((v) => typeof v === 'number' || typeof v === 'boolean');
    if (typed !== undefined) {
      fail(
        ctx,
        `unable to convert object to *setlabels.SetLabels with error: json: cannot unmarshal ${typeof typed === 'boolean' ? 'bool' : 'number'} into Go struct field SetLabels.labels of type string`,
      );
      return undefined;
    }
    return { empty: false, labels: toLabels(raw) };
  }
  fail(ctx, `unknown FunctionConfig \`${fc!.kind}.${group}\`, expect \`SetLabels.fn.kpt.dev\` or \`ConfigMap.v1\``);
  return undefined;
}

function fail(ctx: Ctx, message: string): void {
  ctx.results.error(message);
  ctx.log('failed to evaluate function: error: function failure');
  ctx.exitCode = 1;
}

class LabelSetter {
  count = 0;
  readonly obj: KubeObject;
  readonly labels: Labels;
  /** The label keys in sorted order, sorted once per run (not per visited path). */
  readonly keys: readonly string[];
  constructor(obj: KubeObject, labels: Labels, keys: readonly string[]) {
    this.obj = obj;
    this.labels = labels;
    this.keys = keys;
  }

  /** Visits `base` + `rel` when `base` exists (a mapping): one count per label key, changed or not. */
  update(base: PathSegment[], rel: PathSegment[], create: boolean): void {
    if (!this.isMap(base)) return;
    const path = [...base, ...rel];
    for (const k of this.keys) {
      this.count++;
      const at = [...path, k];
      const exists = this.obj.has(at);
      const old = exists ? this.obj.getString(at) : undefined;
      if (exists ? old !== this.labels[k] : create && this.canCreate(path)) this.obj.set(at, this.labels[k]);
    }
  }

  /** Each item of the list at `base` + `list` (when it exists) as a base path. */
  each(base: PathSegment[], list: PathSegment[], fn: (item: PathSegment[]) => void): void {
    if (!this.isMap(base)) return;
    const n = this.obj.readNode([...base, ...list]);
    if (n?.kind !== 'sequence') return;
    n.content.forEach((_, i) => fn([...base, ...list, i]));
  }

  isMap(path: PathSegment[]): boolean {
    return path.length === 0 || this.obj.readNode(path)?.kind === 'mapping';
  }

  /** Intermediate nodes that exist must be mappings (or null) for a create to succeed. */
  private canCreate(path: PathSegment[]): boolean {
    for (let i = 1; i <= path.length; i++) {
      const n = this.obj.readNode(path.slice(0, i));
      if (n === undefined) return true;
      if (n.kind !== 'mapping' && !(n.kind === 'scalar' && n.tag === '!!null')) return false;
    }
    return true;
  }
}

const POD_TEMPLATE_KINDS = new Set([
  'ReplicationController',
  'Deployment',
  'ReplicaSet',
  'DaemonSet',
  'StatefulSet',
  'Job',
]);

function setLabelsV02(obj: KubeObject, labels: Labels, keys: readonly string[]): number {
  const s = new LabelSetter(obj, labels, keys);
  const spec = ['spec'];
  s.update([], ['metadata', 'labels'], true);
  const kind = obj.kind;
  const g = obj.group;
  if (obj.isGVK('', 'v1', 'Service') || obj.isGVK('', 'v1', 'ReplicationController'))
    s.update(spec, ['selector'], true);
  if (
    kind === 'Deployment' ||
    kind === 'ReplicaSet' ||
    kind === 'DaemonSet' ||
    (g === 'apps' && kind === 'StatefulSet')
  ) {
    s.update(spec, ['selector', 'matchLabels'], true);
  }
  if ((g === 'batch' && kind === 'Job') || (g === 'policy' && kind === 'PodDisruptionBudget'))
    s.update(spec, ['selector', 'matchLabels'], false);
  if (kind === 'NetworkPolicy') {
    s.update(spec, ['podSelector', 'matchLabels'], false);
    for (const [dir, peers] of [
      ['ingress', 'from'],
      ['egress', 'to'],
    ] as const) {
      s.each(spec, [dir], (rule) =>
        s.each(rule, [peers], (peer) => s.update(peer, ['podSelector', 'matchLabels'], false)),
      );
    }
  }
  const podTemplate = (template: PathSegment[]): void => {
    // Upstream swallows errors of this step (reproduced): a malformed template is skipped.
    try {
      s.update(template, ['metadata', 'labels'], true);
      // Upstream bug (reproduced): pod affinity terms are never updated.
      const podSpec = [...template, 'spec'];
      s.each(podSpec, ['topologySpreadConstraints'], (c) => s.update(c, ['labelSelector', 'matchLabels'], false));
    } catch {
      // swallowed, as upstream does
    }
  };
  if (POD_TEMPLATE_KINDS.has(kind) && (kind !== 'StatefulSet' || g === 'apps') && (kind !== 'Job' || g === 'batch')) {
    if (s.isMap(spec)) podTemplate([...spec, 'template']);
  }
  if (g === 'batch' && kind === 'CronJob') {
    const jt = [...spec, 'jobTemplate'];
    if (s.isMap(spec)) {
      s.update(jt, ['metadata', 'labels'], true);
      s.update([...jt, 'spec'], ['selector', 'matchLabels'], false);
      if (s.isMap([...jt, 'spec'])) podTemplate([...jt, 'spec', 'template']);
    }
  }
  if (g === 'apps' && kind === 'StatefulSet') {
    s.each(spec, ['volumeClaimTemplates'], (t) => {
      s.update(t, ['metadata', 'labels'], true);
      s.update(t, ['selector', 'matchLabels'], false);
    });
  }
  return s.count;
}

function runV02(ctx: Ctx): void {
  const cfg = sdkConfig(ctx);
  if (!cfg) return;
  const items = ctx.items.where((o) => !o.isLocalConfig);
  if (items.length === 0) {
    ctx.results.info('no input resources');
    ctx.exitCode = 0;
    return;
  }
  if (cfg.empty) {
    ctx.log('failed to evaluate function: error: function failure');
    ctx.exitCode = 1;
    return;
  }
  if (Object.keys(cfg.labels).length === 0) {
    ctx.results.warning('no `labels` arguments are given in FunctionConfig');
    ctx.exitCode = 0;
    return;
  }
  const keys = sortedKeys(cfg.labels);
  let count = 0;
  let failed = false;
  for (const obj of items) {
    try {
      count += setLabelsV02(obj, cfg.labels, keys);
    } catch (e) {
      failed = true;
      ctx.results.error(e instanceof Error ? e.message : String(e), { object: obj });
    }
  }
  ctx.results.info(`set ${count} labels in total`);
  if (failed) ctx.log('failed to evaluate function: error: function failure');
  ctx.exitCode = failed ? 1 : 0;
}

// ---- descriptor ------------------------------------------------------------------------------------

export const SET_LABELS_VERSIONS: readonly string[] = Object.freeze([
  'v0.1.3',
  'v0.1.4',
  'v0.1.5',
  'v0.2.0',
  'v0.2.1',
  'v0.2.2',
  'v0.2.3',
  'v0.2.4',
  'v0.2.5',
]);

export const setLabelsSchema = Object.freeze({
  type: 'object',
  properties: {
    labels: { type: 'object', additionalProperties: { type: 'string' }, description: 'Labels to set.' },
    additionalLabelFields: {
      type: 'array',
      description:
        'v0.1.5 (`SetLabels`): extra kustomize FieldSpecs that hold labels (alias `fieldSpecs`, v0.1.3–v0.1.4 `SetLabelConfig`).',
      items: FIELD_SPEC_SCHEMA,
    },
  },
});

export const setLabels = defineMutator({
  name: 'set-labels',
  usage: 'Sets labels on every resource, and on the selectors and templates that must carry them.',
  run(ctx) {
    const version = ctx.image?.version ?? SET_LABELS_VERSIONS[SET_LABELS_VERSIONS.length - 1];
    if (versionAtLeast(version, 'v0.2.0')) runV02(ctx);
    else runKustomize(ctx, versionAtLeast(version, 'v0.1.5'), !versionAtLeast(version, 'v0.1.4'));
  },
});

export default defineBuiltin({
  name: 'set-labels',
  versions: SET_LABELS_VERSIONS,
  aliases: [{ name: 'set-label', version: 'v0.1.3' }],
  configKinds: ['ConfigMap', 'SetLabels', 'SetLabelConfig'],
  summary: 'Set labels on every resource and on the selectors and pod templates that must match them.',
  schema: setLabelsSchema,
  fn: setLabels,
});
