/**
 * fix (builtins/docs/fix.md): migrates kpt v0.x packages offline. `kpt.dev/v1alpha1` and `v1alpha2`
 * Kptfiles become `kpt.dev/v1`: `packageMetadata` → `info`, `upstream` → `upstream` +
 * `upstreamLock`, `dependencies` dropped, OpenAPI setters → an apply-setters mutator; setter
 * comments in resources (`# {"$kpt-set":"x"}`, `# {"$openapi":"x"}`, `# {"$ref":"#/definitions/io.k8s.cli.setters.x"}`,
 * substitutions) → `# kpt-set: ...`; resources annotated `config.kubernetes.io/function` → mutators
 * with `configPath`.
 */
import { defineBuiltin, defineMutator, fromJS, type KubeObject, type Result } from '../sdk/index.ts';
import { finish } from './lib/catalog-fn.ts';
import { isKptfile } from './lib/gvk.ts';
import { fail, ok, type Report } from './lib/report.ts';
import { SETTER_PREFIX } from './lib/setters.ts';
import { walk } from './lib/walk.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const SETTER_DEF = 'io.k8s.cli.setters.';
const SUBST_DEF = 'io.k8s.cli.substitutions.';
const APPLY_SETTERS = 'gcr.io/kpt-fn/apply-setters:v0.2';

function pathOf(o: KubeObject): string {
  return o.getAnnotation('internal.config.kubernetes.io/path') ?? o.getAnnotation('config.kubernetes.io/path') ?? '';
}
const dirOf = (p: string): string => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');

interface Setters {
  values: Map<string, string>;
  substitutions: Map<string, string>;
}

/** Setter values and substitution patterns (`${setter}` form) from an OpenAPI `definitions` map. */
export function readOpenApiSetters(openAPI: unknown): Setters {
  const values = new Map<string, string>();
  const substitutions = new Map<string, string>();
  const defs = isObj(openAPI) && isObj(openAPI['definitions']) ? openAPI['definitions'] : {};
  for (const [key, def] of Object.entries(defs)) {
    if (!isObj(def) || !isObj(def['x-k8s-cli'])) continue;
    const cli = def['x-k8s-cli'];
    if (key.startsWith(SETTER_DEF) && isObj(cli['setter'])) {
      const s = cli['setter'];
      const name = typeof s['name'] === 'string' ? s['name'] : key.slice(SETTER_DEF.length);
      const list = Array.isArray(s['listValues']) ? s['listValues'] : undefined;
      values.set(name, list ? `[${list.map(String).join(', ')}]` : String(s['value'] ?? ''));
    } else if (key.startsWith(SUBST_DEF) && isObj(cli['substitution'])) {
      const s = cli['substitution'];
      let pattern = String(s['pattern'] ?? '');
      for (const v of Array.isArray(s['values']) ? s['values'] : []) {
        if (!isObj(v)) continue;
        const ref = String(v['ref'] ?? '');
        const setter = ref.slice(ref.lastIndexOf('.') + 1);
        pattern = pattern.split(String(v['marker'] ?? '\u0000')).join(`\${${setter}}`);
      }
      substitutions.set(typeof s['name'] === 'string' ? s['name'] : key.slice(SUBST_DEF.length), pattern);
    }
  }
  return { values, substitutions };
}

/** The new-style comment for an old setter comment, or undefined. */
export function convertSetterComment(comment: string, setters: Setters): string | undefined {
  const body = comment.replace(/^#\s*/, '');
  if (!body.startsWith('{')) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!isObj(parsed)) return undefined;
  if (typeof parsed['$kpt-set'] === 'string') return `${SETTER_PREFIX}\${${parsed['$kpt-set']}}`;
  // kpt v0.x: `# {"$openapi":"name"}` names a setter or a substitution.
  if (typeof parsed['$openapi'] === 'string') {
    const n = parsed['$openapi'];
    const p = setters.substitutions.get(n);
    return SETTER_PREFIX + (p ?? `\${${n}}`);
  }
  const ref = typeof parsed['$ref'] === 'string' ? parsed['$ref'] : '';
  const name = ref.slice(ref.lastIndexOf('/') + 1);
  if (name.startsWith(SETTER_DEF)) return `${SETTER_PREFIX}\${${name.slice(SETTER_DEF.length)}}`;
  if (name.startsWith(SUBST_DEF)) {
    const p = setters.substitutions.get(name.slice(SUBST_DEF.length));
    return p === undefined ? undefined : SETTER_PREFIX + p;
  }
  return undefined;
}

