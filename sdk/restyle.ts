/**
 * Style emulation of catalog versions that re-encode resources (docs/catalog.md, "Style generations", group B:
 * kustomize round trips through JSON/maps). `snapshotKeyOrder` records each mapping's keys before
 * the transform; `reencodeAsKustomize` then applies, in place:
 * - string scalars lose their quotes and explicit `!!str` tags (the emitter re-quotes what needs
 *   it: plain → single → double, multi-line → literal), except YAML 1.1 booleans and base-60
 *   numbers, which go-yaml's encoder double-quotes; nulls become `null`, booleans `true`/`false`;
 * - flow mappings and sequences become block;
 * - keys added by the transform go after the input's keys, in alphabetical order (a JSON round
 *   trip sorts keys; kpt restores only the input's order); new mappings are sorted entirely.
 * Comments are kept (kpt restores them by id after such functions anyway).
 */
import type { KubeObject } from '../src/core/kube-object.ts';
import type { YNode } from '../src/core/yaml/node.ts';

export type KeySnapshot = WeakMap<YNode, ReadonlySet<string>>;

export function snapshotKeyOrder(obj: KubeObject): KeySnapshot {
  const snap: KeySnapshot = new WeakMap();
  const walk = (n: YNode): void => {
    if (n.kind === 'mapping') {
      const keys = new Set<string>();
      for (let i = 0; i + 1 < n.content.length; i += 2) keys.add(n.content[i].value);
      snap.set(n, keys);
    }
    for (const c of n.content) walk(c);
  };
  walk(obj.doc);
  return snap;
}

const OLD_BOOL = /^(y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF)$/;
const BASE60 = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;

export function reencodeAsKustomize(obj: KubeObject, before: KeySnapshot): void {
  const walk = (n: YNode): void => {
    if (n.kind === 'scalar') {
      if (n.tag === '!!str') {
        // A JSON string: explicit tags are gone, quotes only where needed.
        n.tagged = false;
        n.style = OLD_BOOL.test(n.value) || BASE60.test(n.value) ? 'double' : '';
      } else if (n.tag === '!!null') {
        n.value = 'null';
        n.tagged = false;
        n.style = '';
      } else if (n.tag === '!!bool') {
        n.value = /^(true|True|TRUE)$/.test(n.value) ? 'true' : 'false';
        n.tagged = false;
        n.style = '';
      }
      return;
    }
    if (n.kind === 'mapping' || n.kind === 'sequence') n.style = '';
    if (n.kind === 'mapping') {
      const known = before.get(n);
      const pairs: [YNode, YNode][] = [];
      for (let i = 0; i + 1 < n.content.length; i += 2) pairs.push([n.content[i], n.content[i + 1]]);
      const old = known ? pairs.filter(([k]) => known.has(k.value)) : [];
      const added = pairs
        .filter(([k]) => !known || !known.has(k.value))
        .sort(([a], [b]) => (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
      n.content = [...old, ...added].flat();
    }
    for (const c of n.content) walk(c);
  };
  walk(obj.doc);
}
