/**
 * Selection and merge (docs/kpt-semantics.md, "Selection and merge"): an item is selected when it matches any selector (all
 * items when there are none) — once per matching selector, kpt's duplicate quirk — and dropped when
 * it matches any non-empty exclusion. After the call, `mergeSelected` folds the output back by
 * `internal.config.k8s.io/kpt-resource-id`. Matching is the shared matcher (src/core/selector.ts).
 */
import type { Selector } from '../core/function.ts';
import { ANNOTATIONS, type KubeObject } from '../core/kube-object.ts';
import { isEmptySelector, matchesSelector } from '../core/selector.ts';
import { annotation, removeAnnotations } from './annotations.ts';

export function hasSelection(
  selectors: readonly Selector[] | undefined,
  exclude: readonly Selector[] | undefined,
): boolean {
  return (selectors?.length ?? 0) > 0 || (exclude?.length ?? 0) > 0;
}

/** The selected items, in input order (an item matching two selectors appears twice). */
export function select(
  items: readonly KubeObject[],
  selectors: readonly Selector[] = [],
  exclude: readonly Selector[] = [],
): KubeObject[] {
  let picked: KubeObject[];
  if (selectors.length === 0) picked = [...items];
  else {
    picked = [];
    for (const o of items) for (const s of selectors) if (matchesSelector(o, s)) picked.push(o);
  }
  const excl = exclude.filter((e) => !isEmptySelector(e));
  if (!excl.length) return picked;
  return picked.filter((o) => !excl.some((e) => matchesSelector(o, e)));
}

export function stampResourceIds(items: readonly KubeObject[]): void {
  items.forEach((o, i) => {
    if (o.root.kind === 'mapping') o.setAnnotation(ANNOTATIONS.kptResourceId, String(i));
  });
}

/** Merge after a selected call; removes every kpt-resource-id annotation. */
export function mergeSelected(
  input: readonly KubeObject[],
  selected: readonly KubeObject[],
  output: readonly KubeObject[],
): KubeObject[] {
  const selectedIds = new Set(selected.map((o) => annotation(o, ANNOTATIONS.kptResourceId)));
  const byId = new Map<string, KubeObject>();
  const fresh: KubeObject[] = [];
  for (const o of output) {
    const id = annotation(o, ANNOTATIONS.kptResourceId);
    if (id === undefined) fresh.push(o);
    else if (!byId.has(id)) byId.set(id, o);
  }
  const merged: KubeObject[] = [];
  for (const o of input) {
    const id = annotation(o, ANNOTATIONS.kptResourceId);
    if (id === undefined || !selectedIds.has(id)) merged.push(o);
    else {
      const replacement = byId.get(id);
      if (replacement) merged.push(replacement);
    }
  }
  merged.push(...fresh);
  for (const o of merged) removeAnnotations(o, [ANNOTATIONS.kptResourceId]);
  for (const o of input) removeAnnotations(o, [ANNOTATIONS.kptResourceId]);
  return merged;
}