function fixKptfile(kf: KubeObject, items: readonly KubeObject[], results: Result[]): void {
  const raw = kf.toJS();
  kf.set('apiVersion', 'kpt.dev/v1');
  results.push({ message: 'Updated apiVersion to kpt.dev/v1', severity: 'info' });
  if (isObj(raw['packageMetadata'])) {
    const pm = raw['packageMetadata'];
    const info: Obj = {};
    if (pm['shortDescription'] !== undefined) info['description'] = pm['shortDescription'];
    for (const [k, v] of Object.entries(pm)) if (k !== 'shortDescription') info[k] = v;
    kf.delete(['packageMetadata']);
    kf.set('info', info);
    results.push({ message: 'Transformed "packageMetadata" to "info"', severity: 'info' });
  }
  if (isObj(raw['upstream']) && isObj(raw['upstream']['git'])) {
    const g = raw['upstream']['git'];
    const git: Obj = {};
    for (const k of ['repo', 'directory', 'ref']) if (g[k] !== undefined) git[k] = g[k];
    kf.set('upstream', { type: 'git', git, updateStrategy: 'resource-merge' });
    kf.set('upstreamLock', {
      type: 'git',
      git: { ...git, ...(g['commit'] !== undefined ? { commit: g['commit'] } : {}) },
    });
    results.push({ message: 'Transformed "upstream" to "upstream" and "upstreamLock"', severity: 'info' });
  }
  kf.delete(['dependencies']);
  const setters = readOpenApiSetters(raw['openAPI']);
  kf.delete(['openAPI']);
  const dir = dirOf(pathOf(kf));
  const inPackage = (o: KubeObject): boolean => {
    const p = pathOf(o);
    return dir === '' ? true : p.startsWith(`${dir}/`);
  };
  const mutators: Obj[] = [];
  if (setters.values.size > 0) {
    mutators.push({ image: APPLY_SETTERS, configMap: Object.fromEntries(setters.values) });
    results.push({
      message: `Added "${APPLY_SETTERS}" to mutators list, please move it to validators section if it is a validator function`,
      severity: 'info',
    });
  }
  for (const o of items) {
    if (o === kf || isKptfile(o) || !inPackage(o)) continue;
    walk(o.root, ({ node, key }) => {
      for (const n of [node, key]) {
        if (!n || !n.lineComment) continue;
        const next = convertSetterComment(n.lineComment, setters);
        if (next !== undefined) o.editTree(() => (n.lineComment = next));
      }
    });
    const fnAnnotation = o.getAnnotation('config.kubernetes.io/function') ?? o.getAnnotation('config.k8s.io/function');
    if (fnAnnotation !== undefined) {
      const image = /image:\s*(\S+)/.exec(fnAnnotation)?.[1] ?? '';
      const rel = dir ? pathOf(o).slice(dir.length + 1) : pathOf(o);
      if (image) {
        mutators.push({ image, configPath: rel });
        results.push({
          message: `Added "${image}" to mutators list, please move it to validators section if it is a validator function`,
          severity: 'info',
        });
      }
      o.removeAnnotation('config.kubernetes.io/function');
      o.removeAnnotation('config.k8s.io/function');
    }
  }
  if (mutators.length > 0) {
    const existing = kf.getNode(['pipeline', 'mutators']);
    if (existing && existing.kind === 'sequence')
      kf.editTree(() => existing.content.push(...mutators.map((m) => fromJS(m))));
    else kf.set(['pipeline', 'mutators'], mutators);
  }
}

export function fixPackage(items: readonly KubeObject[]): Report {
  const kptfiles = items.filter(isKptfile);
  if (kptfiles.length === 0)
    return fail("Kptfile not found in directory tree, make sure you specify '--include-meta-resources' flag");
  const results: Result[] = [];
  for (const kf of kptfiles) {
    if (kf.apiVersion === 'kpt.dev/v1') continue;
    fixKptfile(kf, items, results);
  }
  if (results.length === 0)
    return ok([
      { message: 'This package is already fixed as it is on latest apiVersion kpt.dev/v1', severity: 'info' },
    ]);
  return ok(results);
}

export const fixFn = defineMutator({
  name: 'fix',
  usage: 'Migrates kpt v0.x packages (Kptfile v1alpha1/v1alpha2, OpenAPI setters, function annotations) to kpt.dev/v1.',
  run(ctx) {
    finish(ctx, fixPackage(ctx.items.all));
  },
});

export default defineBuiltin({
  name: 'fix',
  versions: ['v0.2.0', 'v0.2.1'],
  configKinds: [],
  summary: 'Migrate kpt v0.x packages to kpt.dev/v1 (offline parts)',
  fn: fixFn,
});
