/**
 * Image references and catalog lookup (catalog.md §2, kpt-compat.md §14).
 *
 * - `parseImageRef` splits `registry/path/name:tag@sha256:...` (no normalisation).
 * - `resolveImageName` does what the targeted kpt does to a Kptfile image: beta.56 prefixes
 *   `gcr.io/kpt-fn/` to a name without `/`; HEAD prefixes `ghcr.io/kptdev/krm-functions-catalog/`
 *   (or a custom prefix) and appends `:latest` when there is neither tag nor digest.
 * - `catalogName` strips a known catalog registry prefix, giving the function name, or undefined
 *   for images outside the catalog registries.
 * - `resolveCatalogVersion` keys a tag on the versions krmfn implements: `vX.Y.Z` exact, `vX.Y`
 *   and `vX` the highest known patch of that line, `latest`/`unstable`/no tag the newest, a digest
 *   through the digest table; anything else is undefined ("not a built-in"). It never substitutes
 *   a different behaviour generation than the tag names.
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

/** Registry prefixes of the catalog, longest first (catalog.md §2.3). */
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

/** `v1.2.3` → [1, 2, 3]; undefined for anything else. */
export function parseVersion(v: string): [number, number, number] | undefined {
  const m = /^v(\d+)\.(\d+)\.(\d+)$/.exec(v);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

export function compareVersions(a: string, b: string): number {
  const pa = parseVersion(a) ?? [0, 0, 0];
  const pb = parseVersion(b) ?? [0, 0, 0];
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i]! - pb[i]!;
  return 0;
}

/** `version` >= `min` (both `vX.Y.Z`; a shorter `min` such as `v0.4` means `v0.4.0`). */
export function versionAtLeast(version: string, min: string): boolean {
  const full = (v: string): string => (/^v\d+$/.test(v) ? `${v}.0.0` : /^v\d+\.\d+$/.test(v) ? `${v}.0` : v);
  return compareVersions(full(version), full(min)) >= 0;
}

export const FLOATING_NEWEST_TAGS: readonly string[] = Object.freeze(['', 'latest', 'unstable']);

/**
 * The implemented version a tag or digest selects, or undefined. `versions` are `vX.Y.Z`
 * strings in any order; `digests` maps `sha256:<hex>` to one of them.
 */
export function resolveCatalogVersion(
  tag: string,
  digest: string,
  versions: readonly string[],
  digests: Readonly<Record<string, string>> = {},
): string | undefined {
  if (digest) {
    const v = digests[digest];
    return v && versions.includes(v) ? v : undefined;
  }
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
