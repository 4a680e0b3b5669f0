/**
 * apply-replacements (builtins/docs/apply-replacements.md): kustomize `replacements` applied in
 * order. v0.1.0–v0.1.1 (kustomize api v0.10.1, kyaml v0.13.6) find targets with kyaml's
 * `PathGetter`: a missing target is skipped, a found one becomes a copy of the source node.
 * v0.1.2 (api v0.19.0, kyaml v0.19.0) finds them with `PathMatcher` (regexp list matches, `*`,
 * index errors, a missing target is an error) and gives a scalar target only the source's text.
 * Paths: lib/kustomize-path.ts, lib/kyaml-path-matcher.ts.
 */
import { type GoType, goJsonTypeError } from './lib/go-json-decode.ts';
import {
  cloneNode,
  compileGoRegexp,
  defineBuiltin,
  defineMutator,
  type KubeObject,
  newNode,
  type PathSegment,
  replaceNode,
  resolvePlainTag,
  type YNode,
} from '../sdk/index.ts';
import { emulatedVersion, finish } from './lib/catalog-fn.ts';
import { NIL_DEREFERENCE } from './lib/go-panic.ts';
import { splitApiVersion } from './lib/gvk.ts';
import { KyamlPathError, pathGet, settleCreatedScalar, smarterPathSplit } from './lib/kustomize-path.ts';
import { pathMatch } from './lib/kyaml-path-matcher.ts';
import { fail, goQuote, ok, type Report } from './lib/report.ts';
import { atLeast } from './lib/version.ts';

export interface ResSelector {
  group?: string;
  version?: string;
  kind?: string;
  name?: string;
  namespace?: string;
  labelSelector?: string;
  annotationSelector?: string;
}

export interface FieldOptions {
  delimiter?: string;
  index?: number;
  create?: boolean;
}

export interface Replacement {
  source?: ResSelector & { fieldPath?: string; options?: FieldOptions };
  targets?: { select?: ResSelector; reject?: ResSelector[]; fieldPaths?: string[]; options?: FieldOptions }[];
}

const STRING: GoType = { kind: 'string' };
const RES_ID = { group: STRING, version: STRING, kind: STRING, name: STRING, namespace: STRING };
const FIELD_OPTIONS: GoType = {
  kind: 'struct',
  name: 'types.FieldOptions',
  fields: { delimiter: STRING, index: { kind: 'int' }, encoding: STRING, create: { kind: 'bool' } },
};
const SELECTOR: GoType = {
  kind: 'struct',
  name: 'types.Selector',
  fields: { ...RES_ID, annotationSelector: STRING, labelSelector: STRING },
};
/**
 * The config struct upstream unmarshals into: `replacements.Replacements` holding kustomize's
 * `[]types.Replacement` (api/types/replacement.go and selector.go at api/v0.10.1, kyaml resid).
 */
const REPLACEMENTS = {
  kind: 'struct',
  name: 'replacements.Replacements',
  fields: {
    replacements: {
      kind: 'slice',
      elem: {
        kind: 'struct',
        name: 'types.Replacement',
        fields: {
          source: {
            kind: 'struct',
            name: 'types.SourceSelector',
            fields: { ...RES_ID, fieldPath: STRING, options: FIELD_OPTIONS },
          },
          targets: {
            kind: 'slice',
            elem: {
              kind: 'struct',
              name: 'types.TargetSelector',
              fields: {
                select: SELECTOR,
                reject: { kind: 'slice', elem: SELECTOR },
                fieldPaths: { kind: 'slice', elem: STRING },
                options: FIELD_OPTIONS,
              },
            },
          },
        },
      },
    },
  },
} as const satisfies GoType;

/**
 * `Replacements.Config`: v0.1.1 and later first refuse an empty config (`IsEmpty`: no field at
 * all; the SDK gives an absent one as empty); v0.1.0 has no such check, and its SDK (f687d1b931e6)
 * leaves an absent config nil, so `GetKind` dereferences nil and `Run` reports the recovered panic.
 */
