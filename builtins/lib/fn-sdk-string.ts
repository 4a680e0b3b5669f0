/**
 * A string field read as kpt-functions-sdk/go/fn reads it with `GetString` / `NestedString`
 * (go/fn/internal/maphelpers.go `GetNestedValue` and `GetNestedString`, scalar.go `StringValue`,
 * identical at e5817d5d2014, 2afd3aec6b69, 7ad5b77727ee and f85503febd54, the commits the
 * set-namespace v0.3.x–v0.4.x tags pin): every step but the last must be a mapping, the last a
 * scalar whose resolved YAML tag is `!!str`. A missing key is "not found" (the empty string); a
 * plain `123`, `true`, `1.5`, `~` or an empty value, a nested mapping or a list is an error, which
 * the `OrDie` variants turn into a panic (see builtins/lib/go-panic.ts for how each SDK commit
 * surfaces it). Quoted scalars and `!!str`-tagged ones are strings whatever their text.
 */
import type { YNode } from '../../sdk/index.ts';

export type SdkString = { ok: true; found: boolean; value: string } | { ok: false };

/** `fields` read from `root` (an object's root mapping or any mapping inside it). */
export function sdkNestedString(root: YNode, fields: readonly string[]): SdkString {
  let node = root;
  for (let i = 0; i < fields.length; i++) {
    if (node.kind !== 'mapping') return { ok: false };
    const value = mappingValue(node, fields[i]);
    if (!value) return { ok: true, found: false, value: '' };
    node = value;
  }
  if (node.kind !== 'scalar' || node.tag !== '!!str') return { ok: false };
  return { ok: true, found: true, value: node.value };
}

function mappingValue(map: YNode, key: string): YNode | undefined {
  for (let i = 0; i + 1 < map.content.length; i += 2) if (map.content[i].value === key) return map.content[i + 1];
  return undefined;
}
