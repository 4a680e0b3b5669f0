/**
 * apply-replacements (builtins/docs/apply-replacements.md): kustomize `replacements` applied in order. Versions:
 * v0.1.0–v0.1.1 (kustomize api v0.10.1) silently skip a target field that is missing without
 * `create`; v0.1.2 and newer (api v0.19.0) report it as an error and accept `*` wildcards.
 */
import { type GoType, goJsonTypeError } from './lib/go-json-decode.ts';
import {
  cloneNode,
  compileGoRegexp,
  defineBuiltin,
  defineMutator,
  type KubeObject,
  type PathSegment,
  replaceNode,
  type YNode,
} from '../sdk/index.ts';
import { emulatedVersion, finish } from './lib/catalog-fn.ts';
import { splitApiVersion } from './lib/gvk.ts';
import { lookupAll, lookupCreate, parseKustomizePath } from './lib/kustomize-path.ts';
import { fail, ok, type Report } from './lib/report.ts';
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

export function parseApplyReplacementsConfig(fc: KubeObject | undefined): Replacement[] | string {
  if (!fc || fc.kind === '') return 'FunctionConfig is missing. Expect `ApplyReplacements`';
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
  if (!r.source || !r.targets || r.targets.length === 0)
    throw new ReplacementError('replacements must specify a source and at least one target');
  const src = r.source;
  const sel: ResSelector = { ...src };
  const found = items.filter((o) => matches(o, sel));
  if (found.length === 0) throw new ReplacementError(`nothing selected by ${selectorString(sel)}`);
  if (found.length > 1) throw new ReplacementError(`multiple matches for selector ${selectorString(sel)}`);
  const fp = src.fieldPath || 'metadata.name';
  const source = found[0];
  const paths = lookupAll(source, parseKustomizePath(fp));
  const node = paths[0] && source.getNode(paths[0]);
  if (!node || (node.kind === 'scalar' && (node.value === '' || node.tag === '!!null'))) {
    throw new ReplacementError(`fieldPath \`${fp}\` is missing for replacement source ${selectorString(sel)}`);
  }
  let value: YNode = node;
  if (src.options?.delimiter) {
    if (node.kind !== 'scalar') throw new ReplacementError('delimiter option can only be used with scalar nodes');
    const parts = node.value.split(src.options.delimiter);
    const idx = src.options.index ?? 0;
    if (idx < 0 || idx >= parts.length)
      throw new ReplacementError(`options.index ${idx} is out of bounds for value ${node.value}`);
    value = { ...cloneNode(node), value: parts[idx] };
  }
  for (const t of r.targets) {
    if (!t.select) throw new ReplacementError('target must specify resources to select');
    const select = t.select;
    const targets = items.filter((o) => matches(o, select) && !(t.reject ?? []).some((rj) => matches(o, rj)));
    for (const obj of targets) {
      for (const tfp of t.fieldPaths?.length ? t.fieldPaths : ['metadata.name']) {
        const segs = parseKustomizePath(tfp);
        if (!v19 && segs.some((s) => s.kind === 'wildcard')) continue;
        let hits = lookupAll(obj, segs);
        if (hits.length === 0 && t.options?.create) hits = lookupCreate(obj, segs);
        if (hits.length === 0) {
          if (!v19) continue;
          throw new ReplacementError(
            t.options?.create
              ? `unable to find or create field "${tfp}" in replacement target`
              : `unable to find field "${tfp}" in replacement target`,
          );
        }
        for (const h of hits) setTarget(obj, h, value, t.options);
      }
    }
  }
}

function setTarget(obj: KubeObject, path: PathSegment[], value: YNode, options: FieldOptions | undefined): void {
  const target = obj.getNode(path)!;
  const fresh = cloneNode(value);
  if (options?.delimiter) {
    if (target.kind !== 'scalar' || value.kind !== 'scalar')
      throw new ReplacementError('delimiter option can only be used with scalar nodes');
    const parts = target.value.split(options.delimiter);
    const idx = options.index ?? 0;
    if (idx < 0) parts.unshift(value.value);
    else if (idx >= parts.length) parts.push(value.value);
    else parts[idx] = value.value;
    fresh.value = parts.join(options.delimiter);
  }
  // The target keeps its own comments where it has them (kpt restores them by id anyway).
  replaceNode(obj, path, fresh);
}

const VERSIONS = ['v0.1.0', 'v0.1.1', 'v0.1.2'];

export const applyReplacementsFn = defineMutator({
  name: 'apply-replacements',
  usage: 'Copies field values from one resource into fields of others (kustomize replacements).',
  run(ctx) {
    const version = emulatedVersion(ctx, VERSIONS[VERSIONS.length - 1]);
    const cfg = parseApplyReplacementsConfig(ctx.functionConfig);
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
