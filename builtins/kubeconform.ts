/**
 * kubeconform / kubeval (builtins/docs/kubeconform.md): validates every item against offline schemas — the
 * built-in Kubernetes 1.33 kinds (precompiled validators of kubernetes-models, see
 * schemas/kubernetes.ts) and the `openAPIV3Schema` of CRDs found among the items. Results are
 * error results with resourceRef, file and field; any error fails the function. The `kubeval`
 * images get kubeval's message wording, the `kubeconform` images kubeconform's.
 */
import {
  defineBuiltin,
  defineValidator,
  type JsonSchema,
  type KubeObject,
  type Result,
  validateSchema,
} from '../sdk/index.ts';
import { finish } from './lib/catalog-fn.ts';
import { crdSchemas } from './lib/crd-schemas.ts';
import { fileRefOf, resourceRefOf } from './lib/gvk.ts';
import { ok, type Report } from './lib/report.ts';
import { KUBE_VALIDATORS } from './schemas/kubernetes.ts';

export type Dialect = 'kubeconform' | 'kubeval';

export interface ValidatorConfig {
  ignoreMissingSchemas: boolean;
  skipKinds: string[];
  strict: boolean;
  schemaLocation?: string;
  additionalSchemaLocations: string[];
}

interface SchemaErr {
  instancePath: string;
  keyword: string;
  params?: Record<string, unknown>;
  message?: string;
}

const truthy = (v: unknown, dialect: Dialect): boolean => {
  const s = typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);
  return dialect === 'kubeconform' ? s.toLowerCase() === 'true' || s === '1' : s === 'true';
};

/** Reads the flags from `data` or (kubeconform) the config's top level. */
export function parseValidatorConfig(fc: KubeObject | undefined, dialect: Dialect): ValidatorConfig {
  const js = fc ? fc.toJS() : {};
  const data = (typeof js['data'] === 'object' && js['data'] !== null ? js['data'] : {}) as Record<string, unknown>;
  const pick = (k: string): unknown => (k in data ? data[k] : dialect === 'kubeconform' ? js[k] : undefined);
  const list = (v: unknown): string[] =>
    Array.isArray(v)
      ? v.map(String)
      : typeof v === 'string'
        ? v
            .split(',')
            .map((x) => x.trim())
            .filter(Boolean)
        : [];
  const cfg: ValidatorConfig = {
    ignoreMissingSchemas: truthy(pick('ignore_missing_schemas'), dialect),
    skipKinds: list(pick('skip_kinds')),
    strict: truthy(pick('strict'), dialect),
    additionalSchemaLocations: list(pick('additional_schema_locations')),
  };
  const loc = pick('schema_location');
  if (typeof loc === 'string' && loc) cfg.schemaLocation = loc;
  return cfg;
}

const jsType = (v: unknown): string =>
  v === null
    ? 'null'
    : Array.isArray(v)
      ? 'array'
      : typeof v === 'number'
        ? Number.isInteger(v)
          ? 'integer'
          : 'number'
        : typeof v === 'object'
          ? 'object'
          : typeof v;

function valueAt(root: unknown, pointer: string): unknown {
  let cur = root;
  for (const raw of pointer.split('/').slice(1)) {
    const k = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[k];
  }
  return cur;
}

const segments = (pointer: string): string[] =>
  pointer
    .split('/')
    .slice(1)
    .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));

/** One validation error as the emulated tool words it, with its field path. */
export function describeError(e: SchemaErr, data: unknown, dialect: Dialect): { path: string; message: string } {
  const value = valueAt(data, e.instancePath);
  const p = e.params ?? {};
  const segs = segments(e.instancePath);
  if (dialect === 'kubeval') {
    const field = segs.join('.') || '(root)';
    switch (e.keyword) {
      case 'type':
        return { path: field, message: `Invalid type. Expected: ${String(p['type'])}, given: ${jsType(value)}` };
      case 'required':
        return { path: field, message: `${String(p['missingProperty'])} is required` };
      case 'enum':
        return {
          path: field,
          message: `${field} must be one of the following: ${(p['allowedValues'] as unknown[] | undefined)?.map((x) => JSON.stringify(x)).join(', ') ?? ''}`,
        };
      case 'additionalProperties':
        return { path: field, message: `Additional property ${String(p['additionalProperty'])} is not allowed` };
      default:
        return { path: field, message: e.message ?? e.keyword };
    }
  }
  const field = segs.join('.');
  switch (e.keyword) {
    case 'type':
      return { path: field, message: `expected ${String(p['type'])}, but got ${jsType(value)}` };
    case 'required':
      return { path: field, message: `missing properties: '${String(p['missingProperty'])}'` };
    case 'enum':
      return {
        path: field,
        message: `value must be one of ${(p['allowedValues'] as unknown[] | undefined)?.map((x) => JSON.stringify(x)).join(', ') ?? ''}`,
      };
    case 'additionalProperties':
      return { path: field, message: `additionalProperties '${String(p['additionalProperty'])}' not allowed` };
    case 'pattern':
      return { path: field, message: `does not match pattern '${String(p['pattern'])}'` };
    case 'format':
      return { path: field, message: `'${String(value)}' is not valid '${String(p['format'])}'` };
    default:
      return { path: field, message: e.message ?? e.keyword };
  }
}

