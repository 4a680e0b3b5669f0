/**
 * Reading catalog-style function configs: the string `data` map of a ConfigMap (or of any object,
 * as apply-setters does) in document order.
 */
import type { KubeObject } from '../../sdk/index.ts';

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
