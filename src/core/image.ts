/**
 * Image references and catalog lookup.
 *
 * - `parseImageRef` splits `registry/path/name:tag@sha256:...` (no normalisation).
 * - `resolveImageName` does what the targeted kpt does to a Kptfile image: beta.56 prefixes
 *   `gcr.io/kpt-fn/` to a name without `/` (kptdev/kpt `internal/fnruntime/container.go`,
 *   `AddDefaultImagePathPrefix`, at v1.0.0-beta.56); HEAD prefixes
 *   `ghcr.io/kptdev/krm-functions-catalog/` (or a custom prefix, kptdev/kpt
 *   `pkg/lib/runneroptions/runneroptions.go`) and appends `:latest` when there is neither tag nor digest.
 * - `catalogName` strips a known catalog registry prefix, giving the function name, or undefined
 *   for images outside the catalog registries.
 * - `compareVersions` is the project's one version order; `resolveCatalogVersion` keys a tag on a
 *   list of versions (`vX.Y.Z` exact, `vX.Y` and `vX` the highest patch of that line,
 *   `latest`/`unstable`/no tag the newest, a digest through a digest table); anything else is
 *   undefined ("not a built-in"). It never substitutes a different version than the tag names.
 * - The released versions themselves are data: src/core/catalog-versions.ts.
 */
import type { ImageRef } from './function.ts';

/** The catalog image a built-in was resolved from; behaviour may follow `version`. */
export interface ImageInfo {
  /** Catalog function name, e.g. `set-namespace`. */
  name: string;
  /** The tag as written ('' when none or when given by digest). */
  tag: string;
  /** The concrete version the reference resolved to, e.g. `v0.4.1`. */
  version: string;
  /** The digest pinned in the reference (`sha256:<hex>`), when there is one. */
  digest?: string;
  /** With `digest`: whether krmfn knows that digest as this version's image (false: recorded, not verified). */
  digestVerified?: boolean;
}

export function parseImageRef(full: string): ImageRef {
  let rest = full.trim();
  let digest = '';
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
  }
  let tag = '';
  const slash = rest.lastIndexOf('/');
  const colon = rest.lastIndexOf(':');
  if (colon > slash) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
  }
  const i = rest.lastIndexOf('/');
  return { full, repository: i < 0 ? '' : rest.slice(0, i), name: i < 0 ? rest : rest.slice(i + 1), tag, digest };
}

export const BETA56_IMAGE_PREFIX = 'gcr.io/kpt-fn/';
export const HEAD_IMAGE_PREFIX = 'ghcr.io/kptdev/krm-functions-catalog/';

export interface ResolveImageOptions {
  /** Which kpt to imitate (default 'beta56'). */
  kpt?: 'beta56' | 'head';
  /** HEAD only: `--image-prefix` / `KPT_IMAGE_PREFIX`. */
  prefix?: string;
}

export function resolveImageName(image: string, opts: ResolveImageOptions = {}): string {
  if ((opts.kpt ?? 'beta56') === 'beta56') return image.includes('/') ? image : BETA56_IMAGE_PREFIX + image;
  let out = image;
  if (!image.includes('/')) {
    let prefix = opts.prefix ?? HEAD_IMAGE_PREFIX;
    if (!prefix.endsWith('/')) prefix += '/';
    out = prefix + image;
  }
  const ref = parseImageRef(out);
  if (!ref.tag && !ref.digest) out += ':latest';
  return out;
}

/** Registry prefixes of the catalog, longest first. */
export const CATALOG_PREFIXES: readonly string[] = Object.freeze([
  'ghcr.io/kptdev/krm-functions-catalog/krm-fn-contrib/',
  'ghcr.io/kptdev/krm-functions-catalog/wasm/',
  'ghcr.io/kptdev/krm-functions-catalog/',
  'gcr.io/kpt-fn-contrib/',
  'gcr.io/kpt-fn-demo/',
  'gcr.io/kpt-fn/',
]);

/** The catalog function name of an image, or undefined when it is not from a catalog registry. */
export function catalogName(image: string): string | undefined {
  const ref = parseImageRef(image.includes('/') ? image : BETA56_IMAGE_PREFIX + image);
  const repo = ref.repository + '/';
  return CATALOG_PREFIXES.includes(repo) ? ref.name : undefined;
}

/** `v1.2.3` → [1, 2, 3]; undefined for anything else (release versions as the catalog tags them). */
export function parseVersion(v: string): [number, number, number] | undefined {
  const m = /^v(\d+)\.(\d+)\.(\d+)$/.exec(v);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

interface SemVer {
  core: [number, number, number];
  pre: string[];
}

/** `v1`, `1.2`, `v1.2.3-rc.1+build`: missing parts are 0, build metadata is ignored; undefined otherwise. */
function parseSemVer(v: string): SemVer | undefined {
  const m = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/.exec(v);
  if (!m) return undefined;
  return { core: [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)], pre: m[4] ? m[4].split('.') : [] };
}

