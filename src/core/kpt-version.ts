/**
 * The kpt releases krmfn imitates ("compatibility levels"). A level is chosen once per run
 * (`--kpt-version`, `KRMFN_KPT_VERSION`, or the engine's `kptVersion` option) and selects data and
 * small strategy objects (src/engine/kpt-level.ts); nothing else in the code compares versions.
 *
 * Contract: `parseKptVersion` accepts exactly the listed levels, with or without a leading `v`,
 * and otherwise throws a message naming every level.
 */
export const KPT_VERSIONS = ['1.0.0-beta.56', '1.0.0-beta.67'] as const;

export type KptVersion = (typeof KPT_VERSIONS)[number];

/** The level used when none is chosen. */
export const DEFAULT_KPT_VERSION: KptVersion = '1.0.0-beta.67';

export function isKptVersion(s: string): s is KptVersion {
  return (KPT_VERSIONS as readonly string[]).includes(s);
}

export function parseKptVersion(value: string): KptVersion {
  const v = value.trim().replace(/^v/, '');
  if (isKptVersion(v)) return v;
  throw new Error(
    `unknown kpt version ${JSON.stringify(value)}: krmfn implements ${KPT_VERSIONS.join(', ')} (default ${DEFAULT_KPT_VERSION})`,
  );
}
