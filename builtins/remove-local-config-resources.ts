/**
 * remove-local-config-resources (builtins/docs/remove-local-config-resources.md): drops items whose
 * `config.kubernetes.io/local-config` annotation is `true` (case-insensitive; stricter than the
 * SDKs' IsLocalConfig) and empty items.
 */
import { defineBuiltin, defineMutator, type KubeObject, type Result } from '../sdk/index.ts';
import { finish } from './lib/catalog-fn.ts';
import { fileRefOf } from './lib/gvk.ts';
import { ok, type Report } from './lib/report.ts';

export function isEmptyItem(obj: KubeObject): boolean {
  const r = obj.doc.content[0];
  return !r || (r.kind === 'mapping' && r.content.length === 0) || (r.kind === 'scalar' && r.tag === '!!null');
}

export function isPrunable(obj: KubeObject): boolean {
  return (obj.getAnnotation('config.kubernetes.io/local-config') ?? '').toLowerCase() === 'true';
}

/** The removed items' results; `remove` takes the items out of the list. Empty items go silently. */
export function removeLocalConfig(items: readonly KubeObject[], remove: (o: KubeObject) => void): Report {
  for (const o of items.filter(isEmptyItem)) remove(o);
  const pruned = items.filter((o) => !isEmptyItem(o) && isPrunable(o));
  if (pruned.length === 0)
    return ok([{ message: 'Found no resources to prune with the local config annotation', severity: 'warning' }]);
  const results: Result[] = [{ message: `Number of resources pruned: ${pruned.length}`, severity: 'info' }];
  for (const o of pruned) {
    const r: Result = { message: `Resource name: [${o.name}]`, severity: 'info' };
    const file = fileRefOf(o);
    if (file) r.file = { path: file.path };
    results.push(r);
    remove(o);
  }
  return ok(results);
}

export const removeLocalConfigResourcesFn = defineMutator({
  name: 'remove-local-config-resources',
  usage: 'Removes resources annotated `config.kubernetes.io/local-config: "true"`.',
  run(ctx) {
    finish(
      ctx,
      removeLocalConfig(ctx.items.all, (o) => ctx.items.remove(o)),
    );
  },
});

export default defineBuiltin({
  name: 'remove-local-config-resources',
  versions: ['v0.1.0'],
  configKinds: [],
  summary: 'Remove resources marked config.kubernetes.io/local-config: "true"',
  fn: removeLocalConfigResourcesFn,
});
