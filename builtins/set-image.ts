/**
 * set-image (catalog.md §4.9). v0.1.x (released, kustomize imagetag filter): any kind, the four
 * container image paths plus `additionalImageFields`, regex match with the image name NOT escaped
 * (reproduced), style B. Newest ('' = master rewrite): exact ConfigMap keys, only Pods and the
 * usual workloads, initContainers skipped (the `iniContainers` typo, reproduced), style A.
 */
import { compileGoRegexp, defineBuiltin, defineMutator, reencodeAsKustomize, snapshotKeyOrder } from '../sdk/index.ts';
import { emulatedVersion, finish } from './lib/catalog-fn.ts';
import type { KubeObject } from '../src/core/kube-object.ts';
import type { Result } from '../src/core/result.ts';
import { mapGet, type YNode } from '../src/core/yaml/node.ts';
import { dataMap, isConfigMap } from './lib/config.ts';
import { FIELD_SPEC_SCHEMA, splitFieldSpecPath, toFieldSpecs, type FieldSpec } from './lib/field-spec.ts';
import { fileRefOf, matchesGvk, resourceRefOf } from './lib/gvk.ts';
import { fail, ok, type Report } from './lib/report.ts';
import { kyamlPath } from './lib/walk.ts';

export interface ImageSpec {
  name: string;
  newName?: string;
  newTag?: string;
  digest?: string;
}

export interface SetImageConfig {
  image: ImageSpec;
  additionalImageFields: FieldSpec[];
}

export const IMAGE_FIELD_SPECS: readonly FieldSpec[] = Object.freeze([
  { path: 'spec/containers[]/image' },
  { path: 'spec/initContainers[]/image' },
  { path: 'spec/template/spec/containers[]/image' },
  { path: 'spec/template/spec/initContainers[]/image' },
]);

const MASTER_KEYS = ['name', 'newName', 'newTag', 'digest'];

/** Reads and checks the config; a Report means a config failure to return as is. */
export function parseSetImageConfig(fc: KubeObject | undefined, version: string): SetImageConfig | Report {
  const master = version === '';
  const terminated = (msg: string): Report =>
    master
      ? {
          results: [
            { message: msg, severity: 'error' },
            { message: `function is terminated: ${msg}`, severity: 'error' },
          ],
          failed: true,
        }
      : fail(msg);
  let image: ImageSpec;
  let extra: FieldSpec[] = [];
  if (fc && (isConfigMap(fc) || fc.kind === 'ConfigMap')) {
    const data = dataMap(fc);
    if (master)
      for (const k of data.keys())
        if (!MASTER_KEYS.includes(k)) return terminated(`ConfigMap has wrong field name ${k}`);
    image = { name: data.get('name') ?? '' };
    if (data.get('newName')) image.newName = data.get('newName')!;
    if (data.get('newTag')) image.newTag = data.get('newTag')!;
    if (data.get('digest')) image.digest = data.get('digest')!;
  } else if (fc && fc.kind === 'SetImage') {
    const img = fc.get('image');
    const o = img && typeof img === 'object' && !Array.isArray(img) ? (img as Record<string, unknown>) : {};
    const s = (k: string): string =>
      typeof o[k] === 'string' ? (o[k] as string) : o[k] === undefined || o[k] === null ? '' : String(o[k]);
    image = { name: s('name') };
    if (s('newName')) image.newName = s('newName');
    if (s('newTag')) image.newTag = s('newTag');
    if (s('digest')) image.digest = s('digest');
    extra = toFieldSpecs(fc.get('additionalImageFields'));
  } else {
    return terminated('`functionConfig` must be a `ConfigMap` or `SetImage`');
  }
  if (!image.name) return terminated(master ? 'must specify `name`' : 'missing image name');
  if (!image.newName && !image.newTag && !image.digest) {
    return terminated(
      master ? 'must specify one of `newName`, `newTag`, or `digest`' : 'missing image newName, newTag, or digest',
    );
  }
  if (!master && image.newTag && image.digest) return fail('image newTag and digest both set');
  return { image, additionalImageFields: extra };
}

/**
 * Splits `registry:5000/app:1.0@sha256:…` into name and tag part (`:1.0`, `@sha256:…`, or '');
 * a `:` before the first `/` belongs to the registry host.
 */
export function splitImage(image: string): { name: string; tag: string } {
  const slash = image.indexOf('/');
  let colon = -1;
  if (slash < 0) colon = image.lastIndexOf(':');
  else {
    const c = image.slice(slash).lastIndexOf(':');
    if (c > 0) colon = slash + c;
  }
  const at = image.lastIndexOf('@');
  if (colon < 0 && at < 0) return { name: image, tag: '' };
  const i = at > 0 ? at : colon;
  return { name: image.slice(0, i), tag: image.slice(i) };
}

/** The v0.1.x matcher: name not regex-escaped, optional tag and sha256 digest. */
function matchesV01(value: string, name: string): boolean {
  try {
    return compileGoRegexp(`^${name}(:[a-zA-Z0-9_.{}-]*)?(@sha256:[a-zA-Z0-9_.{}-]*)?$`).matchString(value);
  } catch {
    return false;
  }
}