/** Validation errors of one object, or undefined when no schema is known for its kind. */
async function validateObject(
  obj: KubeObject,
  crds: ReadonlyMap<string, JsonSchema>,
): Promise<SchemaErr[] | undefined> {
  const key = `${obj.apiVersion}/${obj.kind}`;
  const data = obj.toJS();
  const crd = crds.get(key);
  if (crd !== undefined) return validateSchema(crd, data);
  const load = KUBE_VALIDATORS[key];
  if (!load) return undefined;
  const Model = await load();
  try {
    new Model(data).validate();
    return [];
  } catch (e) {
    const errors = (e as { errors?: SchemaErr[] }).errors;
    if (Array.isArray(errors)) return errors;
    throw e;
  }
}

export async function validateItems(
  items: readonly KubeObject[],
  cfg: ValidatorConfig,
  dialect: Dialect,
): Promise<Report> {
  const crds = crdSchemas(items, cfg.strict);
  const results: Result[] = [];
  for (const obj of items) {
    if (cfg.skipKinds.includes(obj.kind)) continue;
    const base = (): Result => {
      const r: Result = { message: '', severity: 'error', resourceRef: resourceRefOf(obj) };
      const file = fileRefOf(obj);
      if (file) r.file = file;
      return r;
    };
    const errors = await validateObject(obj, crds);
    if (errors === undefined) {
      if (cfg.ignoreMissingSchemas) continue;
      const raw = `${fileRefOf(obj)?.path ?? 'stdin'} - ${obj.kind} ${obj.name} failed validation: could not find schema for ${obj.kind}`;
      const message =
        dialect === 'kubeval'
          ? `Validating arbitrary CRDs is not supported yet. You can skip them by setting ignore_missing_schemas or skip_kinds in the function config:\n${raw}`
          : `Validating arbitrary CRDs not supported. Consider setting ignore_missing_schemas or skip_kinds in FunctionConfig:\n${raw}`;
      results.push({ ...base(), message });
      continue;
    }
    const data = obj.toJS();
    for (const e of errors) {
      const d = describeError(e, data, dialect);
      const r = base();
      r.message = d.message;
      if (d.path) r.field = { path: d.path };
      results.push(r);
    }
  }
  return { results, failed: results.some((r) => r.severity === 'error') };
}

function makeValidator(name: Dialect) {
  return defineValidator({
    name,
    usage: `Validates resources against the Kubernetes ${'1.33'} schemas and the CRDs found in the package (offline).`,
    async run(ctx) {
      const cfg = parseValidatorConfig(ctx.functionConfig, name);
      const report = await validateItems(ctx.items.all, cfg, name);
      if (cfg.strict && !report.failed)
        report.results.push({
          message:
            'strict mode is enforced for CRD schemas only; built-in kinds are checked without additional-property checks',
          severity: 'info',
        });
      if (cfg.schemaLocation || cfg.additionalSchemaLocations.length > 0) {
        report.results.push({
          message:
            'schema_location and additional_schema_locations are ignored: krmfn validates offline with bundled schemas and the package CRDs',
          severity: 'warning',
        });
      }
      finish(ctx, report.results.length === 0 ? ok() : report, 'fn-sdk');
    },
  });
}

const SCHEMA = {
  type: 'object',
  properties: {
    data: {
      type: 'object',
      properties: {
        ignore_missing_schemas: { type: 'string', description: 'Skip resources whose kind has no schema.' },
        skip_kinds: { type: 'string', description: 'Comma-separated kinds not to validate (case-sensitive).' },
        strict: { type: 'string', description: 'Disallow properties not in the schema (CRD schemas only).' },
        schema_location: { type: 'string', description: 'Accepted for compatibility; ignored (offline schemas).' },
        additional_schema_locations: { type: 'string', description: 'Accepted for compatibility; ignored.' },
      },
    },
  },
};

export const kubeconformFn = makeValidator('kubeconform');
export const kubevalFn = makeValidator('kubeval');

export const kubevalBuiltin = defineBuiltin({
  name: 'kubeval',
  versions: ['v0.1.0', 'v0.1.1', 'v0.1.2', 'v0.2.0', 'v0.2.1', 'v0.3.0'],
  configKinds: ['ConfigMap'],
  summary: 'Validate resources against Kubernetes and package CRD schemas, kubeval wording (offline)',
  schema: SCHEMA,
  docs: 'builtins/docs/kubeconform.md',
  fn: kubevalFn,
});

export default defineBuiltin({
  name: 'kubeconform',
  versions: ['v0.1.0'],
  configKinds: ['ConfigMap'],
  summary: 'Validate resources against Kubernetes 1.33 and package CRD schemas (offline)',
  schema: SCHEMA,
  fn: kubeconformFn,
});