export function parseApplyReplacementsConfig(fc: KubeObject | undefined, version = 'v0.1.1'): Replacement[] | string {
  const checksEmpty = atLeast(version, '0.1.1');
  if (!fc && !checksEmpty) return NIL_DEREFERENCE;
  if (!fc || (checksEmpty && fc.root.content.length === 0))
    return 'FunctionConfig is missing. Expect `ApplyReplacements`';
  if (fc.kind !== 'ApplyReplacements' || fc.apiVersion !== 'fn.kpt.dev/v1alpha1') {
    return `received functionConfig of kind ${fc.kind} and apiVersion ${fc.apiVersion}, only functionConfig of kind ApplyReplacements and apiVersion fn.kpt.dev/v1alpha1 is supported`;
  }
  // `functionConfig.As(r)` (replacements.go `Config` at every tag, the SDK's `As` wraps the error).
  const typeError = goJsonTypeError(fc.toJS(), REPLACEMENTS);
  if (typeError !== undefined)
    return `unable to convert functionConfig to replacements:\nunable to convert object to *replacements.Replacements with error: ${typeError}`;
  const r = fc.get('replacements');
  return Array.isArray(r) ? (r as Replacement[]) : [];
}

class ReplacementError extends Error {}

/** kustomize ResId form used in messages: `Kind.version.group/name.namespace` with placeholders. */
export function selectorString(s: ResSelector): string {
  return `${s.kind || '[noKind]'}.${s.version || '[noVer]'}.${s.group || '[noGrp]'}/${s.name || '[noName]'}.${s.namespace || '[noNs]'}`;
}

function anchored(pattern: string | undefined, value: string): boolean {
  if (!pattern) return true;
  try {
    return compileGoRegexp(`^(?:${pattern})$`).matchString(value);
  } catch {
    return pattern === value;
  }
}

/** kubectl-style label selector subset: `a=b`, `a==b`, `a!=b`, `a`, `!a`, `a in (x,y)`, `a notin (x)`. */
export function matchesLabelSelector(sel: string | undefined, labels: Record<string, string>): boolean {
  if (!sel) return true;
  const terms = sel.match(/[^,(]+(\([^)]*\))?/g) ?? [];
  return terms.every((raw) => {
    const t = raw.trim();
    let m: RegExpMatchArray | null;
    if ((m = t.match(/^(\S+)\s+(in|notin)\s+\(([^)]*)\)$/))) {
      const vals = m[3].split(',').map((x) => x.trim());
      const has = m[1] in labels && vals.includes(labels[m[1]]);
      return m[2] === 'in' ? has : !has;
    }
    if ((m = t.match(/^(\S+?)\s*!=\s*(\S*)$/))) return labels[m[1]] !== m[2];
    if ((m = t.match(/^(\S+?)\s*==?\s*(\S*)$/))) return labels[m[1]] === m[2];
    if (t.startsWith('!')) return !(t.slice(1) in labels);
    return t in labels;
  });
}

function matches(obj: KubeObject, s: ResSelector): boolean {
  const gv = splitApiVersion(obj.apiVersion);
  return (
    anchored(s.group, gv.group) &&
    anchored(s.version, gv.version) &&
    anchored(s.kind, obj.kind) &&
    anchored(s.name, obj.name) &&
    anchored(s.namespace, obj.namespace) &&
    matchesLabelSelector(s.labelSelector, obj.labels()) &&
    matchesLabelSelector(s.annotationSelector, obj.annotations())
  );
}

export function applyReplacements(
  items: readonly KubeObject[],
  replacements: readonly Replacement[],
  version: string,
): Report {
  const v19 = atLeast(version, '0.1.2');
  try {
    for (const r of replacements) applyOne(items, r, v19);
  } catch (e) {
    if (e instanceof ReplacementError) return fail(e.message);
    throw e;
  }
  return ok();
}

