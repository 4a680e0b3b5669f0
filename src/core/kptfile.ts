/**
 * The Kptfile wire type (kpt.dev/v1) and its strict decoder.
 *
 * Contract:
 * - `decodeKptfile(doc)` reads a parsed Kptfile document the way kpt beta.56 does with go-yaml's
 *   `KnownFields(true)`: unknown fields at any level and wrong value kinds are collected as
 *   `line N: ...` messages; when any exist it returns them (the caller prints them under
 *   `Details:` as `yaml: unmarshal errors:` lines). Values are not trimmed or resolved further.
 * - `checkKptfileVersion` reproduces kpt's apiVersion/kind messages.
 * - `validateFunctionStatic` runs the checks of kpt's `Function.validate` that need no filesystem
 *   and returns kpt's ValidateError text (kpt-compat.md §1.4), or undefined.
 * Pure: no I/O. The engine adds the configPath checks that read files.
 */
import { compileGoRegexp } from './go-regexp.ts';
import type { FunctionSpec, Selector } from './function.ts';
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
  pipeline: { mutators: FunctionSpec[]; validators: FunctionSpec[] };
}

/** Field schema: a struct type (Go name + fields), a scalar, a list, or a string map. */
type FieldType =
  | { t: 'struct'; name: string; fields: Record<string, FieldType> }
  | { t: 'string' }
  | { t: 'bool' }
  | { t: 'list'; of: FieldType }
  | { t: 'map' };

const STR: FieldType = { t: 'string' };
const MAP: FieldType = { t: 'map' };
const list = (of: FieldType): FieldType => ({ t: 'list', of });
const struct = (name: string, fields: Record<string, FieldType>): FieldType => ({ t: 'struct', name, fields });

const SELECTOR = struct('v1.Selector', {
  apiVersion: STR,
  kind: STR,
  name: STR,
  namespace: STR,
  labels: MAP,
  annotations: MAP,
});
const FUNCTION = struct('v1.Function', {
  image: STR,
  exec: STR,
  configPath: STR,
  configMap: MAP,
  name: STR,
  selectors: list(SELECTOR),
  exclude: list(SELECTOR),
});
const KPTFILE_SCHEMA = struct('v1.KptFile', {
  apiVersion: STR,
  kind: STR,
  metadata: struct('yaml.ObjectMeta', { name: STR, namespace: STR, labels: MAP, annotations: MAP }),
  upstream: struct('v1.Upstream', {
    type: STR,
    git: struct('v1.Git', { repo: STR, directory: STR, ref: STR }),
    updateStrategy: STR,
  }),
  upstreamLock: struct('v1.UpstreamLock', {
    type: STR,
    git: struct('v1.GitLock', { repo: STR, directory: STR, ref: STR, commit: STR }),
  }),
  info: struct('v1.PackageInfo', {
    site: STR,
    emails: list(STR),
    license: STR,
    licenseFile: STR,
    description: STR,
    keywords: list(STR),
    man: STR,
    readinessGates: list(struct('v1.ReadinessGate', { conditionType: STR })),
  }),
  pipeline: struct('v1.Pipeline', { mutators: list(FUNCTION), validators: list(FUNCTION) }),
  inventory: struct('v1.Inventory', {
    namespace: STR,
    name: STR,
    inventoryID: STR,
    labels: MAP,
    annotations: MAP,
  }),
  status: struct('v1.Status', {
    conditions: list(struct('v1.Condition', { type: STR, status: STR, reason: STR, message: STR })),
  }),
});

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
      return 'string';
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
        const k = deref(n.content[i]!);
        const v = deref(n.content[i + 1]!);
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
        const k = deref(n.content[i]!);
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
        const v = decodeNode(n.content[i + 1]!, ft, errors);
        if (v !== undefined) out[key] = v;
      }
      return out;
    }
  }
}

export type KptfileDecode = { ok: true; kptfile: Kptfile } | { ok: false; errors: string[] };

