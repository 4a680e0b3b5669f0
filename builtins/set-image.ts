/**
 * set-image (builtins/docs/set-image.md). v0.1.x (released, kustomize imagetag filter): any kind, the four
 * container image paths plus `additionalImageFields`, regex match with the image name NOT escaped
 * (reproduced), style B. Newest ('' = master rewrite): exact ConfigMap keys, only Pods and the
 * usual workloads, initContainers skipped (the `iniContainers` typo, reproduced), style A.
 */
import {
  compileGoRegexp,
  defineBuiltin,
  defineMutator,
  FIELD_SPEC_SCHEMA,
  FieldEditError,
  FieldSpecError,
  parseFieldSpecs,
  reencodeAsKustomize,
  setStringScalar,
  snapshotKeyOrder,
  walkFieldSpec,
  type FieldSpec,
  type KubeObject,
  type PathSegment,
  type Result,
} from '../sdk/index.ts';
import { emulatedVersion, finish } from './lib/catalog-fn.ts';
import { dataMap, isConfigMap } from './lib/config.ts';
import { fileRefOf, resourceRefOf } from './lib/gvk.ts';
import { fail, ok, type Report } from './lib/report.ts';
import { atLeast } from './lib/version.ts';

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
    if (!master) {
      const typeError = jsonStringFieldError(o, fc.name, version);
      if (typeError) return fail(typeError);
    }
    const s = (k: string): string =>
      typeof o[k] === 'string' ? o[k] : o[k] === undefined || o[k] === null ? '' : String(o[k]);
    image = { name: s('name') };
    if (s('newName')) image.newName = s('newName');
    if (s('newTag')) image.newTag = s('newTag');
    if (s('digest')) image.digest = s('digest');
    extra = parseFieldSpecs(fc.get('additionalImageFields'));
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
 * v0.1.x read a `SetImage` through JSON (the fn SDK's `mapVariantToTypedObject`: kyaml
 * `MarshalJSON`, then `json.Unmarshal` into kustomize `types.Image`), so an unquoted number or
 * boolean in a string field (`newTag: 1.20`) fails the whole call. json.Marshal sorts keys, so
 * the first bad field in key order is the one reported. v0.1.0 wraps Go's error
 * (functions/go/set-image/image_transformer.go `Config` at set-image/v0.1.0); v0.1.1 calls
 * `AsOrDie`, whose panic the SDK logs as `ErrKubeObjectFields` with no field list
 * (kpt-functions-sdk go/fn/object.go and errors.go at 7ad5b77727ee, the commit its go.mod pins).
 */
