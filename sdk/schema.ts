/**
 * A small JSON Schema validator for function configs, interpreted (no code generation), so it is
 * CSP-safe in browsers: no `new Function`, no `eval`. It covers the draft-07 / 2020-12 subset that
 * function configs use: `type` (one or a list), `properties`, `required`, `additionalProperties`,
 * `patternProperties`, `items`, `enum`, `const`, `default` (applied when `useDefaults`), string
 * length and `pattern`, numeric bounds, `multipleOf`, array and object sizes, `uniqueItems`,
 * `allOf`/`anyOf`/`oneOf`/`not`, `if`/`then`/`else`, `prefixItems` (2020-12 tuples, with `items`
 * for the rest), `contains` with `minContains`/`maxContains`, `propertyNames`, `dependentRequired`,
 * `format` (the formats of sdk/schema-formats.ts), and local `$ref`s (`#/definitions/...`,
 * `#/$defs/...`). Why an interpreter and not ajv: docs/architecture.md, "Dependencies".
 * Unknown keywords are ignored, as validators do for annotations. `pattern` and
 * `patternProperties` run on Go's RE2 engine (src/core/go-regexp.ts): linear time on hostile CRD
 * patterns, and the syntax Go validators accept (ECMA-only lookarounds and backreferences throw).
 *
 * Errors have ajv's shape (`instancePath`, `keyword`, `message`, `params`) and ajv's messages, so
 * a function may swap in an ajv-compiled (for example standalone, precompiled) validator through
 * `config.validate` and get identical results.
 */
import { compileGoRegexp, type GoRegexp } from '../src/core/go-regexp.ts';
import { failsFormat } from './schema-formats.ts';

export type JsonSchema = boolean | { [keyword: string]: unknown };

export interface SchemaError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  message: string;
  params: Record<string, unknown>;
  /** Set on the errors of a `propertyNames` subschema: the property name that failed (as ajv). */
  propertyName?: string;
}

export interface SchemaValidateOptions {
  /** Fill in `default`s of missing properties (ajv `useDefaults`). Mutates `data`. */
  useDefaults?: boolean;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  if (typeof v === 'bigint') return 'integer';
  return typeof v;
}

function matchesType(v: unknown, t: string): boolean {
  const actual = typeOf(v);
  if (t === 'number') return actual === 'number' || actual === 'integer';
  return actual === t;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isObj(a) && isObj(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && deepEqual(a[k], b[k]));
  }
  return false;
}

/** Deep copy of JSON-like data (no structuredClone: embedded JS engines lack it). */
function clonePlain(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(clonePlain);
  if (isObj(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, clonePlain(x)]));
  return v;
}

/**
 * Patterns come from users' CRDs too: they run on Go's RE2 semantics (linear time), as in the Go
 * validators kpt's catalog uses (kubeconform's jsonschema compiles them with Go's regexp). Compiled
 * once per process (compiling dominated validation: docs/architecture.md, "Dependencies"); the
 * cache is emptied when it reaches `MAX_CACHED_PATTERNS`, so hostile schemas cannot grow it.
 */
const regexCache = new Map<string, GoRegexp>();
const MAX_CACHED_PATTERNS = 1024;
function goRegexp(pattern: string): GoRegexp {
  let r = regexCache.get(pattern);
  if (!r) {
    if (regexCache.size >= MAX_CACHED_PATTERNS) regexCache.clear();
    regexCache.set(pattern, (r = compileGoRegexp(pattern)));
  }
  return r;
}

