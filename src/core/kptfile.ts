/**
 * The Kptfile wire type (kpt.dev/v1) and its strict decoder.
 *
 * Contract:
 * - `decodeKptfile(doc, version)` reads a parsed Kptfile document the way that kpt release does
 *   with go-yaml's `KnownFields(true)` against its own Kptfile types (kptdev/kpt
 *   pkg/api/kptfile/v1/types.go at v1.0.0-beta.56, api/kptfile/v1/types.go at v1.0.0-beta.67):
 *   unknown fields at any level and wrong value kinds are collected as
 *   `line N: ...` messages; when any exist it returns them (the caller prints them under
 *   `Details:` as `yaml: unmarshal errors:` lines). Values are not trimmed or resolved further.
 * - `checkKptfileVersion` reproduces kpt's apiVersion/kind messages.
 * - `validateFunctionStatic` runs the checks of kpt's `Function.validate` that need no filesystem
 *   and returns kpt's ValidateError text (kptdev/kpt pkg/api/kptfile/v1/validation.go at
 *   v1.0.0-beta.56), or undefined.
 * Pure: no I/O. The engine adds the configPath checks that read files.
 */
import { matchesImageReference } from './image-reference.ts';
import type { PipelineFunction, Selector } from './function.ts';
import { DEFAULT_KPT_VERSION, type KptVersion } from './kpt-version.ts';
import type { KptMessages } from './kpt-messages.ts';
import type { YNode } from './yaml/node.ts';

