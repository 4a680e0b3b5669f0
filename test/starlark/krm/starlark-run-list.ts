// A ResourceList for the starlark runtime's tests: one ConfigMap item (its `extra` fields merged
// in) and a StarlarkRun functionConfig holding `source`.
import { KubeObject } from '../../../src/core/kube-object.ts';
import type { ResourceList } from '../../../src/core/function.ts';

export function starlarkRunList(source: string, extra: Record<string, unknown> = {}): ResourceList {
  return {
    items: [KubeObject.fromJS({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, ...extra })],
    functionConfig: KubeObject.fromJS({
      apiVersion: 'fn.kpt.dev/v1alpha1',
      kind: 'StarlarkRun',
      metadata: { name: 'script' },
      source,
    }),
    results: [],
  };
}
