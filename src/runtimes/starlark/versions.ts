/**
 * The released tags of the catalog's `starlark` function and what changes between them, read
 * from `functions/go/starlark` at tags `starlark/vX.Y.Z` of GoogleContainerTools/kpt-functions-catalog
 * (v0.1.0–v0.5.0) and kptdev/krm-functions-catalog (all of those plus v0.5.1).
 *
 * Generations (the code that turns an error into output):
 * - v0.1.x: `main.go` on kyaml's `fn/framework` + kyaml's own `fn/runtime/starlark` Filter
 *   (kyaml v0.10.13–v0.10.21, starlark-go 2020-03-06); `StarlarkRun` only, `metadata.name` required,
 *   items of kind `StarlarkRun` dropped; no `load`; no resolve flags.
 * - v0.2.0–v0.3.0: kyaml `fn/framework` + the vendored `third_party/.../starlark` SimpleFilter
 *   (starlark-go 2021-04-06, then 2021-09-01 in v0.3.0); `ConfigMap` or `StarlarkRun`; errors print
 *   `[error] : <message>` (kyaml `framework.Result.Error`). v0.3.0 adds `loadlib.go` (starlib v0.5.0)
 *   and the resolve flags AllowSet, AllowGlobalReassign, AllowRecursion.
 * - v0.4.0+: kpt-functions-sdk `fn.AsMain`: one error result, stderr
 *   `failed to evaluate function: error: function failure`. v0.4.1 adds `krmfn.star`; v0.4.3 adds
 *   the "FunctionConfig is missing" check; v0.5.0 embeds starlark-go 2023-03-01; v0.5.1 embeds
 *   starlark-go 2025-04-17, matches the functionConfig by group and kind (any version) and fixes
 *   the default script name (`stalark-function-run` before).
 */
import type { OpenApiSchemaId } from './open-api.ts';

/**
 * Every released version, both catalog repositories (verified against their `starlark/v*` tags).
 * One small data constant: meant to be folded into the shared catalog version table.
 */
export const STARLARK_RELEASED_VERSIONS: readonly string[] = Object.freeze([
  'v0.1.0',
  'v0.1.1',
  'v0.1.2',
  'v0.2.0',
  'v0.2.1',
  'v0.2.2',
  'v0.3.0',
  'v0.4.0',
  'v0.4.1',
  'v0.4.2',
  'v0.4.3',
  'v0.5.0',
  'v0.5.1',
]);

export const NEWEST_STARLARK_VERSION = 'v0.5.1';

export type StarlarkGeneration = 'kyaml-filter' | 'framework' | 'sdk';

/** How functionConfig is read and which texts its errors carry. */
export type ConfigRules =
  /** v0.1.x `config.go`: StarlarkRun only, name required. */
  | 'starlarkrun-only'
  /** v0.2.0–v0.3.0 `config.go` (kyaml framework Default/Validate). */
  | 'framework'
  /** v0.4.0–v0.5.0 `starlark/config.go`: exact apiVersion and kind. */
  | 'sdk-gvk'
  /** v0.5.1 `starlark/config.go`: group and kind. */
  | 'sdk-group-kind';

export interface StarlarkProfile {
  version: string;
  generation: StarlarkGeneration;
  config: ConfigRules;
  /** v0.4.3+: a missing functionConfig has its own message. */
  missingConfigMessage: boolean;
  /** Name of the script when the config has none (`defaultProgramName`). */
  defaultName: string;
  /** v0.3.0+: resolve.AllowSet, AllowGlobalReassign, AllowRecursion. */
  kptDialect: boolean;
  /** Which `load()` table the thread has. */
  modules: 'none' | 'starlib' | 'starlib+krmfn';
  /** The go.starlark.net version `go.mod` pins; the interpreter follows it (src/starlark/release.ts). */
  starlarkGo: string;
  /** The schema `ctx.open_api` holds (the Kubernetes swagger of the kyaml version `go.mod` pins, ./open-api.ts). */
  openApi: OpenApiSchemaId;
  /**
   * v0.4.1+: `ctx.open_api` is kyaml's `LazyInitializationOpenapi`, a mapping converted on first
   * use whose `type()` is `dict` but which has no length, iteration or dict methods; before, a dict.
   */
  openApiMapping: boolean;
}

function at(version: string, min: string): boolean {
  const p = (v: string): number[] => v.slice(1).split('.').map(Number);
  const a = p(version),
    b = p(min);
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] > b[i];
  return true;
}

/** The behaviour profile of a released version (`vX.Y.Z` from STARLARK_RELEASED_VERSIONS). */
export function starlarkProfile(version: string): StarlarkProfile {
  const generation: StarlarkGeneration = at(version, 'v0.4.0')
    ? 'sdk'
    : at(version, 'v0.2.0')
      ? 'framework'
      : 'kyaml-filter';
  return {
    version,
    generation,
    config:
      generation === 'kyaml-filter'
        ? 'starlarkrun-only'
        : generation === 'framework'
          ? 'framework'
          : at(version, 'v0.5.1')
            ? 'sdk-group-kind'
            : 'sdk-gvk',
    missingConfigMessage: at(version, 'v0.4.3'),
    defaultName: at(version, 'v0.5.1') ? 'starlark-function-run' : 'stalark-function-run',
    kptDialect: at(version, 'v0.3.0'),
    modules: at(version, 'v0.4.1') ? 'starlib+krmfn' : at(version, 'v0.3.0') ? 'starlib' : 'none',
    starlarkGo: at(version, 'v0.5.1')
      ? 'v0.0.0-20250417143717-f57e51f710eb'
      : at(version, 'v0.5.0')
        ? 'v0.0.0-20230302034142-4b1e35fe2254'
        : at(version, 'v0.3.0')
          ? 'v0.0.0-20210901212718-87f333178d59'
          : at(version, 'v0.2.0')
            ? 'v0.0.0-20210406145628-7a1108eaa012'
            : 'v0.0.0-20200306205701-8dd3e2ee1dd5',
    openApi: at(version, 'v0.3.0')
      ? 'kubernetes-v1.21.2'
      : at(version, 'v0.1.1')
        ? 'kubernetes-v1.20.4'
        : 'kubernetes-v1.19.1',
    openApiMapping: at(version, 'v0.4.1'),
  };
}
