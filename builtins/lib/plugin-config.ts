/**
 * The kustomize-plugin configs of set-labels v0.1.3–v0.1.5 and set-annotations v0.1.3–v0.1.4
 * (builtins/docs/set-labels.md, "Nested values"; builtins/docs/set-annotations.md, "Nested values"). The typed kinds
 * (`SetLabels`, `SetAnnotations` and their legacy names) are serialised back to YAML and decoded
 * with sigs.k8s.io/yaml v1.2.0 into the plugin struct, whose `labels` / `annotations` field is a
 * `map[string]string` (functions/go/set-labels main.go and label_transformer.go, set-annotations
 * main.go and annotations_transformer.go at each tag). A nested mapping or list as a value reaches
 * encoding/json as an object or array and fails the call with
 * `failed to unmarshal config "<yaml>": error unmarshaling JSON: json: cannot unmarshal object into Go struct field plugin.labels of type string`.
 * The `<yaml>` is what the tag serialised: v0.1.3 of both (`viaGoMap`) rebuilt the config from a
 * Go map (`kyaml.FromMap`: keys sorted, comments dropped,
 * styles re-encoded); later tags print the config node itself (`RNode.String()`). Both use
 * go-yaml v3's encoder with a 2-space indent, which indents block sequences.
 */
import { cloneNode, emitYamlDocument, KubeObject, reencodeAsKustomize, type YNode } from '../../sdk/index.ts';
import { goQuote } from './report.ts';

/** The failure message for a nested value in `field`, or undefined when every value is a scalar. */
export function nestedValueError(
  fc: KubeObject,
  field: 'labels' | 'annotations',
  viaGoMap: boolean,
): string | undefined {
  const map = fc.getNode([field]);
  if (map?.kind !== 'mapping') return undefined;
  const pairs: [string, YNode][] = [];
  for (let i = 0; i + 1 < map.content.length; i += 2) {
    const value = map.content[i + 1].kind === 'alias' ? map.content[i + 1].alias : map.content[i + 1];
    if (value) pairs.push([map.content[i].value, value]);
  }
  // json.Marshal sorts map keys, and encoding/json reports the first error in the text.
  pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const bad = pairs.find(([, v]) => v.kind === 'mapping' || v.kind === 'sequence');
  return bad ? unmarshalError(fc, field, bad[1], viaGoMap) : undefined;
}

/** The same failure for a plain `string` field of the plugin (set-namespace's `namespace`). */
export function nestedStringError(fc: KubeObject, field: string, viaGoMap: boolean): string | undefined {
  const node = fc.getNode([field]);
  const value = node?.kind === 'alias' ? node.alias : node;
  if (!value || (value.kind !== 'mapping' && value.kind !== 'sequence')) return undefined;
  return unmarshalError(fc, field, value, viaGoMap);
}

function unmarshalError(fc: KubeObject, field: string, bad: YNode, viaGoMap: boolean): string {
  const jsonKind = bad.kind === 'mapping' ? 'object' : 'array';
  return (
    `failed to unmarshal config ${goQuote(configText(fc, viaGoMap))}: error unmarshaling JSON: ` +
    `json: cannot unmarshal ${jsonKind} into Go struct field plugin.${field} of type string`
  );
}

function configText(fc: KubeObject, viaGoMap: boolean): string {
  if (!viaGoMap) return emitYamlDocument(fc.doc, 'wide');
  const copy = new KubeObject(cloneNode(fc.doc));
  dropComments(copy.doc);
  reencodeAsKustomize(copy, new WeakMap());
  return emitYamlDocument(copy.doc, 'wide');
}

function dropComments(n: YNode): void {
  n.headComment = '';
  n.lineComment = '';
  n.footComment = '';
  for (const c of n.content) dropComments(c);
}
