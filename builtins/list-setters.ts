/**
 * list-setters (builtins/docs/list-setters.md): a viewer. Reads the setters of the Kptfile's apply-setters
 * mutator (inline `configMap` or the `configPath` file among the items) and reports each one with
 * its type and how many `# kpt-set:` markers use it. Never changes items.
 */
import { defineBuiltin, defineValidator, type KubeObject, mapGet, resolvePlainTag, type Result } from '../sdk/index.ts';
import { finish } from './lib/catalog-fn.ts';
import { dataMap } from './lib/config.ts';
import { isKptfile } from './lib/gvk.ts';
import { ok, type Report } from './lib/report.ts';
import { fieldMarker, setterName, setterRefs } from './lib/setters.ts';
import { parseScalarList } from './lib/simple-list.ts';
import { walk } from './lib/walk.ts';

function pathOf(o: KubeObject): string {
  return o.getAnnotation('internal.config.kubernetes.io/path') ?? o.getAnnotation('config.kubernetes.io/path') ?? '';
}

/** In a render, paths are relative to each item's own package (named by package-path). */
function samePackage(a: KubeObject, b: KubeObject): boolean {
  const key = 'internal.config.kubernetes.io/package-path';
  return (a.getAnnotation(key) ?? '') === (b.getAnnotation(key) ?? '');
}

const warn = (message: string): Report => ok([{ message, severity: 'warning' }]);

/** The setters the root Kptfile's apply-setters mutator configures, or a warning report. */
export function findSetters(items: readonly KubeObject[]): Map<string, string> | Report {
  const kptfiles = items.filter(isKptfile);
  const pkg = (k: KubeObject): string => k.getAnnotation('internal.config.kubernetes.io/package-path') ?? '';
  // The root package's Kptfile: the one with the shortest package path (render), or at `Kptfile` (eval).
  const kf = [...kptfiles].sort(
    (a, b) => pkg(a).length - pkg(b).length || Number(pathOf(b) === 'Kptfile') - Number(pathOf(a) === 'Kptfile'),
  )[0];
  if (!kf) return warn('unable to find Kptfile, please include --include-meta-resources flag if a Kptfile is present');
  const mutators = kf.getNode(['pipeline', 'mutators']);
  if (!kf.getNode(['pipeline'])) return warn('unable to find Pipeline declaration in Kptfile');
  const entry =
    mutators?.kind === 'sequence'
      ? mutators.content.find(
          (m) => m.kind === 'mapping' && (mapGet(m, 'image')?.value ?? '').includes('apply-setters'),
        )
      : undefined;
  if (!entry) return warn('unable to find apply-setters fn in Kptfile Pipeline.Mutators');
  const cm = mapGet(entry, 'configMap');
  const out = new Map<string, string>();
  if (cm && cm.kind === 'mapping') {
    for (let i = 0; i + 1 < cm.content.length; i += 2) out.set(cm.content[i].value, cm.content[i + 1].value);
    return out;
  }
  const configPath = mapGet(entry, 'configPath')?.value;
  if (configPath) {
    const dir = pathOf(kf).includes('/') ? pathOf(kf).slice(0, pathOf(kf).lastIndexOf('/') + 1) : '';
    const want = (dir + configPath).replace(/^\.\//, '');
    const file = items.find((o) => pathOf(o) === want && samePackage(o, kf));
    if (!file)
      return warn(
        `file ${configPath} doesn't exist, please ensure the file specified in "configPath" exists and retry`,
      );
    return new Map(dataMap(file));
  }
  return out;
}

export function setterType(value: string): 'str' | 'int' | 'bool' | 'array' {
  if (value.trim().startsWith('[') || /^\s*-(\s|$)/.test(value)) if (parseScalarList(value)) return 'array';
  const tag = resolvePlainTag(value);
  return tag === '!!int' ? 'int' : tag === '!!bool' ? 'bool' : 'str';
}

export function listSetters(items: readonly KubeObject[]): Report {
  const setters = findSetters(items);
  if (!(setters instanceof Map)) return setters;
  if (setters.size === 0) return warn('no setters found');
  const counts = new Map<string, number>();
  for (const obj of items) {
    walk(obj.root, ({ node, key }) => {
      const pattern = fieldMarker(node, key);
      if (pattern === undefined) return;
      for (const ref of new Set(setterRefs(pattern)))
        counts.set(setterName(ref), (counts.get(setterName(ref)) ?? 0) + 1);
    });
  }
  const results: Result[] = [...setters.keys()].sort().map((name) => {
    const value = setters.get(name)!;
    return {
      message: `Name: ${name}, Value: ${value}, Type: ${setterType(value)}, Count: ${counts.get(name) ?? 0}`,
      severity: 'info',
    };
  });
  return ok(results);
}

export const listSettersFn = defineValidator({
  name: 'list-setters',
  usage: 'Lists the setters of the package (from the Kptfile apply-setters config) with their types and usage counts.',
  run(ctx) {
    finish(ctx, listSetters(ctx.items.all));
  },
});

export default defineBuiltin({
  name: 'list-setters',
  versions: ['v0.1.0'],
  configKinds: [],
  summary: 'List the package setters with their values, types and usage counts',
  fn: listSettersFn,
});
