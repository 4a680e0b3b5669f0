/**
 * set-annotations (builtins/docs/set-annotations.md): kustomize commonAnnotations over every item (Kptfiles and
 * local-config included). v0.1.3 re-encodes items (style B) and knows `SetAnnotationConfig`;
 * v0.1.4 edits nodes (style A) and knows `SetAnnotations`; newest (master) adds per-field results.
 */
import { defineBuiltin, defineMutator, reencodeAsKustomize, snapshotKeyOrder } from '../sdk/index.ts';
import { emulatedVersion, finish } from './lib/catalog-fn.ts';
import {
  FIELD_SPEC_SCHEMA,
  FieldEditError,
  FieldSpecError,
  parseFieldSpecs,
  setMapEntry,
  toJS,
  walkFieldSpec,
  type FieldSpec,
  type KubeObject,
  type Result,
} from '../sdk/index.ts';
import { kyamlDataMap } from './lib/config.ts';
import { nestedValueError } from './lib/plugin-config.ts';
import { sigsYamlStringMap } from './lib/sigs-yaml-string.ts';
import { goMapThenSigsString } from './lib/yaml-v3-roundtrip.ts';
import { dropKustomizeIgnored } from './lib/kustomize-resmap.ts';
import { fileRefOf } from './lib/gvk.ts';
import { fail, ok, type Report } from './lib/report.ts';
import { atLeast } from './lib/version.ts';

export const ANNOTATION_FIELD_SPECS: readonly FieldSpec[] = Object.freeze([
  { path: 'metadata/annotations', create: true },
  { path: 'spec/template/metadata/annotations', create: true, version: 'v1', kind: 'ReplicationController' },
  { path: 'spec/template/metadata/annotations', create: true, kind: 'Deployment' },
  { path: 'spec/template/metadata/annotations', create: true, kind: 'ReplicaSet' },
  { path: 'spec/template/metadata/annotations', create: true, kind: 'DaemonSet' },
  { path: 'spec/template/metadata/annotations', create: true, kind: 'StatefulSet' },
  { path: 'spec/template/metadata/annotations', create: true, group: 'batch', kind: 'Job' },
  { path: 'spec/jobTemplate/metadata/annotations', create: true, group: 'batch', kind: 'CronJob' },
  { path: 'spec/jobTemplate/spec/template/metadata/annotations', create: true, group: 'batch', kind: 'CronJob' },
]);

export interface SetAnnotationsConfig {
  annotations: Map<string, string>;
  fieldSpecs: FieldSpec[];
}

/** Reads the config per version; a string is the (already prefixed) error message. */
export function parseSetAnnotationsConfig(fc: KubeObject | undefined, version: string): SetAnnotationsConfig | string {
  const v14 = atLeast(version, '0.1.4');
  const wrongKind = v14
    ? 'failed to configure function: `functionConfig` must be a `ConfigMap` or `SetAnnotations`'
    : 'failed to configure function: function config must be a ConfigMap or SetAnnotationConfig';
  if (!fc || fc.kind === '') return wrongKind;
  // `validGVK` in main.go (every tag and master): apiVersion and kind must both match.
  let cfg: SetAnnotationsConfig;
  if (fc.kind === 'ConfigMap' && fc.apiVersion === 'v1') {
    cfg = { annotations: kyamlDataMap(fc), fieldSpecs: [] };
  } else if (
    (fc.kind === 'SetAnnotationConfig' || (v14 && fc.kind === 'SetAnnotations')) &&
    fc.apiVersion === 'fn.kpt.dev/v1alpha1'
  ) {
    const nested = nestedValueError(fc, 'annotations', !v14);
    if (nested !== undefined) return `failed to configure function: ${nested}`;
    // sigs.k8s.io/yaml v1.2.0 into `map[string]string`: `yes` is "true", `0755` is "493", ...
    // v0.1.3 decodes through a Go map first (builtins/lib/yaml-v3-roundtrip.ts): `yes` stays "yes".
    const read = v14 ? undefined : goMapThenSigsString;
    const annotations = sigsYamlStringMap(fc.getNode('annotations'), (v) => String(toJS(v)), read);
    const extra = fc.get('additionalAnnotationFields');
    const legacy = fc.get('fieldSpecs');
    if (extra !== undefined && legacy !== undefined) {
      return 'failed to configure function: `fieldSpecs` has been deprecated, please rename it to `additionalAnnotationFields`';
    }
    cfg = { annotations, fieldSpecs: parseFieldSpecs(extra ?? legacy) };
  } else return wrongKind;
  if (cfg.annotations.size === 0) return 'failed to configure function: input annotation list cannot be empty';
  return cfg;
}