export interface Kptfile {
  apiVersion: string;
  kind: string;
  metadata: {
    name?: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  pipeline: { mutators: PipelineFunction[]; validators: PipelineFunction[] };
}

/**
 * Field schema: a struct type (Go name + fields), a scalar (optionally a named Go string type),
 * an int, a list, a string map, or `any` (a Go type with its own UnmarshalYAML that accepts
 * every node).
 */
export type FieldType =
  /** `keep`: fields without `omitempty` (written even when empty); `value`: a non-pointer struct. */
  | { t: 'struct'; name: string; fields: Record<string, FieldType>; keep?: readonly string[]; value?: boolean }
  | { t: 'string'; name?: string }
  | { t: 'bool' }
  | { t: 'int' }
  | { t: 'list'; of: FieldType }
  | { t: 'map' }
  /** A Go type with its own UnmarshalYAML: accepts any node; `shape` is what it marshals as. */
  | { t: 'any'; shape: FieldType };

const STR: FieldType = { t: 'string' };
const INT: FieldType = { t: 'int' };
const MAP: FieldType = { t: 'map' };
const named = (name: string): FieldType => ({ t: 'string', name });
const list = (of: FieldType): FieldType => ({ t: 'list', of });
const struct = (
  name: string,
  fields: Record<string, FieldType>,
  more: { keep?: readonly string[]; value?: boolean } = {},
): FieldType => ({ t: 'struct', name, fields, ...more });

const SELECTOR = struct('v1.Selector', {
  apiVersion: STR,
  kind: STR,
  name: STR,
  namespace: STR,
  labels: MAP,
  annotations: MAP,
});
const FUNCTION_FIELDS: Record<string, FieldType> = {
  image: STR,
  exec: STR,
  configPath: STR,
  configMap: MAP,
  name: STR,
  selectors: list(SELECTOR),
  exclude: list(SELECTOR),
};
const CONDITION = struct(
  'v1.Condition',
  { type: STR, status: named('v1.ConditionStatus'), reason: STR, message: STR },
  { keep: ['type', 'status'] },
);
const OBJECT_META = struct(
  'yaml.ObjectMeta',
  { name: STR, namespace: STR, labels: MAP, annotations: MAP },
  { value: true },
);
const UPSTREAM = struct('v1.Upstream', {
  type: STR,
  git: struct('v1.Git', { repo: STR, directory: STR, ref: STR }),
  updateStrategy: STR,
});
const PACKAGE_INFO = struct('v1.PackageInfo', {
  site: STR,
  emails: list(STR),
  license: STR,
  licenseFile: STR,
  description: STR,
  keywords: list(STR),
  man: STR,
  readinessGates: list(struct('v1.ReadinessGate', { conditionType: STR }, { keep: ['conditionType'] })),
});
const INVENTORY = struct('v1.Inventory', {
  namespace: STR,
  name: STR,
  inventoryID: STR,
  labels: MAP,
  annotations: MAP,
});
const GIT_LOCK = struct('v1.GitLock', { repo: STR, directory: STR, ref: STR, commit: STR });

/** kptdev/kpt v1.0.0-beta.56 pkg/api/kptfile/v1/types.go. */
const KPTFILE_SCHEMA_BETA56 = struct('v1.KptFile', {
  apiVersion: STR,
  kind: STR,
  metadata: OBJECT_META,
  upstream: UPSTREAM,
  upstreamLock: struct('v1.UpstreamLock', { type: STR, git: GIT_LOCK }),
  info: PACKAGE_INFO,
  pipeline: struct('v1.Pipeline', {
    mutators: list(struct('v1.Function', FUNCTION_FIELDS)),
    validators: list(struct('v1.Function', FUNCTION_FIELDS)),
  }),
  inventory: INVENTORY,
  status: struct('v1.Status', { conditions: list(CONDITION) }),
});

/** kptdev/kpt v1.0.0-beta.67 api/fnresult/v1/types.go `ResultItem` (`Field` unmarshals itself). */
const RESULT_ITEM = struct('v1.ResultItem', {
  message: STR,
  severity: named('framework.Severity'),
  resourceRef: struct('yaml.ResourceIdentifier', { apiVersion: STR, kind: STR, name: STR, namespace: STR }),
  field: { t: 'any', shape: struct('v1.Field', { path: STR, currentValue: STR, proposedValue: STR }) },
  file: struct('framework.File', { path: STR, index: INT }),
  tags: MAP,
});
const STEP_RESULT = struct(
  'v1.PipelineStepResult',
  {
    name: STR,
    image: STR,
    exec: STR,
    executionError: STR,
    stderr: STR,
    exitCode: INT,
    results: list(RESULT_ITEM),
    errorResults: list(RESULT_ITEM),
  },
  { keep: ['exitCode'] },
);
const FUNCTION_BETA67 = struct('v1.Function', { ...FUNCTION_FIELDS, tag: STR });

/** kptdev/kpt v1.0.0-beta.67 api/kptfile/v1/types.go: `tag`, `upstreamLock.generic`, `status.renderStatus`. */
const KPTFILE_SCHEMA_BETA67 = struct('v1.KptFile', {
  apiVersion: STR,
  kind: STR,
  metadata: OBJECT_META,
  upstream: UPSTREAM,
  upstreamLock: struct('v1.Locator', {
    type: STR,
    git: GIT_LOCK,
    generic: struct('v1.GenericLock', { storeID: STR, resourceID: STR, resourceVersion: STR }),
  }),
  info: PACKAGE_INFO,
  pipeline: struct('v1.Pipeline', { mutators: list(FUNCTION_BETA67), validators: list(FUNCTION_BETA67) }),
  inventory: INVENTORY,
  status: struct('v1.Status', {
    conditions: list(CONDITION),
    renderStatus: struct('v1.RenderStatus', {
      mutationSteps: list(STEP_RESULT),
      validationSteps: list(STEP_RESULT),
      errorSummary: STR,
    }),
  }),
});

/** The Kptfile type of kpt `version`, in Go field order (the order kpt marshals). */
export function kptfileSchema(version: KptVersion): FieldType {
  return KPTFILE_SCHEMAS[version];
}

const KPTFILE_SCHEMAS: Record<KptVersion, FieldType> = {
  '1.0.0-beta.56': KPTFILE_SCHEMA_BETA56,
  '1.0.0-beta.67': KPTFILE_SCHEMA_BETA67,
};

const GO_KIND: Record<string, string> = { mapping: '!!map', sequence: '!!seq' };

function deref(n: YNode): YNode {
  let g = 0;
  while (n.kind === 'alias' && n.alias && g++ < 100) n = n.alias;
  return n;
}

function isNull(n: YNode): boolean {
  return n.kind === 'scalar' && n.tag === '!!null';
}

/** go-yaml's description of a node in "cannot unmarshal X into T" messages. */
function describe(n: YNode): string {
  if (n.kind === 'scalar') {
    const v = n.value.length > 10 ? n.value.slice(0, 7) + '...' : n.value;
    return `${n.tag} \`${v}\``;
  }
  return GO_KIND[n.kind] ?? n.kind;
}

function goTypeName(t: FieldType): string {
  switch (t.t) {
    case 'struct':
      return t.name;
    case 'string':
      return t.name ?? 'string';
    case 'int':
      return 'int';
    case 'any':
      return 'interface {}';
    case 'bool':
      return 'bool';
    case 'map':
      return 'map[string]string';
    case 'list':
      return `[]${t.of.t === 'struct' ? t.of.name : goTypeName(t.of)}`;
  }
}

/** Walks `node` against the schema, returning the decoded plain value and pushing errors. */
function decodeNode(node: YNode, type: FieldType, errors: string[]): unknown {
  const n = deref(node);
  if (isNull(n)) return undefined;
  switch (type.t) {
    case 'any':
      return undefined;
    case 'int':
      if (
        n.kind !== 'scalar' ||
        !/^[-+]?(?:0|[1-9][0-9_]*|0[xX][0-9a-fA-F_]+|0[oO]?[0-7_]+|0[bB][01_]+)$/.test(n.value)
      ) {
        errors.push(`line ${n.line}: cannot unmarshal ${describe(n)} into int`);
        return undefined;
      }
      return Number(n.value.replace(/_/g, ''));
    case 'string':
    case 'bool':
      if (n.kind !== 'scalar') {
        errors.push(`line ${n.line}: cannot unmarshal ${describe(n)} into ${goTypeName(type)}`);
        return undefined;
      }
      return n.value;
    case 'map': {
      if (n.kind !== 'mapping') {
        errors.push(`line ${n.line}: cannot unmarshal ${describe(n)} into ${goTypeName(type)}`);
        return undefined;
      }
      const out: Record<string, string> = {};
      const seen = new Map<string, number>();
      for (let i = 0; i + 1 < n.content.length; i += 2) {
        const k = deref(n.content[i]);
        const v = deref(n.content[i + 1]);
        if (seen.has(k.value)) {
          errors.push(
            `line ${k.line}: mapping key ${JSON.stringify(k.value)} already defined at line ${seen.get(k.value)}`,
          );
          continue;
        }
        seen.set(k.value, k.line);
        if (v.kind !== 'scalar') {
          errors.push(`line ${v.line}: cannot unmarshal ${describe(v)} into string`);
          continue;
        }
        out[k.value] = isNull(v) ? '' : v.value;
      }
      return out;
    }
    case 'list': {
      if (n.kind !== 'sequence') {
        errors.push(`line ${n.line}: cannot unmarshal ${describe(n)} into ${goTypeName(type)}`);
        return undefined;
      }
      return n.content.map((c) => decodeNode(c, type.of, errors) ?? (type.of.t === 'struct' ? {} : ''));
    }
    case 'struct': {
      if (n.kind !== 'mapping') {
        errors.push(`line ${n.line}: cannot unmarshal ${describe(n)} into ${type.name}`);
        return undefined;
      }
      const out: Record<string, unknown> = {};
      const seen = new Map<string, number>();
      for (let i = 0; i + 1 < n.content.length; i += 2) {
        const k = deref(n.content[i]);
        const key = k.value;
        if (seen.has(key)) {
          errors.push(`line ${k.line}: mapping key ${JSON.stringify(key)} already defined at line ${seen.get(key)}`);
          continue;
        }
        seen.set(key, k.line);
        const ft = Object.prototype.hasOwnProperty.call(type.fields, key) ? type.fields[key] : undefined;
        if (!ft) {
          errors.push(`line ${k.line}: field ${key} not found in type ${type.name}`);
          continue;
        }
        const v = decodeNode(n.content[i + 1], ft, errors);
        if (v !== undefined) out[key] = v;
      }
      return out;
    }
  }
}

export type KptfileDecode = { ok: true; kptfile: Kptfile } | { ok: false; errors: string[] };

/**
 * Strict decode of a parsed Kptfile document (kind 'document' or its root mapping) against the
 * Kptfile schema of kpt `version`: a field that kpt release does not know is an error.
 */
export function decodeKptfile(doc: YNode, version: KptVersion = DEFAULT_KPT_VERSION): KptfileDecode {
  const root = doc.kind === 'document' ? doc.content[0] : doc;
  const errors: string[] = [];
  const raw = root
    ? ((decodeNode(root, KPTFILE_SCHEMAS[version], errors) as Record<string, unknown> | undefined) ?? {})
    : {};
  if (errors.length) return { ok: false, errors };
  const pipeline = (raw.pipeline ?? {}) as {
    mutators?: Record<string, unknown>[];
    validators?: Record<string, unknown>[];
  };
  const toSpec = (f: Record<string, unknown>): PipelineFunction => {
    const s: PipelineFunction = {};
    if (typeof f.image === 'string') s.image = f.image;
    if (typeof f.exec === 'string') s.exec = f.exec;
    if (typeof f.configPath === 'string') s.configPath = f.configPath;
    if (f.configMap) s.configMap = f.configMap as Record<string, string>;
    if (typeof f.name === 'string') s.name = f.name;
    if (typeof f.tag === 'string' && f.tag !== '') s.tag = f.tag;
    if (Array.isArray(f.selectors)) s.selectors = f.selectors as Selector[];
    if (Array.isArray(f.exclude)) s.exclude = f.exclude as Selector[];
    return s;
  };
  return {
    ok: true,
    kptfile: {
      apiVersion: String(raw.apiVersion ?? ''),
      kind: String(raw.kind ?? ''),
      metadata: raw.metadata ?? {},
      pipeline: {
        mutators: (pipeline.mutators ?? []).map(toSpec),
        validators: (pipeline.validators ?? []).map(toSpec),
      },
    },
  };
}

/** The unmarshal-error block kpt prints under `Details:`. */
export function formatUnmarshalErrors(errors: readonly string[]): string {
  return `yaml: unmarshal errors:\n${errors.map((e) => `  ${e}`).join('\n')}`;
}

export const KPTFILE_API_VERSION = 'kpt.dev/v1';

/**
 * kpt's version/kind check. Returns the message (without the `Error: ` prefix kpt's resolver adds)
 * or undefined when the Kptfile is a `kpt.dev/v1` `Kptfile`.
 */
/**
 * The upgrade function kpt's message for a v1alpha2 Kptfile names (kptdev/kpt
 * internal/errors/resolver/pkg.go at v1.0.0-beta.56, pkg/lib/errors/resolver/pkg.go at
 * v1.0.0-beta.67).
 */
const V1ALPHA2_FIX_IMAGE: Record<KptVersion, string> = {
  '1.0.0-beta.56': 'gcr.io/kpt-fn/fix:v0.2',
  '1.0.0-beta.67': 'ghcr.io/kptdev/krm-functions-catalog/fix:latest',
};

export function checkKptfileVersion(
  apiVersion: string,
  kind: string,
  absDir: string,
  level: KptVersion = DEFAULT_KPT_VERSION,
): string | undefined {
  if (apiVersion === KPTFILE_API_VERSION && kind === 'Kptfile') return undefined;
  const at = `Kptfile at ${JSON.stringify(absDir)}`;
  if (kind === 'Kptfile' && apiVersion === 'kpt.dev/v1alpha1') {
    return `${at} has an old version ("v1alpha1") of the Kptfile schema.\nPlease update the package to the latest format by following https://kpt.dev/installation/migration.`;
  }
  if (kind === 'Kptfile' && apiVersion === 'kpt.dev/v1alpha2') {
    return `${at} has an old version ("v1alpha2") of the Kptfile schema.\nPlease run "kpt fn eval <PKG_PATH> -i ${V1ALPHA2_FIX_IMAGE[level]} --include-meta-resources" to upgrade the package and retry.`;
  }
  const slash = apiVersion.lastIndexOf('/');
  const group = slash >= 0 ? apiVersion.slice(0, slash) : '';
  const version = slash >= 0 ? apiVersion.slice(slash + 1) : apiVersion;
  return `${at} has an unknown resource type (${JSON.stringify(`${group}/${version}, Kind=${kind}`)}).`;
}

/** kpt's ValidateError text (ends with a newline). `value` is shown only for image and configPath checks. */
export function formatValidateError(field: string, reason: string, value?: string): string {
  return `Kptfile is invalid:\nField: \`${field}\`\n${value !== undefined ? `Value: ${goQuote(value)}\n` : ''}Reason: ${reason}\n`;
}

// The docker reference grammar (distribution/reference), checked on the raw image string in linear
// time by src/core/image-reference.ts.
export function isValidImageReference(image: string): boolean {
  return image.length <= 255 + 140 && matchesImageReference(image);
}

/** kpt beta.56's reason for an invalid `image` (undefined when valid). */
export function beta56InvalidImage(image: string): string | undefined {
  return isValidImageReference(image) ? undefined : `function name ${JSON.stringify(image)} is invalid`;
}

/** beta.56 image resolution: a name without `/` gets the `gcr.io/kpt-fn/` prefix; nothing else changes. */
export function resolveImageName(image: string): string {
  return image.includes('/') ? image : `gcr.io/kpt-fn/${image}`;
}

/**
 * The static checks of one pipeline function (kpt's `Function.validate` before it touches files).
 * `field` is e.g. `pipeline.mutators[0]`.
 */
export function validateFunctionStatic(
  fn: PipelineFunction,
  field: string,
  messages: Pick<KptMessages, 'invalidImage'> = { invalidImage: beta56InvalidImage },
): string | undefined {
  const hasImage = fn.image !== undefined && fn.image !== '';
  const hasExec = fn.exec !== undefined && fn.exec !== '';
  if (!hasImage && !hasExec) return formatValidateError(field, 'must specify a functon (`image` or `exec`) to execute');
  if (hasImage && hasExec)
    return formatValidateError(field, 'must not specify both `image` and `exec` at the same time');
  const badImage = hasImage ? messages.invalidImage(fn.image!) : undefined;
  if (badImage !== undefined) return formatValidateError(`${field}.image`, badImage, fn.image);
  const hasMap = fn.configMap !== undefined && Object.keys(fn.configMap).length > 0;
  if (hasMap && fn.configPath !== undefined && fn.configPath !== '') {
    return formatValidateError(
      field,
      'functionConfig must not specify both `configMap` and `configPath` at the same time',
    );
  }
  if (fn.configPath !== undefined) {
    const p = fn.configPath.trim();
    const f = `${field}.configPath`;
    if (p === '') return formatValidateError(f, 'path must not be empty', fn.configPath);
    if (p.startsWith('/')) return formatValidateError(f, 'path must be relative', fn.configPath);
    if (cleanSlashPath(p).split('/').includes('..'))
      return formatValidateError(f, 'path must not be outside the package', fn.configPath);
  }
  return undefined;
}

/** Go `path.Clean` for slash paths. */
const ALREADY_CLEAN = /^(?!\/)(?!.*(?:^|\/)\.\.?(?:\/|$))(?!.*\/\/)(?!.*\/$)./;

export function cleanSlashPath(p: string): string {
  if (p === '') return '.';
  if (ALREADY_CLEAN.test(p)) return p;
  const rooted = p.startsWith('/');
  const out: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length && out[out.length - 1] !== '..') out.pop();
      else if (!rooted) out.push('..');
      continue;
    }
    out.push(seg);
  }
  const s = out.join('/');
  return rooted ? '/' + s : s || '.';
}

/** Go's `%q` for strings: double-quoted with Go escapes; printable Unicode kept. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (c === 7) out += '\\a';
    else if (c === 8) out += '\\b';
    else if (c === 12) out += '\\f';
    else if (c === 11) out += '\\v';
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else if (c === 0xfffd && ch !== '\ufffd') out += '\\ufffd';
    else if ((c >= 0x80 && c < 0xa0) || c === 0xad || c === 0xfeff || (c >= 0x2028 && c <= 0x2029)) {
      out += c > 0xffff ? `\\U${c.toString(16).padStart(8, '0')}` : `\\u${c.toString(16).padStart(4, '0')}`;
    } else out += ch;
  }
  return out + '"';
}
