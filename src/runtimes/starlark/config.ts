/**
 * The `starlark` function's functionConfig, per released tag (see ./versions.ts): a `StarlarkRun`
 * (fn.kpt.dev/v1alpha1) with `source` (and optional `params`), or a ConfigMap (v1) whose
 * `data.source` is the script. Errors carry each tag's exact texts:
 * - v0.1.x `config.go` `Validate` (StarlarkRun only, `metadata.name` required);
 * - v0.2.0–v0.3.0 `config.go` `UnmarshalYAML`/`Validate` (an empty `data.source` in a ConfigMap passes);
 * - v0.4.0+ `starlark/config.go` `Config` (v0.4.3 adds the missing-config message; v0.5.1 matches
 *   by group and kind).
 */
import type { KubeObject } from '../../core/kube-object.ts';
import { mapGet, type YNode } from '../../core/yaml/node.ts';
import { starlarkProfile, NEWEST_STARLARK_VERSION, type StarlarkProfile } from './versions.ts';

export const DEFAULT_SCRIPT_NAME = 'starlark-function-run';

export type ScriptConfig = { ok: true; name: string; source: string } | { ok: false; message: string };

const STARLARK_RUN_API_VERSION = 'fn.kpt.dev/v1alpha1';

function scalarText(n: YNode | undefined): string | undefined {
  return n && n.kind === 'scalar' && n.tag !== '!!null' ? n.value : undefined;
}

function dataSource(root: YNode): string | undefined {
  const data = mapGet(root, 'data');
  return data && data.kind === 'mapping' ? scalarText(mapGet(data, 'source')) : undefined;
}

/** apimachinery `schema.FromAPIVersionAndKind(...).String()`: `group/version, Kind=kind`. */
function gvkString(apiVersion: string, kind: string): string {
  const slash = apiVersion.lastIndexOf('/');
  return `${slash < 0 ? `/${apiVersion}` : apiVersion}, Kind=${kind}`;
}

function wrongKind(fc: KubeObject | undefined): ScriptConfig {
  return {
    ok: false,
    message: `\`functionConfig\` must be either /v1, Kind=ConfigMap or fn.kpt.dev/v1alpha1, Kind=StarlarkRun, but we got: ${gvkString(fc?.apiVersion ?? '', fc?.kind ?? '')}`,
  };
}

export function readScriptConfig(
  fc: KubeObject | undefined,
  profile: StarlarkProfile = starlarkProfile(NEWEST_STARLARK_VERSION),
): ScriptConfig {
  switch (profile.config) {
    case 'starlarkrun-only':
      return readV01(fc);
    case 'framework':
      return readFramework(fc, profile);
    default:
      return readSdk(fc, profile);
  }
}

function readV01(fc: KubeObject | undefined): ScriptConfig {
  if (fc?.apiVersion !== STARLARK_RUN_API_VERSION)
    return { ok: false, message: '`apiVersion` must be: fn.kpt.dev/v1alpha1' };
  if (fc.kind !== 'StarlarkRun') return { ok: false, message: '`kind` must be: StarlarkRun' };
  if (fc.name === '') return { ok: false, message: '`metadata.name` must be set in starlark function config' };
  const source = scalarText(mapGet(fc.root, 'source')) ?? '';
  if (source === '') return { ok: false, message: '`source` must not be empty' };
  return { ok: true, name: fc.name, source };
}

function readFramework(fc: KubeObject | undefined, profile: StarlarkProfile): ScriptConfig {
  if (fc?.apiVersion === 'v1' && fc.kind === 'ConfigMap') {
    const source = dataSource(fc.root);
    if (source === undefined) return { ok: false, message: '`data.source` must not be empty in `ConfigMap`' };
    return { ok: true, name: fc.name || profile.defaultName, source };
  }
  if (fc?.apiVersion === STARLARK_RUN_API_VERSION && fc.kind === 'StarlarkRun') {
    const source = scalarText(mapGet(fc.root, 'source')) ?? '';
    if (source === '') return { ok: false, message: '`source` in `StarlarkRun` must not be empty' };
    return { ok: true, name: fc.name || profile.defaultName, source };
  }
  return wrongKind(fc);
}

function readSdk(fc: KubeObject | undefined, profile: StarlarkProfile): ScriptConfig {
  const empty = !fc || (fc.root.kind === 'mapping' && fc.root.content.length === 0);
  if (empty && profile.missingConfigMessage)
    return { ok: false, message: 'FunctionConfig is missing. Expect `ConfigMap` or `StarlarkRun`' };
  const byGroupKind = profile.config === 'sdk-group-kind';
  const isConfigMap =
    fc !== undefined && fc.kind === 'ConfigMap' && (byGroupKind ? fc.group === '' : fc.apiVersion === 'v1');
  const isRun =
    fc !== undefined &&
    fc.kind === 'StarlarkRun' &&
    (byGroupKind ? fc.group === 'fn.kpt.dev' : fc.apiVersion === STARLARK_RUN_API_VERSION);
  let source: string | undefined;
  if (isConfigMap) source = dataSource(fc.root);
  else if (isRun) source = scalarText(mapGet(fc.root, 'source'));
  else return wrongKind(fc);
  if (!source) return { ok: false, message: '`source` must not be empty' };
  return { ok: true, name: fc.name || profile.defaultName, source };
}
