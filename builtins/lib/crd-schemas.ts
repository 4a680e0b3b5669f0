/**
 * Schemas of the custom resources a package defines: the `openAPIV3Schema` of every
 * CustomResourceDefinition among the items (v1 per-version schemas, v1beta1 `spec.validation`),
 * keyed `group/version/Kind`, converted to plain JSON Schema for the SDK's interpreted validator
 * (`nullable` becomes a `null` type; `strict` closes objects that list properties and do not
 * preserve unknown fields).
 */
import type { JsonSchema, KubeObject } from '../../sdk/index.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export function crdSchemas(items: readonly KubeObject[], strict: boolean): Map<string, JsonSchema> {
  const out = new Map<string, JsonSchema>();
  for (const crd of items) {
    if (crd.kind !== 'CustomResourceDefinition' || !crd.apiVersion.startsWith('apiextensions.k8s.io/')) continue;
    const spec = crd.get('spec');
    if (!isObj(spec)) continue;
    const group = typeof spec['group'] === 'string' ? spec['group'] : '';
    const names = isObj(spec['names']) ? spec['names'] : {};
    const kind = typeof names['kind'] === 'string' ? names['kind'] : '';
    if (!group || !kind) continue;
    const common = isObj(spec['validation']) ? spec['validation']['openAPIV3Schema'] : undefined;
    const versions = Array.isArray(spec['versions']) ? spec['versions'] : [];
    const list =
      versions.length > 0 ? versions : typeof spec['version'] === 'string' ? [{ name: spec['version'] }] : [];
    for (const v of list) {
      if (!isObj(v) || typeof v['name'] !== 'string') continue;
      const own = isObj(v['schema']) ? v['schema']['openAPIV3Schema'] : undefined;
      const schema = own ?? common;
      if (!isObj(schema)) continue;
      const js = toJsonSchema(schema, strict);
      // Every object carries apiVersion, kind and metadata, whether or not the CRD lists them.
      if (strict && isObj(js) && isObj(js['properties']))
        js['properties'] = { apiVersion: {}, kind: {}, metadata: {}, ...js['properties'] };
      out.set(`${group}/${v['name']}/${kind}`, js);
    }
  }
  return out;
}

function toJsonSchema(s: unknown, strict: boolean): JsonSchema {
  if (!isObj(s)) return true;
  const o: Obj = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === 'properties' && isObj(v))
      o[k] = Object.fromEntries(Object.entries(v).map(([pk, pv]) => [pk, toJsonSchema(pv, strict)]));
    else if ((k === 'items' || k === 'additionalProperties' || k === 'not') && isObj(v)) o[k] = toJsonSchema(v, strict);
    else if ((k === 'allOf' || k === 'anyOf' || k === 'oneOf') && Array.isArray(v))
      o[k] = v.map((x) => toJsonSchema(x, strict));
    else o[k] = v;
  }
  if (s['nullable'] === true && typeof o['type'] === 'string') o['type'] = [o['type'], 'null'];
  if (s['x-kubernetes-int-or-string'] === true) {
    delete o['type'];
    if (!o['anyOf']) o['anyOf'] = [{ type: 'integer' }, { type: 'string' }];
  }
  if (
    strict &&
    isObj(s['properties']) &&
    s['additionalProperties'] === undefined &&
    s['x-kubernetes-preserve-unknown-fields'] !== true
  ) {
    o['additionalProperties'] = false;
  }
  return o;
}
