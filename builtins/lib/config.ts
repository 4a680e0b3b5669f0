/**
 * Reading catalog-style function configs: the string `data` map of a ConfigMap (or of any object,
 * as apply-setters does) in document order.
 */
import type { KubeObject } from '../../sdk/index.ts';
import { goMapRoundTrip } from './yaml-v3-roundtrip.ts';

/** `data` as strings in document order (non-scalar values are skipped); `{}` when absent. */
export function dataMap(obj: KubeObject | undefined, field = 'data'): Map<string, string> {
  const out = new Map<string, string>();
  if (!obj) return out;
  const n = obj.getNode([field]);
  if (!n || n.kind !== 'mapping') return out;
  for (let i = 0; i + 1 < n.content.length; i += 2) {
    const v = n.content[i + 1];
    if (v.kind === 'scalar') out.set(n.content[i].value, v.tag === '!!null' ? '' : v.value);
  }
  return out;
}

export function isConfigMap(obj: KubeObject | undefined): boolean {
  return !!obj && obj.apiVersion === 'v1' && obj.kind === 'ConfigMap';
}

/**
 * kyaml `RNode.GetDataMap` (kyaml/yaml/rnode.go at v0.10.5 – v0.10.21): every `data` entry, a
 * nested mapping or list (whose node has no value) and a null as the empty string. `viaGoMap`:
 * the config was first decoded into a Go map and rebuilt (`kyaml.FromMap`), so scalars read as
 * go-yaml v3 re-encodes them (builtins/lib/yaml-v3-roundtrip.ts). Go ranges over the result in
 * random order; this keeps document order.
 */
export function kyamlDataMap(fc: KubeObject | undefined, viaGoMap = false): Map<string, string> {
  const out = new Map<string, string>();
  const data = fc?.getNode(['data']);
  if (data?.kind !== 'mapping') return out;
  for (let i = 0; i + 1 < data.content.length; i += 2) {
    const v = data.content[i + 1];
    const text = viaGoMap ? goMapRoundTrip(v) : v.kind === 'scalar' && v.tag !== '!!null' ? v.value : '';
    out.set(data.content[i].value, text);
  }
  return out;
}
