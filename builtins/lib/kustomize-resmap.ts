/**
 * What kustomize's resource map does to a function's items before a transformer sees them, in
 * the api versions that read items through the kunstruct factory (kubernetes-sigs/kustomize
 * api/k8sdeps/kunstruct/factory.go `SliceFromBytes`/`skipResource`, tags api/v0.7.1 and
 * api/v0.7.2): every item carrying the `config.kubernetes.io/local-config` annotation, whatever
 * its value, is left out of the map and so out of the function's output. kpt then removes those
 * resources from the package (upstream behaviour, reproduced; see the docs pages of set-labels,
 * set-annotations and set-namespace).
 */
import type { Resources } from '../../sdk/index.ts';

export const LOCAL_CONFIG_ANNOTATION = 'config.kubernetes.io/local-config';

/** Removes the items kustomize api v0.7 ignores; returns how many were removed. */
export function dropKustomizeIgnored(items: Resources): number {
  return items.remove((o) => o.getAnnotation(LOCAL_CONFIG_ANNOTATION) !== undefined);
}