function applyOne(items: readonly KubeObject[], r: Replacement, v19: boolean): void {
  // `r.Targets == nil`: an empty list is not nil (encoding/json), so `targets: []` does nothing.
  if (!r.source || !r.targets) throw new ReplacementError('replacements must specify a source and at least one target');
  const src = r.source;
  const sel: ResSelector = { ...src };
  const found = items.filter((o) => matches(o, sel));
  if (found.length === 0) throw new ReplacementError(`nothing selected by ${selectorString(sel)}`);
  if (found.length > 1) throw new ReplacementError(`multiple matches for selector ${selectorString(sel)}`);
  const value = sourceValue(found[0], src.fieldPath || 'metadata.name', sel, src.options, v19);
  for (const t of r.targets) {
    if (!t.select) throw new ReplacementError('target must specify resources to select');
    const select = t.select;
    const targets = items.filter((o) => matches(o, select) && !(t.reject ?? []).some((rj) => matches(o, rj)));
    const fieldPaths = t.fieldPaths?.length ? t.fieldPaths : ['metadata.name'];
    for (const obj of targets) {
      if (v19) copyToTargetV19(obj, fieldPaths, value, t.options);
      else copyToTargetV10(obj, fieldPaths, value, t.options);
    }
  }
}

/**
 * `getReplacement`: the source field through kyaml's `PathGetter` (its errors prefixed from api
 * v0.19 on); a missing, null, `{}` or `[]` value is an error (`IsNilOrEmpty`), `""` is a value.
 */
function sourceValue(
  source: KubeObject,
  fp: string,
  sel: ResSelector,
  options: FieldOptions | undefined,
  v19: boolean,
): YNode {
  let loc;
  try {
    loc = pathGet(source, smarterPathSplit(fp), { dialect: v19 ? 'v0.19' : 'v0.13' });
  } catch (e) {
    if (!(e instanceof KyamlPathError)) throw e;
    throw new ReplacementError(v19 ? `error looking up replacement source: ${e.message}` : e.message);
  }
  const node = loc?.node;
  if (
    !node ||
    node.tag === '!!null' ||
    ((node.kind === 'mapping' || node.kind === 'sequence') && node.content.length === 0)
  ) {
    throw new ReplacementError(`fieldPath \`${fp}\` is missing for replacement source ${selectorString(sel)}`);
  }
  if (!options?.delimiter) return node;
  if (node.kind !== 'scalar') throw new ReplacementError('delimiter option can only be used with scalar nodes');
  const parts = node.value.split(options.delimiter);
  const idx = options.index ?? 0;
  if (idx < 0 || idx >= parts.length)
    throw new ReplacementError(`options.index ${idx} is out of bounds for value ${node.value}`);
  return { ...cloneNode(node), value: parts[idx] };
}

/**
 * api v0.10.1 `applyToNode`: `Lookup` / `LookupCreate(value kind)` per field path; a missing
 * target is skipped; the target node becomes a copy of the value (`SetYNode`).
 */
function copyToTargetV10(obj: KubeObject, fieldPaths: string[], value: YNode, options: FieldOptions | undefined): void {
  for (const fp of fieldPaths) {
    let loc;
    try {
      loc = pathGet(obj, smarterPathSplit(fp), { dialect: 'v0.13', create: options?.create ? value.kind : undefined });
    } catch (e) {
      if (e instanceof KyamlPathError) throw new ReplacementError(e.message);
      throw e;
    }
    if (!loc) continue;
    const fresh = cloneNode(value);
    fresh.value = delimited(loc.node, value, options);
    if (loc.path) replaceNode(obj, loc.path, fresh);
  }
}

/**
 * api v0.19.0 `copyValueToTarget`: kyaml `PathMatcher` (every match, `create` of the value's
 * kind); no match is an error; a scalar target keeps its tag, style and comments and takes only
 * the text (`setFieldValue`), any other target becomes a copy of the value.
 */
function copyToTargetV19(obj: KubeObject, fieldPaths: string[], value: YNode, options: FieldOptions | undefined): void {
  for (const fp of fieldPaths) {
    const create = options?.create === true;
    const what = `unable to ${create ? 'find or create' : 'find'} field ${goQuote(fp)} in replacement target`;
    let locs;
    try {
      locs = pathMatch(obj, smarterPathSplit(fp), create ? value.kind : undefined);
    } catch (e) {
      if (e instanceof KyamlPathError) throw new ReplacementError(`${what}: ${e.message}`);
      throw e;
    }
    if (locs.length === 0) throw new ReplacementError(what);
    for (const loc of locs) {
      const text = delimited(loc.node, value, options);
      if (!loc.path) continue;
      if (loc.node.kind === 'scalar') setScalarTextOnly(obj, loc.path, text);
      else replaceNode(obj, loc.path, { ...cloneNode(value), value: text });
    }
  }
}

