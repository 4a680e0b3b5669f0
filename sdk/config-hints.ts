/**
 * Config hints for built-in functions (docs/cli.md, "Checking function configs"): what a
 * functionConfig says that the function will not read, found from the built-in's declared config
 * kinds and JSON Schema, without running it. The catalog functions themselves stay silent about
 * such keys (kyaml decodes typed configs leniently) and their messages are kpt's, so these hints
 * are reported by `krmfn check` and never added to a function's own stderr or results.
 *
 * `configHints(fn, config)`:
 * - a function that declares no config kinds, or takes any kind (`*`) → no hints;
 * - a kind the function does not accept → one hint naming the accepted kinds (and the nearest);
 * - a ConfigMap → no hints: catalog functions read ConfigMap data by their own rules (set-labels
 *   and set-annotations take every key as a label or annotation);
 * - a typed config → every key the schema does not declare, at any depth the schema describes,
 *   with the nearest declared key (else the keys it reads), and every schema violation (type, enum, required) by path.
 */
import type { KubeObject } from '../src/core/kube-object.ts';
import { nearestName } from '../src/core/nearest-name.ts';
import { didYouMean } from './config.ts';
import { pointerToFieldPath } from './results.ts';
import { allowsProperty, propertySchema, validateSchema, type JsonSchema } from './schema.ts';

export interface ConfigHint {
  /** Field path in the config (`labels`, `spec.items[0].name`); empty for the whole config. */
  field: string;
  message: string;
}

/** What `configHints` needs of a built-in: its name, accepted config kinds and config schema. */
export interface HintedFunction {
  readonly name: string;
  readonly configKinds: readonly string[];
  readonly schema?: JsonSchema;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const OBJECT_KEYS = new Set(['apiVersion', 'kind', 'metadata']);

export function configHints(fn: HintedFunction, config: KubeObject): ConfigHint[] {
  // No declared kinds, or any kind (upsert-resource's config is the resource itself): nothing to check.
  if (fn.configKinds.length === 0 || fn.configKinds.includes('*')) return [];
  if (config.kind === 'ConfigMap' && fn.configKinds.includes('ConfigMap')) return [];
  if (!fn.configKinds.includes(config.kind)) {
    const near = nearestName(config.kind, fn.configKinds);
    return [
      {
        field: 'kind',
        message: `${fn.name} does not accept kind ${JSON.stringify(config.kind)} (it accepts ${fn.configKinds.join(', ')})${near ? `; did you mean ${JSON.stringify(near)}?` : ''}`,
      },
    ];
  }
  if (fn.schema === undefined) return [];
  const body: Obj = {};
  for (const [k, v] of Object.entries(config.toJS())) if (!OBJECT_KEYS.has(k)) body[k] = v;
  const hints: ConfigHint[] = [];
  unknownKeys(fn, fn.schema, body, '', hints);
  for (const e of validateSchema(fn.schema, body)) {
    if (e.keyword === 'additionalProperties') continue; // reported with its did-you-mean above
    const path = pointerToFieldPath(e.instancePath);
    const missing = e.keyword === 'required' ? String(e.params['missingProperty'] ?? '') : '';
    const field = missing ? (path ? `${path}.${missing}` : missing) : path;
    hints.push({ field, message: missing ? `${field} is required` : `${field || '(root)'}: ${e.message}` });
  }
  return hints;
}

function unknownKeys(
  fn: HintedFunction,
  schema: JsonSchema | undefined,
  value: unknown,
  at: string,
  out: ConfigHint[],
): void {
  if (Array.isArray(value)) {
    const items = isObj(schema) ? (schema['items'] as JsonSchema | undefined) : undefined;
    value.forEach((v, i) => unknownKeys(fn, items, v, `${at}[${i}]`, out));
    return;
  }
  if (!isObj(value) || !isObj(schema)) return;
  for (const [k, v] of Object.entries(value)) {
    const field = at ? `${at}.${k}` : k;
    if (!allowsProperty(schema, k)) {
      out.push({ field, message: `${fn.name} does not read ${field}${didYouMean(k, schema) || readsInstead(schema)}` });
      continue;
    }
    unknownKeys(fn, propertySchema(schema, k), v, field, out);
  }
}

/** `; it reads labels, additionalLabelFields`: the declared keys, when none is near the unknown one. */
function readsInstead(schema: Obj): string {
  const props = schema['properties'];
  const names = isObj(props) ? Object.keys(props) : [];
  return names.length > 0 ? `; it reads ${names.join(', ')}` : '';
}
