/**
 * ensure-name-substring: prefixes or suffixes names (kustomize namePrefix /
 * nameSuffix FieldSpecs plus `additionalNameFields`), skipping names that already contain the
 * substring, then fixes name back-references and `depends-on` annotations. Items keep every
 * annotation they came with, `config.kubernetes.io/path` and `index` included, so kpt writes each
 * one back to its own file: the catalog function round-trips items through a kustomize resmap whose
 * `RemoveBuildAnnotations` drops only kustomize's build annotations (GoogleContainerTools/
 * kpt-functions-catalog `functions/go/ensure-name-substring/main.go` at every tag, kustomize
 * `api/resource/resource.go` at the commit its go.mod pins), and the catalog's own example goldens
 * (`examples/ensure-name-substring-prefix/.expected/diff.patch`) change names in place.
 */
import {
  defineBuiltin,
  defineMutator,
  type KubeObject,
  mapGet,
  newNode,
  setStringScalar,
  toJS,
  versionAtLeast,
  type YNode,
} from '../sdk/index.ts';
import { emulatedVersion, finish } from './lib/catalog-fn.ts';
import { isConfigMap } from './lib/config.ts';
import { sigsYamlString, sigsYamlStringMap } from './lib/sigs-yaml-string.ts';
import { FIELD_SPEC_SCHEMA, forEachFieldSpecTarget, toFieldSpecs, type FieldSpec } from './lib/field-spec.ts';
import { groupOf, gvkString, matchesGvk } from './lib/gvk.ts';
import { NAME_REFERENCES } from './lib/name-references.ts';
import { fail, ok, type Report } from './lib/report.ts';

export interface EnsureNameSubstringConfig {
  substring: string;
  /**
   * `prepend` or `append`; a typed config may name any other mode, which upstream accepts and
   * then renames nothing (`Transform` and the depends-on update only act on the two known modes).
   */
  editMode: string;
  additionalNameFields: FieldSpec[];
}

const WRAP = 'failed to load the `functionConfig`: ';

export function parseEnsureNameSubstringConfig(fc: KubeObject | undefined): EnsureNameSubstringConfig | string {
  let cfg: EnsureNameSubstringConfig;
  if (fc && isConfigMap(fc)) {
    // Every tag reads the config with sigs.k8s.io/yaml v1.2.0 into Go strings (`append: 010` is "8").
    const data = sigsYamlStringMap(fc.getNode('data'), (v) => String(toJS(v)));
    if (data.size !== 1) return `${WRAP}only 1 entry is allowed in the ConfigMap, but got: ${data.size}`;
    const [k, v] = [...data][0];
    if (k !== 'prepend' && k !== 'append') return `${WRAP}unknown editMode: ${k}, only prepend and append are allowed`;
    cfg = { substring: v, editMode: k, additionalNameFields: [] };
  } else if (fc && fc.kind === 'EnsureNameSubstring' && fc.apiVersion === 'fn.kpt.dev/v1alpha1') {
    const text = (field: string): string | undefined => {
      const n = fc.getNode(field);
      return n === undefined ? undefined : (sigsYamlString(n) ?? String(toJS(n)));
    };
    // `Default()` makes an empty mode `prepend`; no tag validates the mode of a typed config.
    const mode = text('editMode') || 'prepend';
    const extra = fc.get('additionalNameFields');
    const legacy = fc.get('fieldSpecs');
    if (extra !== undefined && legacy !== undefined) {
      return `${WRAP}\`fieldSpecs\` has been deprecated, please rename it to \`additionalNameFields\``;
    }
    cfg = {
      substring: text('substring') ?? '',
      editMode: mode,
      additionalNameFields: toFieldSpecs(extra ?? legacy),
    };
  } else {
    const got = fc ? gvkString(fc) : '/, Kind=';
    return `${WRAP}function config must be either ConfigMap.v1 or EnsureNameSubstring.v1alpha1.fn.kpt.dev, but we got: ${got}`;
  }
  if (cfg.substring === '') return `${WRAP}substring must not be empty`;
  return cfg;
}

function skipped(obj: KubeObject): boolean {
  const g = groupOf(obj);
  return (
    obj.kind === 'CustomResourceDefinition' ||
    (obj.kind === 'APIService' && g === 'apiregistration.k8s.io') ||
    obj.kind === 'Namespace' ||
    (obj.kind === 'Kptfile' && g === 'kpt.dev')
  );
}

const CLUSTER_SCOPED_REFS = new Set(['ClusterRole', 'PersistentVolume', 'StorageClass', 'PriorityClass']);

interface Renamed {
  group: string;
  kind: string;
  namespace: string;
  oldName: string;
  newName: string;
}

export function ensureNameSubstring(items: readonly KubeObject[], cfg: EnsureNameSubstringConfig): Report {
  if (cfg.editMode !== 'prepend' && cfg.editMode !== 'append') return ok();
  const edit = (v: string): string => (cfg.editMode === 'prepend' ? cfg.substring + v : v + cfg.substring);
  const original = items.map((o) => ({ group: groupOf(o), kind: o.kind, name: o.name }));
  const renamed: Renamed[] = [];
  const processed: KubeObject[] = [];
  const specs: FieldSpec[] = [{ path: 'metadata/name' }, ...cfg.additionalNameFields];
  for (const obj of items) {
    if (skipped(obj)) continue;
    const oldName = obj.name;
    let touched = false;
    for (const fs of specs) {
      forEachFieldSpecTarget(obj, fs, (parent, key, path) => {
        const n = mapGet(parent, key);
        if (!n || n.kind !== 'scalar' || n.value.includes(cfg.substring)) return;
        setStringScalar(obj, path, edit(n.value));
        touched = true;
      });
    }
    if (obj.name !== oldName)
      renamed.push({ group: groupOf(obj), kind: obj.kind, namespace: obj.namespace, oldName, newName: obj.name });
    // Upstream bug (reproduced): objects whose name already had the substring skip depends-on.
    if (touched || obj.name !== oldName) processed.push(obj);
  }
  fixBackReferences(items, renamed);
  for (const obj of processed) fixDependsOn(obj, original, cfg.substring, edit);
  return ok();
}

