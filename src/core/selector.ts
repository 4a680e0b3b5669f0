/**
 * kpt's resource selector (docs/kpt-semantics.md, "Selection and merge"), the one matcher the
 * engine (Kptfile `selectors`/`exclude`, `--match-*` flags) and the SDK (`fromKptSelector`) share:
 * every field given must equal the object's (labels and annotations: each listed pair present with
 * that value); an empty field, or an empty label/annotation map, places no constraint (the fields
 * of kptdev/kpt pkg/api/kptfile/v1/types.go `Selector` at v1.0.0-beta.56).
 */
import type { Selector } from './function.ts';
import type { KubeObject } from './kube-object.ts';

function hasPairs(want: Readonly<Record<string, string>> | undefined, have: Record<string, string>): boolean {
  if (!want) return true;
  for (const [k, v] of Object.entries(want)) if (have[k] !== v) return false;
  return true;
}

/** True when `s` constrains nothing (an empty exclusion excludes nothing). */
export function isEmptySelector(s: Selector): boolean {
  return (
    !s.apiVersion &&
    !s.kind &&
    !s.name &&
    !s.namespace &&
    (!s.labels || Object.keys(s.labels).length === 0) &&
    (!s.annotations || Object.keys(s.annotations).length === 0)
  );
}

/** True when `o` satisfies every field `s` gives. */
export function matchesSelector(o: KubeObject, s: Selector): boolean {
  if (s.apiVersion && o.apiVersion !== s.apiVersion) return false;
  if (s.kind && o.kind !== s.kind) return false;
  if (s.name && o.name !== s.name) return false;
  if (s.namespace && o.namespace !== s.namespace) return false;
  if (s.labels && !hasPairs(s.labels, o.labels())) return false;
  if (s.annotations && !hasPairs(s.annotations, o.annotations())) return false;
  return true;
}
