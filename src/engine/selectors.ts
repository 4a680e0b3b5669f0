/**
 * Selection and merge (docs/kpt-semantics.md, "Selection and merge"): an item is selected when it matches any selector (all
 * items when there are none) — once per matching selector, kpt's duplicate quirk — and dropped when
 * it matches any non-empty exclusion. After the call, `mergeSelected` folds the output back by
 * `internal.config.k8s.io/kpt-resource-id`.
 */
import type { Selector } from '../core/function.ts';
import { ANNOTATIONS, type KubeObject } from '../core/kube-object.ts';
import { annotation, removeAnnotations } from './annotations.ts';

function isEmpty(s: Selector): boolean {
  return (
    !s.apiVersion &&
    !s.kind &&
    !s.name &&
    !s.namespace &&
    (!s.labels || Object.keys(s.labels).length === 0) &&
    (!s.annotations || Object.keys(s.annotations).length === 0)
  );
}

function subset(want: Record<string, string> | undefined, have: Record<string, string>): boolean {
  if (!want) return true;
  for (const [k, v] of Object.entries(want)) if (have[k] !== v) return false;
  return true;
}

export function matches(o: KubeObject, s: Selector): boolean {
  if (s.apiVersion && o.apiVersion !== s.apiVersion) return false;
  if (s.kind && o.kind !== s.kind) return false;
  if (s.name && o.name !== s.name) return false;
  if (s.namespace && o.namespace !== s.namespace) return false;
  if (s.labels && Object.keys(s.labels).length && !subset(s.labels, o.labels())) return false;
  if (s.annotations && Object.keys(s.annotations).length && !subset(s.annotations, o.annotations())) return false;
  return true;
}

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
    for (const o of items) for (const s of selectors) if (matches(o, s)) picked.push(o);
  }
  const excl = exclude.filter((e) => !isEmpty(e));
  if (!excl.length) return picked;
  return picked.filter((o) => !excl.some((e) => matches(o, e)));
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
