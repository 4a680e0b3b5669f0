/**
 * set-project-id (builtins/docs/set-project-id.md): puts a GCP project id into the apply-setters config of each
 * Kptfile (inline `configMap`, the `configPath` file, or a new apply-setters mutator) and the
 * `cnrm.cloud.google.com/project-id` annotation on Config Connector resources that lack it.
 * Upstream bug (reproduced): an annotation that is present but empty is left alone.
 */
import {
  defineBuiltin,
  defineMutator,
  type KubeObject,
  mapGet,
  mappingNode,
  replaceNode,
  sequenceNode,
  strNode,
} from '../sdk/index.ts';
import { finish } from './lib/catalog-fn.ts';
import { dataMap } from './lib/config.ts';
import { isKptfile } from './lib/gvk.ts';
import { fail, ok, type Report } from './lib/report.ts';

const PROJECT_ANNOTATION = 'cnrm.cloud.google.com/project-id';
const KCC_API = /^(\w+)\.cnrm\.cloud\.google\.com\/\w+$/;

function pathOf(o: KubeObject): string {
  return o.getAnnotation('internal.config.kubernetes.io/path') ?? o.getAnnotation('config.kubernetes.io/path') ?? '';
}

/** In a render, paths are relative to each item's own package (named by package-path). */
function samePackage(a: KubeObject, b: KubeObject): boolean {
  const key = 'internal.config.kubernetes.io/package-path';
  return (a.getAnnotation(key) ?? '') === (b.getAnnotation(key) ?? '');
}

function dirOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

function joinPath(dir: string, rel: string): string {
  const parts = (dir ? `${dir}/${rel}` : rel).split('/');
  const out: string[] = [];
  for (const p of parts) {
    if (p === '' || p === '.') continue;
    if (p === '..') out.pop();
    else out.push(p);
  }
  return out.join('/');
}

export function setProjectId(items: readonly KubeObject[], projectId: string): Report {
  const kptfiles = items.filter(isKptfile);
  if (kptfiles.length === 0)
    return fail('unable to find Kptfile, please include --include-meta-resources flag if a Kptfile is present');
  for (const kf of kptfiles) {
    const mutatorsPath = ['pipeline', 'mutators'];
    const mutators = kf.getNode(mutatorsPath);
    const idx =
      mutators?.kind === 'sequence'
        ? mutators.content.findIndex(
            (m) => m.kind === 'mapping' && (mapGet(m, 'image')?.value ?? '').includes('apply-setters'),
          )
        : -1;
    const entry = idx >= 0 ? mutators!.content[idx] : undefined;
    if (!entry) {
      const fresh = mappingNode([
        strNode('image'),
        strNode('gcr.io/kpt-fn/apply-setters:v0.2'),
        strNode('configMap'),
        mappingNode([strNode('project-id'), strNode(projectId)]),
      ]);
      if (mutators?.kind === 'sequence') kf.set([...mutatorsPath, mutators.content.length], fresh);
      else kf.set(mutatorsPath, sequenceNode([fresh]));
      continue;
    }
    const projectIdPath = [...mutatorsPath, idx, 'configMap', 'project-id'];
    const cm = mapGet(entry, 'configMap');
    const configPath = mapGet(entry, 'configPath')?.value;
    if (cm && cm.kind === 'mapping') {
      const cur = mapGet(cm, 'project-id');
      if (!cur) kf.set(projectIdPath, strNode(projectId));
      else if (cur.kind === 'scalar' && cur.value === '') replaceNode(kf, projectIdPath, strNode(projectId));
    } else if (configPath) {
      const want = joinPath(dirOf(pathOf(kf)), configPath);
      const file = items.find((o) => pathOf(o) === want && samePackage(o, kf));
      if (!file)
        return fail(
          `file ${configPath} doesn't exist, please ensure the file specified in "configPath" exists and retry`,
        );
      if (!file.getString(['data', 'project-id'])) file.set(['data', 'project-id'], projectId);
    } else {
      return fail('unable to find `ConfigMap` or `configPath` as the `functionConfig` for apply-setters');
    }
  }
  for (const o of items) {
    const m = KCC_API.exec(o.apiVersion);
    if (!m || m[1] === 'core') continue;
    if (o.getAnnotation(PROJECT_ANNOTATION) === undefined) o.setAnnotation(PROJECT_ANNOTATION, projectId);
  }
  return ok();
}

export const setProjectIdFn = defineMutator({
  name: 'set-project-id',
  usage: 'Sets the GCP project id in the apply-setters config of Kptfiles and on Config Connector resources.',
  run(ctx) {
    const id = dataMap(ctx.functionConfig).get('project-id') ?? '';
    finish(ctx, id === '' ? fail('`data.project-id` must be set in the ConfigMap') : setProjectId(ctx.items.all, id));
  },
});

export default defineBuiltin({
  name: 'set-project-id',
  versions: ['v0.1.0', 'v0.2.0'],
  configKinds: ['ConfigMap'],
  summary: 'Set the GCP project id in apply-setters configs and on Config Connector resources',
  schema: {
    type: 'object',
    properties: {
      data: { type: 'object', required: ['project-id'], properties: { 'project-id': { type: 'string' } } },
    },
  },
  fn: setProjectIdFn,
});
