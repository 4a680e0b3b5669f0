/**
 * Config binding (docs/sdk.md, "Design"): turns the raw `functionConfig` into the typed,
 * coerced, validated config a function declared.
 *
 * 1. Absent, or the `function-input` ConfigMap with empty `data` (or an empty object) → "no
 *    config": defaults are applied to `{}`; a schema with required fields makes it a config error.
 * 2. A `v1` `ConfigMap` (any name): each `data` value is coerced to its key's schema type (strict
 *    numbers, `true`/`false`, JSON text for arrays and objects). Keys the schema does not declare
 *    are an error (`additionalKeys: 'error'`, the default), a warning, or ignored. With
 *    `configMapField`, the whole `data` map becomes that field instead (the Go SDK's "first string
 *    map" rule: labels, annotations).
 * 3. A custom resource of a declared kind and apiVersion → its body minus apiVersion/kind/metadata.
 * 4. Anything else → a config error naming the expected kinds.
 * Validation uses `validate` when given (an ajv-compatible function, e.g. precompiled standalone
 * code), else the built-in interpreter of ./schema.ts; `default`s are applied either way.
 */
import type { KubeObject } from '../src/core/kube-object.ts';
import type { Result } from '../src/core/result.ts';
import { nearestName } from '../src/core/nearest-name.ts';
import { makeResult, pointerToFieldPath, type SchemaErrorLike } from './results.ts';
import { allowsProperty, propertySchema, validateSchema, type JsonSchema } from './schema.ts';

export const DEFAULT_CONFIG_API_VERSION = 'fn.kpt.dev/v1alpha1';

/** An ajv-compatible validate function: returns validity and leaves errors on `.errors`. */
export interface ValidateFunction {
  (data: unknown): boolean;
  errors?: readonly SchemaErrorLike[] | null;
}

export interface BindContext {
  /** Resolved image of a built-in (name, tag, version), when the host knows it. */
  image?: { name: string; tag: string; version: string };
}

export interface ConfigSpec<C> {
  /** Kind(s) of the custom resource form. */
  kind: string | readonly string[];
  /** Accepted apiVersions of the custom resource (default `fn.kpt.dev/v1alpha1`); `['*']` accepts any. */
  apiVersions?: readonly string[];
  /** JSON Schema of the config body (what `ctx.config` holds). */
  schema?: JsonSchema;
  /** Replaces the built-in schema interpreter (for example an ajv standalone validator). */
  validate?: ValidateFunction;
  /** What to do with ConfigMap keys the schema does not declare (default 'error'). */
  additionalKeys?: 'error' | 'warn' | 'ignore';
  /** Put a ConfigMap's whole `data` map into this field instead of binding key by key. */
  configMapField?: string;
  /** Whether the ConfigMap form is accepted (default true). */
  acceptConfigMap?: boolean;
  /**
   * Full override of binding (catalog functions with exact upstream messages). Throw `ConfigError`
   * to report a config problem. When given, nothing else of this spec is applied.
   */
  bind?: (raw: KubeObject | undefined, ctx: BindContext) => C;
}

export type BindOutcome<C> = { ok: true; config: C; results: Result[] } | { ok: false; results: Result[] };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The `function-input` ConfigMap kpt sends with no arguments (for tests). */
export function emptyFunctionInput(): Obj {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'function-input' }, data: {} };
}

/** No config at all: absent, `function-input` with empty data, or an object with nothing but apiVersion/kind/metadata. */
export function isEmptyConfig(raw: KubeObject | undefined): boolean {
  if (!raw) return true;
  const body = raw.toJS();
  if (raw.kind === 'ConfigMap' && raw.apiVersion === 'v1') {
    const data = body['data'];
    const empty = data === undefined || data === null || (isObj(data) && Object.keys(data).length === 0);
    return (
      empty &&
      (raw.name === 'function-input' ||
        Object.keys(body).every((k) => ['apiVersion', 'kind', 'metadata', 'data'].includes(k)))
    );
  }
  return Object.keys(body).length === 0;
}

const kindsOf = (spec: ConfigSpec<unknown>): string[] => (typeof spec.kind === 'string' ? [spec.kind] : [...spec.kind]);

/** Coerces one ConfigMap string to what the property schema expects; unchanged when it does not fit. */
export function coerceString(text: string, schema: JsonSchema | undefined): unknown {
  if (!isObj(schema)) return text;
  const types = Array.isArray(schema['type'])
    ? (schema['type'] as string[])
    : schema['type']
      ? [schema['type'] as string]
      : [];
  if (types.length === 0 || types.includes('string')) return text;
  for (const t of types) {
    if ((t === 'integer' || t === 'number') && /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$/.test(text.trim())) {
      return Number(text.trim());
    }
    if (t === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
    if (t === 'null' && (text === '' || text === 'null')) return null;
    if (t === 'array' || t === 'object') {
      try {
        const v: unknown = JSON.parse(text);
        if (t === 'array' ? Array.isArray(v) : isObj(v)) return v;
      } catch {
        // not JSON: leave the string for the validator to reject
      }
    }
  }
  return text;
}

const scalarText = (v: unknown): string =>
  v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);

