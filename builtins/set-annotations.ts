/**
 * set-annotations (catalog.md §4.3): kustomize commonAnnotations over every item (Kptfiles and
 * local-config included). v0.1.3 re-encodes items (style B) and knows `SetAnnotationConfig`;
 * v0.1.4 edits nodes (style A) and knows `SetAnnotations`; newest (master) adds per-field results.
 */
import { defineBuiltin, defineMutator, reencodeAsKustomize, snapshotKeyOrder } from '../sdk/index.ts';
import { emulatedVersion, finish } from './lib/catalog-fn.ts';
import type { KubeObject } from '../src/core/kube-object.ts';
import type { Result } from '../src/core/result.ts';
import { mappingNode, mapGet, strNode } from '../src/core/yaml/node.ts';
import { dataMap, isConfigMap } from './lib/config.ts';
import {
  FIELD_SPEC_SCHEMA,
  forEachFieldSpecTarget,
  replaceValue,
  toFieldSpecs,
  type FieldSpec,
} from './lib/field-spec.ts';
import { fileRefOf } from './lib/gvk.ts';
import { fail, ok, type Report } from './lib/report.ts';
import { atLeast } from './lib/version.ts';

export const ANNOTATION_FIELD_SPECS: readonly FieldSpec[] = Object.freeze([
  { path: 'metadata/annotations', create: true },
  { path: 'spec/template/metadata/annotations', create: true, version: 'v1', kind: 'ReplicationController' },
  { path: 'spec/template/metadata/annotations', create: true, kind: 'Deployment' },
  { path: 'spec/template/metadata/annotations', create: true, kind: 'ReplicaSet' },
  { path: 'spec/template/metadata/annotations', create: true, kind: 'DaemonSet' },
  { path: 'spec/template/metadata/annotations', create: true, group: 'apps', kind: 'StatefulSet' },
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
  let cfg: SetAnnotationsConfig;
  if (isConfigMap(fc) || fc.kind === 'ConfigMap') {
    cfg = { annotations: dataMap(fc), fieldSpecs: [] };
  } else if (fc.kind === 'SetAnnotationConfig' || (v14 && fc.kind === 'SetAnnotations')) {
    const a = fc.get('annotations');
    const annotations = new Map<string, string>();
    if (a && typeof a === 'object' && !Array.isArray(a))
      for (const [k, v] of Object.entries(a)) annotations.set(k, String(v ?? ''));
    const extra = fc.get('additionalAnnotationFields');
    const legacy = fc.get('fieldSpecs');
    if (extra !== undefined && legacy !== undefined) {
      return 'failed to configure function: `fieldSpecs` has been deprecated, please rename it to `additionalAnnotationFields`';
    }
    cfg = { annotations, fieldSpecs: toFieldSpecs(extra ?? legacy) };
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
  const specs = [...ANNOTATION_FIELD_SPECS, ...cfg.fieldSpecs];
  for (const obj of items) {
    const before = styleB ? snapshotKeyOrder(obj) : undefined;
    const seen = new Set<string>();
    for (const fs of specs) {
      if (seen.has(fs.path)) continue;
      const hit = forEachFieldSpecTarget(obj, fs, (parent, key) => {
        let map = mapGet(parent, key);
        if (!map || map.kind !== 'mapping') {
          map = mappingNode();
          replaceValue(parent, key, map);
        }
        for (const k of keys) {
          const v = cfg.annotations.get(k)!;
          const existing = mapGet(map, k);
          if (existing && existing.kind === 'scalar') {
            existing.value = v;
            existing.tag = '!!str';
            existing.tagged = false;
          } else if (existing) replaceValue(map, k, strNode(v));
          else map.content.push(strNode(k), strNode(v));
        }
      });
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
    const version = emulatedVersion(ctx, VERSIONS[VERSIONS.length - 1]!, true);
    const cfg = parseSetAnnotationsConfig(ctx.functionConfig, version);
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