/**
 * The text the target gets: the value's text (`""` for a collection), or with `delimiter` the
 * target's text with the part at `index` replaced (negative: prefixed; past the end: appended).
 */
function delimited(target: YNode, value: YNode, options: FieldOptions | undefined): string {
  const text = value.tag === '!!null' ? '' : value.value;
  if (!options?.delimiter) return text;
  if (target.kind !== 'scalar') throw new ReplacementError('delimiter option can only be used with scalar nodes');
  const parts = target.value.split(options.delimiter);
  const idx = options.index ?? 0;
  if (idx < 0) parts.unshift(text);
  else if (idx >= parts.length) parts.push(text);
  else parts[idx] = text;
  return parts.join(options.delimiter);
}

/**
 * `targetField.YNode().Value = text`: tag, style and comments stay. A tag the new text does not
 * resolve to is written explicitly (`!!int abc`), as go-yaml does; a created (untagged) scalar
 * takes the tag its text resolves to when the output is read back.
 */
function setScalarTextOnly(obj: KubeObject, path: PathSegment[], text: string): void {
  const cur = obj.getNode(path)!;
  const keep = { tag: cur.tag, style: cur.style, tagged: cur.tagged };
  obj.set(path, newNode('scalar', { value: text, tag: cur.tag || '!!str', style: cur.style }));
  const after = obj.getNode(path)!;
  Object.assign(after, keep);
  settleCreatedScalar(after);
  if (after.style === '' && after.tag !== '!!str' && !text.includes('\n') && resolvePlainTag(text) !== after.tag)
    after.tagged = true;
}

const VERSIONS = ['v0.1.0', 'v0.1.1', 'v0.1.2'];

export const applyReplacementsFn = defineMutator({
  name: 'apply-replacements',
  usage: 'Copies field values from one resource into fields of others (kustomize replacements).',
  run(ctx) {
    const version = emulatedVersion(ctx, VERSIONS[VERSIONS.length - 1]);
    const cfg = parseApplyReplacementsConfig(ctx.functionConfig, version);
    finish(ctx, typeof cfg === 'string' ? fail(cfg) : applyReplacements(ctx.items.all, cfg, version), 'fn-sdk');
  },
});

const SELECTOR_SCHEMA = {
  type: 'object',
  properties: {
    group: { type: 'string' },
    version: { type: 'string' },
    kind: { type: 'string' },
    name: { type: 'string' },
    namespace: { type: 'string' },
    labelSelector: { type: 'string' },
    annotationSelector: { type: 'string' },
  },
};
const OPTIONS_SCHEMA = {
  type: 'object',
  properties: { delimiter: { type: 'string' }, index: { type: 'integer' }, create: { type: 'boolean' } },
};

export default defineBuiltin({
  name: 'apply-replacements',
  versions: VERSIONS,
  configKinds: ['ApplyReplacements'],
  summary: 'Copy field values between resources (kustomize replacements)',
  schema: {
    type: 'object',
    properties: {
      replacements: {
        type: 'array',
        items: {
          type: 'object',
          properties: {
            source: {
              ...SELECTOR_SCHEMA,
              properties: { ...SELECTOR_SCHEMA.properties, fieldPath: { type: 'string' }, options: OPTIONS_SCHEMA },
            },
            targets: {
              type: 'array',
              items: {
                type: 'object',
                properties: {
                  select: SELECTOR_SCHEMA,
                  reject: { type: 'array', items: SELECTOR_SCHEMA },
                  fieldPaths: { type: 'array', items: { type: 'string' } },
                  options: OPTIONS_SCHEMA,
                },
              },
            },
          },
        },
      },
    },
  },
  fn: applyReplacementsFn,
});