const escapePointer = (s: string): string =>
  s.includes('~') || s.includes('/') ? s.replace(/~/g, '~0').replace(/\//g, '~1') : s;

/** Validates `data` against `schema`; returns [] when valid. */
export function validateSchema(schema: JsonSchema, data: unknown, opts: SchemaValidateOptions = {}): SchemaError[] {
  const errors: SchemaError[] = [];
  const root = schema;
  const re = (p: string): { test(s: string): boolean } => {
    const r = goRegexp(p);
    return { test: (s) => r.matchString(s) };
  };

  const resolveRef = (ref: string): JsonSchema => {
    if (!ref.startsWith('#')) throw new Error(`unsupported $ref ${ref}: only local references are resolved`);
    let cur: unknown = root;
    for (const part of ref.slice(1).split('/').filter(Boolean)) {
      const key = decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~');
      cur = isObj(cur) ? cur[key] : undefined;
    }
    if (cur === undefined) throw new Error(`unresolved $ref ${ref}`);
    return cur as JsonSchema;
  };

  const walk = (s: JsonSchema, v: unknown, path: string, spath: string, out: SchemaError[]): void => {
    if (s === true) return;
    if (s === false) {
      out.push({
        instancePath: path,
        schemaPath: spath,
        keyword: 'false schema',
        message: 'boolean schema is false',
        params: {},
      });
      return;
    }
    const err = (keyword: string, message: string, params: Record<string, unknown> = {}): void => {
      out.push({ instancePath: path, schemaPath: `${spath}/${keyword}`, keyword, message, params });
    };
    if (typeof s['$ref'] === 'string') walk(resolveRef(s['$ref']), v, path, `${spath}/$ref`, out);

    if (s['type'] !== undefined) {
      const types = Array.isArray(s['type']) ? (s['type'] as string[]) : [s['type'] as string];
      if (!types.some((t) => matchesType(v, t))) {
        err('type', `must be ${types.join(',')}`, { type: types.join(',') });
        return;
      }
    }
    if (Array.isArray(s['enum']) && !s['enum'].some((e) => deepEqual(e, v))) {
      err('enum', 'must be equal to one of the allowed values', { allowedValues: s['enum'] });
    }
    if ('const' in s && !deepEqual(s['const'], v))
      err('const', 'must be equal to constant', { allowedValue: s['const'] });

    if (typeof v === 'string') {
      const len = [...v].length;
      if (typeof s['minLength'] === 'number' && len < s['minLength']) {
        err('minLength', `must NOT have fewer than ${s['minLength']} characters`, { limit: s['minLength'] });
      }
      if (typeof s['maxLength'] === 'number' && len > s['maxLength']) {
        err('maxLength', `must NOT have more than ${s['maxLength']} characters`, { limit: s['maxLength'] });
      }
      if (typeof s['pattern'] === 'string' && !re(s['pattern']).test(v)) {
        err('pattern', `must match pattern "${s['pattern']}"`, { pattern: s['pattern'] });
      }
    }
    if (typeof s['format'] === 'string' && failsFormat(s['format'], v)) {
      err('format', `must match format "${s['format']}"`, { format: s['format'] });
    }
    if (typeof v === 'number') {
      const num = (k: string): number | undefined => (typeof s[k] === 'number' ? s[k] : undefined);
      const min = num('minimum');
      const max = num('maximum');
      const xmin = num('exclusiveMinimum');
      const xmax = num('exclusiveMaximum');
      const mult = num('multipleOf');
      if (min !== undefined && v < min) err('minimum', `must be >= ${min}`, { comparison: '>=', limit: min });
      if (max !== undefined && v > max) err('maximum', `must be <= ${max}`, { comparison: '<=', limit: max });
      if (xmin !== undefined && v <= xmin)
        err('exclusiveMinimum', `must be > ${xmin}`, { comparison: '>', limit: xmin });
      if (xmax !== undefined && v >= xmax)
        err('exclusiveMaximum', `must be < ${xmax}`, { comparison: '<', limit: xmax });
      if (mult !== undefined && !Number.isInteger(v / mult))
        err('multipleOf', `must be multiple of ${mult}`, { multipleOf: mult });
    }
    if (Array.isArray(v)) {
      if (typeof s['minItems'] === 'number' && v.length < s['minItems']) {
        err('minItems', `must NOT have fewer than ${s['minItems']} items`, { limit: s['minItems'] });
      }
      if (typeof s['maxItems'] === 'number' && v.length > s['maxItems']) {
        err('maxItems', `must NOT have more than ${s['maxItems']} items`, { limit: s['maxItems'] });
      }
      if (s['uniqueItems'] === true) {
        for (let i = 0; i < v.length; i++)
          for (let j = 0; j < i; j++)
            if (deepEqual(v[i], v[j])) {
              err('uniqueItems', `must NOT have duplicate items (items ## ${i} and ${j} are identical)`, { i, j });
              i = v.length;
              break;
            }
      }
      const prefix = Array.isArray(s['prefixItems']) ? (s['prefixItems'] as JsonSchema[]) : [];
      prefix.forEach((ps, i) => {
        if (i < v.length) walk(ps, v[i], `${path}/${i}`, `${spath}/prefixItems/${i}`, out);
      });
      const items = s['items'];
      if (items === false && prefix.length > 0) {
        if (v.length > prefix.length)
          err('items', `must NOT have more than ${prefix.length} items`, { limit: prefix.length });
      } else if (items !== undefined && !Array.isArray(items)) {
        v.forEach((x, i) => {
          if (i >= prefix.length) walk(items as JsonSchema, x, `${path}/${i}`, `${spath}/items`, out);
        });
      }
      if (s['contains'] !== undefined) containsCheck(s, v, path, spath, err);
    }
    if (isObj(v)) {
      const props = isObj(s['properties']) ? (s['properties'] as Record<string, JsonSchema>) : {};
      if (opts.useDefaults) {
        for (const [k, ps] of Object.entries(props)) {
          if (!(k in v) && isObj(ps) && 'default' in ps) v[k] = clonePlain(ps['default']);
        }
      }
      if (Array.isArray(s['required'])) {
        for (const k of s['required'] as string[]) {
          if (!(k in v)) err('required', `must have required property '${k}'`, { missingProperty: k });
        }
      }
      if (isObj(s['dependentRequired'])) {
        for (const [k, deps] of Object.entries(s['dependentRequired'] as Record<string, string[]>)) {
          const missing = k in v ? deps.find((d) => !(d in v)) : undefined;
          if (missing === undefined) continue;
          const list = deps.join(', ');
          err(
            'dependentRequired',
            `must have ${deps.length === 1 ? 'property' : 'properties'} ${list} when property ${k} is present`,
            {
              property: k,
              missingProperty: missing,
              depsCount: deps.length,
              deps: list,
            },
          );
        }
      }
      if (s['propertyNames'] !== undefined) {
        for (const k of Object.keys(v)) {
          const tmp: SchemaError[] = [];
          walk(s['propertyNames'] as JsonSchema, k, path, `${spath}/propertyNames`, tmp);
          if (tmp.length === 0) continue;
          for (const e of tmp) out.push({ ...e, propertyName: k });
          err('propertyNames', 'property name must be valid', { propertyName: k });
        }
      }
      const keys = Object.keys(v);
      if (typeof s['minProperties'] === 'number' && keys.length < s['minProperties']) {
        err('minProperties', `must NOT have fewer than ${s['minProperties']} properties`, {
          limit: s['minProperties'],
        });
      }
      if (typeof s['maxProperties'] === 'number' && keys.length > s['maxProperties']) {
        err('maxProperties', `must NOT have more than ${s['maxProperties']} properties`, { limit: s['maxProperties'] });
      }
      const patterns = isObj(s['patternProperties'])
        ? Object.entries(s['patternProperties'] as Record<string, JsonSchema>)
        : [];
      for (const k of keys) {
        const child = `${path}/${escapePointer(k)}`;
        let matched = false;
        if (k in props) {
          matched = true;
          walk(props[k], v[k], child, `${spath}/properties/${escapePointer(k)}`, out);
        }
        for (const [p, ps] of patterns) {
          if (re(p).test(k)) {
            matched = true;
            walk(ps, v[k], child, `${spath}/patternProperties/${escapePointer(p)}`, out);
          }
        }
        if (!matched && s['additionalProperties'] !== undefined) {
          const ap = s['additionalProperties'] as JsonSchema;
          if (ap === false)
            err('additionalProperties', 'must NOT have additional properties', { additionalProperty: k });
          else walk(ap, v[k], child, `${spath}/additionalProperties`, out);
        }
      }
    }
    if (Array.isArray(s['allOf']))
      (s['allOf'] as JsonSchema[]).forEach((sub, i) => walk(sub, v, path, `${spath}/allOf/${i}`, out));
    const passes = (sub: JsonSchema, i: number, kw: string): boolean => {
      const tmp: SchemaError[] = [];
      walk(sub, v, path, `${spath}/${kw}/${i}`, tmp);
      return tmp.length === 0;
    };
    if (Array.isArray(s['anyOf']) && !(s['anyOf'] as JsonSchema[]).some((sub, i) => passes(sub, i, 'anyOf'))) {
      err('anyOf', 'must match a schema in anyOf');
    }
    if (Array.isArray(s['oneOf'])) {
      const n = (s['oneOf'] as JsonSchema[]).filter((sub, i) => passes(sub, i, 'oneOf')).length;
      if (n !== 1) err('oneOf', 'must match exactly one schema in oneOf', { passingSchemas: n });
    }
    if (s['not'] !== undefined && passes(s['not'] as JsonSchema, 0, 'not')) err('not', 'must NOT be valid');
    if (s['if'] !== undefined) {
      const branch = passes(s['if'] as JsonSchema, 0, 'if') ? 'then' : 'else';
      if (s[branch] !== undefined) {
        const before = out.length;
        walk(s[branch] as JsonSchema, v, path, `${spath}/${branch}`, out);
        if (out.length > before) {
          out.push({
            instancePath: path,
            schemaPath: `${spath}/if`,
            keyword: 'if',
            message: `must match "${branch}" schema`,
            params: { failingKeyword: branch },
          });
        }
      }
    }
  };

  /** `contains` with `minContains` (default 1) and `maxContains`: how many items match. */
  const containsCheck = (
    s: Obj,
    v: unknown[],
    path: string,
    spath: string,
    err: (keyword: string, message: string, params?: Record<string, unknown>) => void,
  ): void => {
    const min = typeof s['minContains'] === 'number' ? s['minContains'] : 1;
    const max = typeof s['maxContains'] === 'number' ? s['maxContains'] : undefined;
    let count = 0;
    v.forEach((x, i) => {
      const tmp: SchemaError[] = [];
      walk(s['contains'] as JsonSchema, x, `${path}/${i}`, `${spath}/contains`, tmp);
      if (tmp.length === 0) count++;
    });
    if (count >= min && (max === undefined || count <= max)) return;
    if (max === undefined) err('contains', `must contain at least ${min} valid item(s)`, { minContains: min });
    else
      err('contains', `must contain at least ${min} and no more than ${max} valid item(s)`, {
        minContains: min,
        maxContains: max,
      });
  };

  walk(schema, data, '', '#', errors);
  return errors;
}

/** The schema of property `key` of an object schema (following one local `$ref`), if declared. */
export function propertySchema(schema: JsonSchema | undefined, key: string): JsonSchema | undefined {
  if (!isObj(schema)) return undefined;
  const props = schema['properties'];
  if (isObj(props) && key in props) return props[key] as JsonSchema;
  const ap = schema['additionalProperties'];
  if (ap !== undefined && ap !== false) return ap as JsonSchema;
  return undefined;
}

/** Whether an object schema declares property `key` (or accepts additional properties). */
export function allowsProperty(schema: JsonSchema | undefined, key: string): boolean {
  if (!isObj(schema)) return true;
  const props = schema['properties'];
  if (isObj(props) && key in props) return true;
  if (isObj(schema['patternProperties'])) {
    for (const p of Object.keys(schema['patternProperties'])) if (goRegexp(p).matchString(key)) return true;
  }
  const ap = schema['additionalProperties'];
  if (ap === false) return false;
  return ap !== undefined || !isObj(props);
}