function newValue(value: string, img: ImageSpec, master: boolean): string {
  const parts = splitImage(value);
  let name = parts.name;
  let tag = parts.tag;
  if (img.newName) name = img.newName;
  if (master) {
    const digest = tag.startsWith('@') ? tag : tag.includes('@') ? tag.slice(tag.indexOf('@')) : '';
    if (img.digest) tag = `@${img.digest}`;
    else if (img.newTag) tag = `:${img.newTag}`;
    else if (digest) tag = digest;
  } else {
    if (img.newTag) tag = `:${img.newTag}`;
    if (img.digest) tag = `@${img.digest}`;
  }
  return name + tag;
}

const MASTER_WORKLOADS = ['Deployment', 'StatefulSet', 'ReplicaSet', 'DaemonSet', 'PodTemplate'];

export function setImage(items: readonly KubeObject[], cfg: SetImageConfig, version: string): Report {
  const master = version === '';
  const results: Result[] = [];
  let count = 0;
  const update = (obj: KubeObject, node: YNode, path: (string | number)[]): void => {
    if (node.kind !== 'scalar') return;
    const old = node.value;
    const matched = master ? splitImage(old).name === cfg.image.name : matchesV01(old, cfg.image.name);
    if (!matched) return;
    const next = newValue(old, cfg.image, master);
    if (next === old) return;
    node.value = next;
    node.tag = '!!str';
    node.tagged = false;
    count++;
    if (!master) {
      const r: Result = {
        message: `set image from ${old} to ${next}`,
        severity: 'info',
        resourceRef: resourceRefOf(obj),
        field: { path: kyamlPath(path), currentValue: old, proposedValue: next },
      };
      const file = fileRefOf(obj);
      if (file) r.file = file;
      results.push(r);
    }
  };
  for (const obj of items) {
    const before = master ? undefined : snapshotKeyOrder(obj);
    const specs: FieldSpec[] = [];
    if (master) {
      if (obj.kind === 'Pod') specs.push({ path: 'spec/containers[]/image' });
      else if (MASTER_WORKLOADS.includes(obj.kind)) specs.push({ path: 'spec/template/spec/containers[]/image' });
    } else specs.push(...IMAGE_FIELD_SPECS);
    specs.push(...cfg.additionalImageFields);
    for (const fs of specs) visitWithPaths(obj, fs, (node, path) => update(obj, node, path));
    if (before) reencodeAsKustomize(obj, before);
  }
  if (master) return ok([{ message: `summary: updated a total of ${count} image(s)`, severity: 'info' }]);
  if (results.length === 0) return ok([{ message: 'no images changed', severity: 'info' }]);
  // The SDK sorts results by file (path, then index); the sort is stable otherwise.
  const key = (r: Result): [string, number] => [r.file?.path ?? '', r.file?.index ?? 0];
  results.sort((a, b) => {
    const [pa, ia] = key(a);
    const [pb, ib] = key(b);
    return pa < pb ? -1 : pa > pb ? 1 : ia - ib;
  });
  return ok(results);
}

/** Like forEachFieldSpecTarget, but also reports the concrete path of each existing target. */
function visitWithPaths(obj: KubeObject, fs: FieldSpec, cb: (node: YNode, path: (string | number)[]) => void): void {
  const segs = splitFieldSpecPath(fs.path);
  const rec = (node: YNode, i: number, path: (string | number)[]): void => {
    if (node.kind === 'sequence') {
      node.content.forEach((el, k) => rec(el, i, [...path, k]));
      return;
    }
    if (node.kind !== 'mapping' || i >= segs.length) return;
    const key = segs[i]!.replace(/\[\]$/, '');
    const next = mapGet(node, key);
    if (!next) return;
    if (i === segs.length - 1) {
      if (next.kind === 'scalar') cb(next, [...path, key]);
      return;
    }
    rec(next, i + 1, [...path, key]);
  };
  if (matchesGvk(obj, fs)) rec(obj.root, 0, []);
}

const VERSIONS = ['v0.1.0', 'v0.1.1'];

export const setImageFn = defineMutator({
  name: 'set-image',
  usage: 'Updates container image names, tags and digests.',
  run(ctx) {
    const version = emulatedVersion(ctx, VERSIONS[VERSIONS.length - 1]!, true);
    const cfg = parseSetImageConfig(ctx.functionConfig, version);
    finish(ctx, 'failed' in cfg ? cfg : setImage(ctx.items.all, cfg, version), 'fn-sdk');
  },
});

export default defineBuiltin({
  name: 'set-image',
  versions: VERSIONS,
  configKinds: ['ConfigMap', 'SetImage'],
  summary: 'Set container image names, tags and digests',
  schema: {
    type: 'object',
    properties: {
      image: {
        type: 'object',
        required: ['name'],
        properties: {
          name: { type: 'string', description: 'Image name to match (tag and digest ignored).' },
          newName: { type: 'string' },
          newTag: { type: 'string' },
          digest: { type: 'string' },
        },
      },
      additionalImageFields: { type: 'array', items: FIELD_SPEC_SCHEMA },
    },
  },
  fn: setImageFn,
});