function jsonStringFieldError(image: Record<string, unknown>, configName: string, version: string): string | undefined {
  const bad = ['digest', 'name', 'newName', 'newTag'].find(
    (k) => typeof image[k] === 'number' || typeof image[k] === 'boolean',
  );
  if (bad === undefined) return undefined;
  if (atLeast(version, '0.1.1')) {
    return `Resource(apiVersion=fn.kpt.dev/v1alpha1, kind=SetImage, Name=${configName}) has unmatched field type: \``;
  }
  const jsonType = typeof image[bad] === 'boolean' ? 'bool' : 'number';
  return (
    'unable to convert functionConfig to fn.kpt.dev/v1alpha1 SetImage:\n' +
    `unable to convert object to *main.SetImage with error: json: cannot unmarshal ${jsonType} into Go struct field Image.image.${bad} of type string`
  );
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

/**
 * kustomize `image.IsImageMatched` (api/v0.11.0 api/image/image.go): the name is not
 * regex-escaped (reproduced), then an optional `@sha256` and an optional `:tag`.
 */
function matchesV01(value: string, name: string): boolean {
  const pattern = `^${name}(@sha256)?(:[a-zA-Z0-9_.{}-]*)?$`;
  try {
    return compileGoRegexp(pattern).matchString(value);
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
  const results: { r: Result; order: string }[] = [];
  let count = 0;
  const update = (obj: KubeObject, path: PathSegment[]): void => {
    const node = obj.getNode(path);
    if (!node) return;
    if (node.kind !== 'scalar')
      throw new FieldSpecError(
        path.join('/'),
        `wrong Node Kind for ${fieldPathOf(path)} expected: ScalarNode was ${node.kind === 'mapping' ? 'MappingNode' : 'SequenceNode'}`,
      );
    const old = node.tag === '!!null' ? '' : node.value;
    const matched = master ? splitImage(old).name === cfg.image.name : matchesV01(old, cfg.image.name);
    if (!matched) return;
    const next = newValue(old, cfg.image, master);
    if (master) {
      if (next === old) return;
      count++;
    } else {
      // The mutation tracker records every matched field, changed or not.
      const r: Result = {
        message: `set image from ${old} to ${next}`,
        severity: 'info',
        resourceRef: resourceRefOf(obj),
        field: { path: fieldPathOf(path), currentValue: old, proposedValue: next },
      };
      const file = fileRefOf(obj);
      if (file) r.file = file;
      results.push({ r, order: goResultString(r) });
    }
    setStringScalar(obj, path, next);
  };
  try {
    for (const obj of items) {
      // kustomize's imagetag filter never edits CustomResourceDefinitions (its deny list).
      if (!master && obj.kind === 'CustomResourceDefinition') continue;
      const before = master ? undefined : snapshotKeyOrder(obj);
      const specs: FieldSpec[] = [];
      if (master) {
        if (obj.kind === 'Pod') specs.push({ path: 'spec/containers[]/image' });
        else if (MASTER_WORKLOADS.includes(obj.kind)) specs.push({ path: 'spec/template/spec/containers[]/image' });
        specs.push(...cfg.additionalImageFields);
      } else {
        // `Config` in image_transformer.go appends the default image fields after the user's.
        specs.push(...cfg.additionalImageFields, ...IMAGE_FIELD_SPECS);
      }
      for (const fs of specs) walkFieldSpec(obj, fs, (path) => update(obj, path));
      if (before) reencodeAsKustomize(obj, before);
    }
  } catch (e) {
    if (e instanceof FieldSpecError || e instanceof FieldEditError) return fail(e.message);
    throw e;
  }
  if (master) return ok([{ message: `summary: updated a total of ${count} image(s)`, severity: 'info' }]);
  if (results.length === 0) return ok([{ message: 'no images changed', severity: 'info' }]);
  // fn SDK `Results.Sort`: by file (path, index), severity, then the Go `%s` rendering.
  const key = (x: { r: Result }): [string, number] => [x.r.file?.path ?? '', x.r.file?.index ?? 0];
  results.sort((a, b) => {
    const [pa, ia] = key(a);
    const [pb, ib] = key(b);
    if (pa !== pb) return pa < pb ? -1 : 1;
    if (ia !== ib) return ia - ib;
    return a.order < b.order ? -1 : a.order > b.order ? 1 : 0;
  });
  return ok(results.map((x) => x.r));
}

/** kyaml `RNode.FieldPath()`: keys joined with `.`, list indexes left out. */
function fieldPathOf(path: readonly PathSegment[]): string {
  return path.filter((p) => typeof p === 'string').join('.');
}

/** The fn SDK's `resultToString`: `%s` of the result's resource ref and field pointers. */
function goResultString(r: Result): string {
  const ref = r.resourceRef;
  const refText = ref
    ? `&{{${ref.apiVersion} ${ref.kind}} {${ref.name} ${ref.namespace ?? ''}}}`
    : '%!s(*yaml.ResourceIdentifier=<nil>)';
  const f = r.field;
  const fieldText = f ? `&{${f.path} ${String(f.currentValue)} ${String(f.proposedValue)}}` : '%!s(*fn.Field=<nil>)';
  return `resource-ref:${refText},field:${fieldText},message:${r.message}`;
}

const VERSIONS = ['v0.1.0', 'v0.1.1'];

export const setImageFn = defineMutator({
  name: 'set-image',
  usage: 'Updates container image names, tags and digests.',
  run(ctx) {
    const version = emulatedVersion(ctx, VERSIONS[VERSIONS.length - 1], true);
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