/** Strict decode of a parsed Kptfile document (kind 'document' or its root mapping). */
export function decodeKptfile(doc: YNode): KptfileDecode {
  const root = doc.kind === 'document' ? doc.content[0] : doc;
  const errors: string[] = [];
  const raw = root ? ((decodeNode(root, KPTFILE_SCHEMA, errors) as Record<string, unknown> | undefined) ?? {}) : {};
  if (errors.length) return { ok: false, errors };
  const pipeline = (raw.pipeline ?? {}) as {
    mutators?: Record<string, unknown>[];
    validators?: Record<string, unknown>[];
  };
  const toSpec = (f: Record<string, unknown>): FunctionSpec => {
    const s: FunctionSpec = {};
    if (typeof f.image === 'string') s.image = f.image;
    if (typeof f.exec === 'string') s.exec = f.exec;
    if (typeof f.configPath === 'string') s.configPath = f.configPath;
    if (f.configMap) s.configMap = f.configMap as Record<string, string>;
    if (typeof f.name === 'string') s.name = f.name;
    if (Array.isArray(f.selectors)) s.selectors = f.selectors as Selector[];
    if (Array.isArray(f.exclude)) s.exclude = f.exclude as Selector[];
    return s;
  };
  return {
    ok: true,
    kptfile: {
      apiVersion: String(raw.apiVersion ?? ''),
      kind: String(raw.kind ?? ''),
      metadata: (raw.metadata ?? {}) as Kptfile['metadata'],
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
export function checkKptfileVersion(apiVersion: string, kind: string, absDir: string): string | undefined {
  if (apiVersion === KPTFILE_API_VERSION && kind === 'Kptfile') return undefined;
  const at = `Kptfile at ${JSON.stringify(absDir)}`;
  if (kind === 'Kptfile' && apiVersion === 'kpt.dev/v1alpha1') {
    return `${at} has an old version ("v1alpha1") of the Kptfile schema.\nPlease update the package to the latest format by following https://kpt.dev/installation/migration.`;
  }
  if (kind === 'Kptfile' && apiVersion === 'kpt.dev/v1alpha2') {
    return `${at} has an old version ("v1alpha2") of the Kptfile schema.\nPlease run "kpt fn eval <PKG_PATH> -i gcr.io/kpt-fn/fix:v0.2 --include-meta-resources" to upgrade the package and retry.`;
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

// The docker reference grammar (distribution/reference), checked on the raw image string with Go's
// linear-time regexp semantics (`[a-z0-9]+(?:[-]*[a-z0-9]+)*` backtracks exponentially in JS).
const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const DOMAIN = `${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*(?::[0-9]+)?`;
const PATH_COMPONENT = '[a-z0-9]+(?:(?:[._]|__|[-]*)[a-z0-9]+)*';
const NAME = `(?:${DOMAIN}/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*`;
const TAG = '[\\w][\\w.-]{0,127}';
const DIGEST = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}';
const REFERENCE = compileGoRegexp(`^${NAME}(?::${TAG})?(?:@${DIGEST})?$`);

export function isValidImageReference(image: string): boolean {
  return image.length <= 255 + 140 && REFERENCE.matchString(image);
}

/** beta.56 image resolution: a name without `/` gets the `gcr.io/kpt-fn/` prefix; nothing else changes. */
export function resolveImageName(image: string): string {
  return image.includes('/') ? image : `gcr.io/kpt-fn/${image}`;
}

/**
 * The static checks of one pipeline function (kpt's `Function.validate` before it touches files).
 * `field` is e.g. `pipeline.mutators[0]`.
 */
export function validateFunctionStatic(fn: FunctionSpec, field: string): string | undefined {
  const hasImage = fn.image !== undefined && fn.image !== '';
  const hasExec = fn.exec !== undefined && fn.exec !== '';
  if (!hasImage && !hasExec) return formatValidateError(field, 'must specify a functon (`image` or `exec`) to execute');
  if (hasImage && hasExec)
    return formatValidateError(field, 'must not specify both `image` and `exec` at the same time');
  if (hasImage && !isValidImageReference(fn.image!)) {
    return formatValidateError(`${field}.image`, `function name ${JSON.stringify(fn.image)} is invalid`, fn.image);
  }
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
