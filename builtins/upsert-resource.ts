/**
 * upsert-resource (builtins/docs/upsert-resource.md): the functionConfig is the resource to upsert (or a `List`
 * of them). Matching items (same group, kind, name and literal namespace; version ignored) are
 * replaced in place by a copy keeping their file annotations; otherwise the resource is appended.
 */
import {
  cloneNode,
  defineBuiltin,
  defineMutator,
  documentNode,
  isEmptyConfig,
  KubeObject,
  type Resources,
} from '../sdk/index.ts';
import { finish } from './lib/catalog-fn.ts';
import { groupOf } from './lib/gvk.ts';
import { ok, type Report } from './lib/report.ts';

const FUNCTION_ANNOTATIONS = ['config.kubernetes.io/function', 'config.k8s.io/function'];
const TARGET_PATH = 'config.kubernetes.io/target-path';
const FILE_ANNOTATIONS = [
  'config.kubernetes.io/path',
  'config.kubernetes.io/index',
  'internal.config.kubernetes.io/path',
  'internal.config.kubernetes.io/index',
];

/** The resources to upsert: the config itself, or the items of a `List` (copies). */
export function upsertInputs(fc: KubeObject | undefined): KubeObject[] {
  // kpt eval's placeholder (`function-input` with no data) is not a resource to upsert.
  if (!fc || fc.kind === '' || isEmptyConfig(fc)) return [];
  if (fc.kind === 'List') {
    const n = fc.getNode(['items']);
    if (!n || n.kind !== 'sequence') return [];
    return n.content.map((c) => new KubeObject(documentNode(cloneNode(c))));
  }
  return [fc.clone()];
}

function pathOf(o: KubeObject): string | undefined {
  return o.getAnnotation('internal.config.kubernetes.io/path') ?? o.getAnnotation('config.kubernetes.io/path');
}

/**
 * Upserts each input into `list`: a match is replaced in its position by a copy of the input that
 * keeps only the match's file annotations (the container emits a new resource there); no match
 * appends it.
 */
export function upsertResources(list: Resources, inputs: readonly KubeObject[]): Report {
  const items = list.all;
  for (const input of inputs) {
    const targetPath = input.getAnnotation(TARGET_PATH);
    const matches = items.filter(
      (o) =>
        groupOf(o) === groupOf(input) &&
        o.kind === input.kind &&
        o.name === input.name &&
        o.namespace === input.namespace &&
        !FUNCTION_ANNOTATIONS.some((a) => o.getAnnotation(a) !== undefined) &&
        (targetPath === undefined || pathOf(o) === targetPath),
    );
    for (const a of [...FUNCTION_ANNOTATIONS, TARGET_PATH]) input.removeAnnotation(a);
    pruneEmptyAnnotations(input);
    if (matches.length === 0) {
      const fresh = input.clone();
      for (const a of FILE_ANNOTATIONS) fresh.removeAnnotation(a);
      if (targetPath !== undefined) fresh.setAnnotation('config.kubernetes.io/path', targetPath);
      pruneEmptyAnnotations(fresh);
      list.add(fresh);
      continue;
    }
    for (const m of matches) {
      const keep = FILE_ANNOTATIONS.map((a) => [a, m.getAnnotation(a)] as const);
      const copy = input.clone();
      for (const [a, v] of keep) if (v !== undefined) copy.setAnnotation(a, v);
      list.replace(m, copy);
    }
  }
  return ok();
}

function pruneEmptyAnnotations(o: KubeObject): void {
  const n = o.getNode(['metadata', 'annotations']);
  if (n && n.kind === 'mapping' && n.content.length === 0) o.delete(['metadata', 'annotations']);
}

export const upsertResourceFn = defineMutator({
  name: 'upsert-resource',
  usage: 'Inserts the functionConfig resource (or each item of a List), replacing resources with the same identity.',
  run(ctx) {
    finish(ctx, upsertResources(ctx.items, upsertInputs(ctx.functionConfig)));
  },
});

export default defineBuiltin({
  name: 'upsert-resource',
  versions: ['v0.1.0', 'v0.2.0'],
  configKinds: ['*'],
  summary: 'Insert or replace a resource given as the functionConfig',
  fn: upsertResourceFn,
});