/** Semver 2.0 pre-release precedence: numeric identifiers numerically and below alphanumeric ones. */
function comparePre(a: string[], b: string[]): number {
  if (a.length === 0 || b.length === 0) return b.length - a.length;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const [x, y] = [a[i], b[i]];
    const [nx, ny] = [/^\d+$/.test(x), /^\d+$/.test(y)];
    if (nx && ny && Number(x) !== Number(y)) return Number(x) - Number(y);
    if (nx !== ny) return nx ? -1 : 1;
    if (!nx && x !== y) return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

/**
 * The one version order of the project (image tags, emulated catalog versions, thresholds):
 * semantic-version precedence (semver.org 2.0) with
 * a leading `v` optional and missing minor/patch parts read as 0 (`v0.4` = `v0.4.0`); a
 * pre-release sorts below its release; build metadata is ignored. '' stands for the unreleased
 * newest behaviour (a catalog image's `unstable` tag) and sorts above everything. Anything else
 * unparseable sorts as `v0.0.0`. Returns a negative number, 0 or a positive number.
 */
export function compareVersions(a: string, b: string): number {
  if (a === b) return 0;
  if (a === '') return 1;
  if (b === '') return -1;
  const pa = parseSemVer(a) ?? { core: [0, 0, 0], pre: [] };
  const pb = parseSemVer(b) ?? { core: [0, 0, 0], pre: [] };
  for (let i = 0; i < 3; i++) if (pa.core[i] !== pb.core[i]) return pa.core[i] < pb.core[i] ? -1 : 1;
  return Math.sign(comparePre(pa.pre, pb.pre));
}

/** `version` >= `min` in the order of `compareVersions` ('' = newest; `v0.4` = `v0.4.0`). */
export function versionAtLeast(version: string, min: string): boolean {
  return compareVersions(version, min) >= 0;
}

/**
 * The version of `versions` nearest to `wanted`: the newest of the same major.minor line, else of
 * the same major, else the newest overall (undefined when `versions` is empty).
 */
export function nearestVersion(wanted: string, versions: readonly string[]): string | undefined {
  const sorted = [...versions].sort(compareVersions);
  const w = parseSemVer(wanted);
  const line = (n: number): string[] =>
    w ? sorted.filter((v) => parseSemVer(v)?.core.slice(0, n).join('.') === w.core.slice(0, n).join('.')) : [];
  const pick = line(2).length ? line(2) : line(1).length ? line(1) : sorted;
  return pick[pick.length - 1];
}

export const FLOATING_NEWEST_TAGS: readonly string[] = Object.freeze(['', 'latest', 'unstable']);

/** What a digest pin means for an image krmfn answers itself (see builtins/docs/README.md, "Digest pins"). */
export type DigestPolicy =
  /** `name:tag@sha256:…` runs the version the tag names; the digest is recorded, not verified. */
  | 'tag'
  /** Only digests krmfn can vouch for (a descriptor's digest table) resolve; others are not built-ins. */
  | 'strict';

export interface CatalogResolution {
  /** The version to run (`vX.Y.Z`). */
  version: string;
  /** The digest as written ('' when none). */
  digest: string;
  /** The digest is one krmfn knows for `version` (false when there is no digest). */
  digestVerified: boolean;
}

/**
 * The version a tag and digest select among `versions` (`vX.Y.Z`, any order), or undefined.
 * A digest found in `digests` (`sha256:<hex>` → version) selects its version whatever the tag says,
 * as a registry serves a digest; an unknown digest next to a tag follows the tag under the `tag`
 * policy and resolves nothing under `strict`; a bare unknown digest resolves nothing.
 */
export function resolveCatalogRef(
  tag: string,
  digest: string,
  versions: readonly string[],
  digests: Readonly<Record<string, string>> = {},
  policy: DigestPolicy = 'tag',
): CatalogResolution | undefined {
  if (digest) {
    const known = digests[digest];
    if (known !== undefined)
      return versions.includes(known) ? { version: known, digest, digestVerified: true } : undefined;
    if (policy === 'strict' || tag === '') return undefined;
  }
  const version = resolveTag(tag, versions);
  return version === undefined ? undefined : { version, digest, digestVerified: false };
}

/**
 * The version a tag or digest selects, or undefined: `resolveCatalogRef` under the `tag` policy.
 * `versions` are `vX.Y.Z` strings in any order; `digests` maps `sha256:<hex>` to one of them.
 */
export function resolveCatalogVersion(
  tag: string,
  digest: string,
  versions: readonly string[],
  digests: Readonly<Record<string, string>> = {},
): string | undefined {
  return resolveCatalogRef(tag, digest, versions, digests)?.version;
}

function resolveTag(tag: string, versions: readonly string[]): string | undefined {
  const sorted = [...versions].filter((v) => parseVersion(v)).sort(compareVersions);
  if (FLOATING_NEWEST_TAGS.includes(tag)) return sorted[sorted.length - 1];
  if (parseVersion(tag)) return sorted.includes(tag) ? tag : undefined;
  const m = /^v(\d+)(?:\.(\d+))?$/.exec(tag);
  if (!m) return undefined;
  const major = Number(m[1]);
  const minor = m[2] === undefined ? undefined : Number(m[2]);
  const line = sorted.filter((v) => {
    const p = parseVersion(v)!;
    return p[0] === major && (minor === undefined || p[1] === minor);
  });
  return line[line.length - 1];
}