/** Sets the annotations on every item in place. */
export function setAnnotations(items: readonly KubeObject[], cfg: SetAnnotationsConfig, version: string): Report {
  const withResults = version === '';
  const styleB = !atLeast(version, '0.1.4');
  const keys = [...cfg.annotations.keys()].sort();
  const json = `{${keys.map((k) => `${JSON.stringify(k)}:${JSON.stringify(cfg.annotations.get(k))}`).join(',')}}`;
  const results: { r: Result; path: string; index: number }[] = [];
  // main.go appends the default FieldSpecs after the user's.
  const specs = [...cfg.fieldSpecs, ...ANNOTATION_FIELD_SPECS];
  for (const obj of items) {
    const before = styleB ? snapshotKeyOrder(obj) : undefined;
    const seen = new Set<string>();
    for (const fs of specs) {
      if (withResults && seen.has(fs.path)) continue;
      let hit = 0;
      try {
        walkFieldSpec(
          obj,
          fs,
          (path) => {
            hit++;
            for (const k of keys) setMapEntry(obj, path, k, cfg.annotations.get(k)!);
          },
          { createKind: 'mapping' },
        );
      } catch (e) {
        if (e instanceof FieldSpecError || e instanceof FieldEditError)
          return fail(`failed to run function: failed to run transformer: ${e.message}`);
        throw e;
      }
      if (hit > 0) {
        seen.add(fs.path);
        if (withResults) {
          const file = fileRefOf(obj);
          const r: Result = { message: `set annotations: ${json}`, field: { path: fs.path.split('/').join('.') } };
          if (file) r.file = file;
          results.push({ r, path: file?.path ?? '', index: file?.index ?? 0 });
        }
      }
    }
    if (before) reencodeAsKustomize(obj, before);
  }
  if (!withResults) return ok();
  if (results.length === 0) return ok([{ message: 'no annotations applied' }]);
  results.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.index - b.index));
  return ok(results.map((x) => x.r));
}

const VERSIONS = ['v0.1.3', 'v0.1.4'];

export const setAnnotationsFn = defineMutator({
  name: 'set-annotations',
  usage: 'Adds or updates annotations on every resource (and on pod templates of workloads).',
  run(ctx) {
    const version = emulatedVersion(ctx, VERSIONS[VERSIONS.length - 1], true);
    const cfg = parseSetAnnotationsConfig(ctx.functionConfig, version);
    // kustomize api v0.7 (v0.1.3) leaves local-config items out of its resource map.
    if (typeof cfg !== 'string' && !atLeast(version, '0.1.4')) dropKustomizeIgnored(ctx.items);
    finish(ctx, typeof cfg === 'string' ? fail(cfg) : setAnnotations(ctx.items.all, cfg, version));
  },
});

export default defineBuiltin({
  name: 'set-annotations',
  versions: VERSIONS,
  aliases: [{ name: 'set-annotation', version: 'v0.1.3' }],
  configKinds: ['ConfigMap', 'SetAnnotations', 'SetAnnotationConfig'],
  summary: 'Set annotations on every resource and on workload pod templates',
  schema: {
    type: 'object',
    properties: {
      annotations: { type: 'object', additionalProperties: { type: 'string' } },
      additionalAnnotationFields: { type: 'array', items: FIELD_SPEC_SCHEMA },
      fieldSpecs: {
        type: 'array',
        items: FIELD_SPEC_SCHEMA,
        description: 'Deprecated alias of additionalAnnotationFields.',
      },
    },
  },
  fn: setAnnotationsFn,
});
