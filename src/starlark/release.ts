/**
 * Which google/starlark-go behaviour a thread follows. A KRM `starlark` image embeds the
 * go.starlark.net version its go.mod pins (builtins/docs/starlark.md, "What changes between tags");
 * `krmfn starlark` follows HEAD. Each change below is a user-visible difference between those
 * versions, keyed by the UTC date of the google/starlark-go commit that made it (the date a Go
 * pseudo-version `v0.0.0-YYYYMMDDhhmmss-hash` carries), checked against the repository's history.
 *
 * A release is the set of changes it has; HEAD has all of them.
 */

export const STARLARK_GO_CHANGES = {
  /** The `bytes` type and builtin; `hash` then accepts bytes (#330, starlark/library.go). */
  bytesType: '2021-02-12',
  /** `unexpected keyword argument "x" (did you mean y?)` from builtins (#393, starlark/unpack.go). */
  keywordSpellingHint: '2022-02-13',
  /** Floating point (literals, `float`, `/`) without `resolve.AllowFloat` (#313). */
  floatAlwaysOn: '2020-11-11',
  /** `lambda` and nested `def` without `resolve.AllowLambda` / `AllowNestedDef` (#328). */
  lambdaNestedDefAlwaysOn: '2021-01-21',
  /** `str.removeprefix` / `str.removesuffix` (#395, starlark/library.go). */
  stringRemoveAffix: '2022-02-23',
  /** `dict | dict` and `dict |= dict` (#397, starlark/eval.go Binary PIPE). */
  dictUnion: '2022-08-17',
  /** `got newline, want primary expression` at the newline's own line, not the next (#533, syntax/parse.go). */
  primaryErrorAtTokenStart: '2024-03-29',
  /** A reserved word (`class`, `del`, …) is named in parse errors, not `illegal token` (#591, syntax/scan.go). */
  reservedWordTokens: '2025-05-30',
  /** `json.decode(x, default)` (#466, lib/json/json.go). */
  jsonDecodeDefault: '2023-05-25',
  /** `set.add`, `clear`, `discard`, `pop`, `remove` (#497, starlark/library.go setMethods). */
  setMutators: '2023-08-29',
  /** `"…" % mapping` no longer fails on a mapping no conversion used (#520, starlark/eval.go). */
  interpolateMappingUnused: '2023-11-21',
  /** `set.difference`, `intersection`, `issubset`, `issuperset`, `symmetric_difference` (#506). */
  setAlgebra: '2023-09-12',
  /** `json.encode` writes floats as `str` does (`1.0`), not Go's `%g` (`1`, `1e+06`) (#564). */
  jsonFloatDecimalPoint: '2024-11-19',
  /** `set.update` (#573). */
  setUpdate: '2025-01-28',
  /** `break`/`continue` in a function defined inside a loop is an error (#599, resolve/resolve.go). */
  loopsEndAtFunctions: '2025-07-17',
  /** `json.encode_indent` (#615). */
  jsonEncodeIndent: '2025-10-29',
} as const;

export type StarlarkGoChange = keyof typeof STARLARK_GO_CHANGES;

/** The changes a release has. */
export interface StarlarkGoRelease {
  has(change: StarlarkGoChange): boolean;
}

const ALL = Object.keys(STARLARK_GO_CHANGES) as StarlarkGoChange[];

function releaseOf(changes: ReadonlySet<StarlarkGoChange>): StarlarkGoRelease {
  return Object.freeze({ has: (c: StarlarkGoChange) => changes.has(c) });
}

/** google/starlark-go at HEAD: every change. */
export const STARLARK_GO_HEAD: StarlarkGoRelease = releaseOf(new Set(ALL));

/**
 * The release a go.mod pin denotes: a pseudo-version (`v0.0.0-20250417143717-f57e51f710eb`) or a
 * date (`2025-04-17`). Returns undefined for anything else.
 */
export function starlarkGoRelease(pin: string): StarlarkGoRelease | undefined {
  const pseudo = /^v0\.0\.0-(\d{4})(\d{2})(\d{2})\d{6}-[0-9a-f]{12}$/.exec(pin);
  const date = pseudo ? `${pseudo[1]}-${pseudo[2]}-${pseudo[3]}` : /^\d{4}-\d{2}-\d{2}$/.test(pin) ? pin : undefined;
  if (date === undefined) return undefined;
  return releaseOf(new Set(ALL.filter((c) => STARLARK_GO_CHANGES[c] <= date)));
}
