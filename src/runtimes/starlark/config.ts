/**
 * The `starlark` function's functionConfig (starlark.md §13): a `StarlarkRun`
 * (fn.kpt.dev/v1alpha1) with `source` (and optional `params`), or a ConfigMap (v1) whose
 * `data.source` is the script. Errors carry kpt's exact texts.
 */
import type { KubeObject } from '../../core/kube-object.ts';
import { mapGet } from '../../core/yaml/node.ts';

export const DEFAULT_SCRIPT_NAME = 'starlark-function-run';

export type ScriptConfig = { ok: true; name: string; source: string } | { ok: false; message: string };

export function readScriptConfig(fc: KubeObject | undefined): ScriptConfig {
  if (!fc) return { ok: false, message: 'FunctionConfig is missing. Expect `ConfigMap` or `StarlarkRun`' };
  const apiVersion = fc.apiVersion;
  const kind = fc.kind;
  const root = fc.root;
  let sourceNode;
  if (apiVersion === 'v1' && kind === 'ConfigMap') {
    const data = mapGet(root, 'data');
    sourceNode = data && data.kind === 'mapping' ? mapGet(data, 'source') : undefined;
  } else if (apiVersion === 'fn.kpt.dev/v1alpha1' && kind === 'StarlarkRun') {
    sourceNode = mapGet(root, 'source');
  } else {
    const slash = apiVersion.lastIndexOf('/');
    const gv = slash < 0 ? `/${apiVersion}` : apiVersion;
    return {
      ok: false,
      message: `\`functionConfig\` must be either /v1, Kind=ConfigMap or fn.kpt.dev/v1alpha1, Kind=StarlarkRun, but we got: ${gv}, Kind=${kind}`,
    };
  }
  const source = sourceNode && sourceNode.kind === 'scalar' && sourceNode.tag !== '!!null' ? sourceNode.value : '';
  if (source === '') return { ok: false, message: '`source` must not be empty' };
  return { ok: true, name: fc.name || DEFAULT_SCRIPT_NAME, source };
}