function fixBackReferences(items: readonly KubeObject[], renamed: readonly Renamed[]): void {
  if (renamed.length === 0) return;
  for (const ref of NAME_REFERENCES) {
    const targets = renamed.filter((r) => r.kind === ref.kind && (!ref.group || ref.group === r.group));
    if (targets.length === 0) continue;
    for (const referrer of ref.referrers) {
      for (const obj of items) {
        if (!matchesGvk(obj, { kind: referrer.kind ?? '', group: referrer.group ?? '' })) continue;
        forEachFieldSpecTarget(obj, { path: referrer.path }, (parent, key, path) => {
          const n = mapGet(parent, key);
          if (!n || n.kind !== 'scalar') return;
          if (referrer.refKindField) {
            const k = mapGet(parent, referrer.refKindField);
            if (k && k.value !== ref.kind) return;
          }
          const ns = scalarOf(mapGet(parent, 'namespace')) ?? obj.namespace;
          const hit = targets.find(
            (t) =>
              t.oldName === n.value &&
              (CLUSTER_SCOPED_REFS.has(t.kind) || (t.namespace || 'default') === (ns || 'default')),
          );
          // The reference keeps its tag and style; only its text changes.
          if (hit) obj.set(path, newNode('scalar', { value: hit.newName, tag: n.tag, style: n.style }));
        });
      }
    }
  }
}

function scalarOf(n: YNode | undefined): string | undefined {
  return n && n.kind === 'scalar' ? n.value : undefined;
}

const DEPENDS_ON = 'config.kubernetes.io/depends-on';

function fixDependsOn(
  obj: KubeObject,
  original: readonly { group: string; kind: string; name: string }[],
  substring: string,
  edit: (v: string) => string,
): void {
  const value = obj.getAnnotation(DEPENDS_ON);
  if (value === undefined) return;
  const next = value.split(',').map((ref) => {
    const parts = ref.split('/');
    let g: string, k: string, n: string;
    if (parts.length === 5 && parts[1] === 'namespaces')
      [g, , , k, n] = parts as [string, string, string, string, string];
    else if (parts.length === 3) [g, k, n] = parts as [string, string, string];
    else return ref;
    const exists = original.some((o) => o.group === g && o.kind === k && o.name === n);
    if (!exists || n.includes(substring)) return ref;
    parts[parts.length - 1] = edit(n);
    return parts.join('/');
  });
  const joined = next.join(',');
  if (joined !== value) obj.setAnnotation(DEPENDS_ON, joined);
}

const VERSIONS = ['v0.1.0', 'v0.1.1', 'v0.2.0'];
const NEWEST = VERSIONS[VERSIONS.length - 1];
const LOCAL_CONFIG = 'config.kubernetes.io/local-config';

/**
 * v0.1.0 builds its resmap with kustomize api v0.8.4's default factory, which drops every object
 * carrying the `local-config` annotation, whatever its value (`api/internal/wrappy/factory.go`,
 * `shouldDropObject`, at kubernetes-sigs/kustomize `api/v0.8.4`): such objects leave the output and
 * kpt deletes their files (the catalog's `examples/ensure-name-substring/advanced` golden at
 * `ensure-name-substring/v0.1.0` deletes `fn-config.yaml`). v0.1.1 sets `IncludeLocalConfigs`.
 */
function isLocalConfigForKustomize(obj: KubeObject): boolean {
  return obj.getAnnotation(LOCAL_CONFIG) !== undefined;
}

export const ensureNameSubstringFn = defineMutator({
  name: 'ensure-name-substring',
  usage: 'Makes every resource name contain a substring (prefix or suffix) and fixes references to renamed resources.',
  run(ctx) {
    const cfg = parseEnsureNameSubstringConfig(ctx.functionConfig);
    if (typeof cfg === 'string') return finish(ctx, fail(cfg));
    if (!versionAtLeast(emulatedVersion(ctx, NEWEST), 'v0.1.1')) ctx.items.remove(isLocalConfigForKustomize);
    finish(ctx, ensureNameSubstring(ctx.items.all, cfg));
  },
});

export default defineBuiltin({
  name: 'ensure-name-substring',
  versions: VERSIONS,
  configKinds: ['ConfigMap', 'EnsureNameSubstring'],
  summary: 'Ensure resource names contain a substring (prefix or suffix), fixing name references',
  schema: {
    type: 'object',
    properties: {
      substring: { type: 'string' },
      editMode: {
        type: 'string',
        default: 'prepend',
        description: 'prepend or append; any other mode renames nothing',
      },
      additionalNameFields: { type: 'array', items: FIELD_SPEC_SCHEMA },
      fieldSpecs: { type: 'array', items: FIELD_SPEC_SCHEMA, description: 'Deprecated alias of additionalNameFields.' },
    },
  },
  fn: ensureNameSubstringFn,
});