export function bindConfig<C>(spec: ConfigSpec<C>, raw: KubeObject | undefined, ctx: BindContext = {}): BindOutcome<C> {
  if (spec.bind) return { ok: true, config: spec.bind(raw, ctx), results: [] };
  const kinds = kindsOf(spec);
  const apiVersions = spec.apiVersions ?? [DEFAULT_CONFIG_API_VERSION];
  const expected = `${spec.acceptConfigMap === false ? '' : '`ConfigMap` (v1) or '}${kinds.map((k) => `\`${k}\``).join(' or ')} (${apiVersions.join(', ')})`;
  const fail = (message: string, field?: string): BindOutcome<C> => ({
    ok: false,
    results: [configResult(message, raw, field)],
  });
  const warnings: Result[] = [];

  let body: Obj;
  let fromConfigMap = false;
  if (isEmptyConfig(raw)) {
    body = spec.configMapField ? { [spec.configMapField]: {} } : {};
  } else if (raw!.kind === 'ConfigMap' && raw!.apiVersion === 'v1' && spec.acceptConfigMap !== false) {
    fromConfigMap = true;
    const data = raw!.get('data');
    const entries = isObj(data) ? Object.entries(data) : [];
    if (spec.configMapField) {
      body = { [spec.configMapField]: Object.fromEntries(entries.map(([k, v]) => [k, scalarText(v)])) };
    } else {
      body = {};
      for (const [k, v] of entries) {
        if (!allowsProperty(spec.schema, k)) {
          const mode = spec.additionalKeys ?? 'error';
          const msg = `unknown key ${JSON.stringify(k)} in the ConfigMap data of functionConfig${didYouMean(k, spec.schema)}`;
          if (mode === 'error') return fail(msg, `data.${k}`);
          if (mode === 'warn') warnings.push({ ...configResult(msg, raw, `data.${k}`), severity: 'warning' });
          continue;
        }
        body[k] = coerceString(scalarText(v), propertySchema(spec.schema, k));
      }
    }
  } else if (kinds.includes(raw!.kind) && (apiVersions.includes('*') || apiVersions.includes(raw!.apiVersion))) {
    const all = raw!.toJS();
    body = {};
    for (const [k, v] of Object.entries(all)) if (k !== 'apiVersion' && k !== 'kind' && k !== 'metadata') body[k] = v;
  } else {
    return fail(`functionConfig must be a ${expected}, got \`${raw!.kind}\` (${raw!.apiVersion || 'no apiVersion'})`);
  }

  if (spec.schema !== undefined || spec.validate) {
    const errors = runValidation(spec, body);
    if (errors.length > 0) {
      if (isEmptyConfig(raw)) return fail(`functionConfig is required: provide a ${expected}`);
      return {
        ok: false,
        results: errors.map((e) => {
          let path = pointerToFieldPath(e.instancePath);
          const missing = e.keyword === 'required' ? String(e.params?.['missingProperty'] ?? '') : '';
          const extra = e.keyword === 'additionalProperties' ? String(e.params?.['additionalProperty'] ?? '') : '';
          const parent = extra ? schemaAt(spec.schema, e.instancePath) : undefined;
          if (missing || extra) path = path ? `${path}.${missing || extra}` : missing || extra;
          const field = path && fromConfigMap && !spec.configMapField ? `data.${path}` : path;
          const what = missing
            ? 'is required'
            : extra
              ? `is not a known field${didYouMean(extra, parent)}`
              : (e.message ?? 'is invalid');
          return configResult(`functionConfig is invalid: ${path || '(root)'}: ${what}`, raw, field || undefined);
        }),
      };
    }
  }
  return { ok: true, config: body as C, results: warnings };
}

/** `; did you mean "labelValue"?` when an object schema declares a property near `key`, else ''. */
export function didYouMean(key: string, schema: JsonSchema | undefined): string {
  const props = isObj(schema) ? schema['properties'] : undefined;
  const near = isObj(props) ? nearestName(key, Object.keys(props)) : undefined;
  return near !== undefined ? `; did you mean ${JSON.stringify(near)}?` : '';
}

/** The sub-schema describing the value at a JSON pointer (through properties and items), if plain. */
function schemaAt(schema: JsonSchema | undefined, pointer: string): JsonSchema | undefined {
  let s = schema;
  for (const raw of pointer.split('/').slice(1)) {
    if (!isObj(s)) return undefined;
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    s = /^\d+$/.test(seg) && s['items'] !== undefined ? (s['items'] as JsonSchema) : propertySchema(s, seg);
  }
  return s;
}

function runValidation(spec: ConfigSpec<unknown>, body: Obj): SchemaErrorLike[] {
  if (spec.validate) {
    if (spec.schema !== undefined) validateSchema(spec.schema, body, { useDefaults: true }); // defaults only
    return spec.validate(body) ? [] : [...(spec.validate.errors ?? [])];
  }
  return validateSchema(spec.schema ?? true, body, { useDefaults: true });
}

/** An error result about the functionConfig (pointing at it when it came from a file). */
export function configResult(message: string, raw: KubeObject | undefined, field?: string): Result {
  return makeResult('error', message, {
    ...(raw ? { object: raw } : {}),
    ...(field ? { field: { path: field } } : {}),
  });
}
