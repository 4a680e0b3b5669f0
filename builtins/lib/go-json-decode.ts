/**
 * The first type error Go's encoding/json reports when a decoded config is unmarshalled into a
 * typed Go struct, as the fn SDK's `KubeObject.As` does (kpt-functions-sdk go/fn/internal/variant.go
 * `MapVariantToTypedObject`: kyaml `MarshalJSON`, whose Go map sorts keys, then `json.Unmarshal`).
 * Values are the config as decoded JS values (objects, arrays, strings, numbers, booleans, null).
 * The message is Go's `UnmarshalTypeError`: `json: cannot unmarshal <kind> into Go struct field
 * <Struct>.<path> of type <type>`, where Struct is the struct holding the field, path the JSON
 * field names from the root (no list indexes) and kind `string`, `bool`, `object`, `array`,
 * `number` (`number 1.5` for a fraction into an int). Unknown fields are ignored and field names
 * match case-insensitively, as in Go. Checked against Go 1.19's encoding/json
 * (test/builtins/apply-replacements/config-types.test.ts).
 */

/** A Go type: a named struct, a slice, a pointer (printed as its element), or a scalar. */
export type GoType =
  | { kind: 'struct'; name: string; fields: Record<string, GoType> }
  | { kind: 'slice'; elem: GoType }
  | { kind: 'string' | 'int' | 'bool' };

export function goTypeName(t: GoType): string {
  if (t.kind === 'struct') return t.name;
  if (t.kind === 'slice') return `[]${goTypeName(t.elem)}`;
  return t.kind;
}

/** The first error decoding `value` into `root` (a struct), or undefined. */
export function goJsonTypeError(value: unknown, root: GoType & { kind: 'struct' }): string | undefined {
  return decode(value, root, undefined, []);
}

function decode(value: unknown, t: GoType, holder: string | undefined, path: string[]): string | undefined {
  if (value === null || value === undefined) return undefined;
  const fail = (kind: string): string =>
    `json: cannot unmarshal ${kind} into Go struct field ${holder}.${path.join('.')} of type ${goTypeName(t)}`;
  switch (t.kind) {
    case 'string':
      return typeof value === 'string' ? undefined : fail(jsonKind(value));
    case 'bool':
      return typeof value === 'boolean' ? undefined : fail(jsonKind(value));
    case 'int':
      if (typeof value !== 'number') return fail(jsonKind(value));
      return Number.isInteger(value) ? undefined : fail(`number ${value}`);
    case 'slice':
      if (!Array.isArray(value)) return fail(jsonKind(value));
      for (const item of value) {
        const err = decode(item, t.elem, holder, path);
        if (err) return err;
      }
      return undefined;
    case 'struct': {
      if (typeof value !== 'object' || Array.isArray(value)) return fail(jsonKind(value));
      const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      for (const [key, v] of entries) {
        const name = fieldName(t.fields, key);
        if (name === undefined) continue;
        const err = decode(v, t.fields[name], t.name.replace(/^.*\./, ''), [...path, name]);
        if (err) return err;
      }
      return undefined;
    }
  }
}

/** Go matches JSON keys to fields exactly first, then case-insensitively. */
function fieldName(fields: Record<string, GoType>, key: string): string | undefined {
  if (key in fields) return key;
  return Object.keys(fields).find((f) => f.toLowerCase() === key.toLowerCase());
}

function jsonKind(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'bool';
  return Array.isArray(v) ? 'array' : 'object';
}
