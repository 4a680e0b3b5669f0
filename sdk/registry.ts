/**
 * Built-in function descriptors: what the built-in runtime, `krmfn functions` and the docs need
 * to know about a catalog function implemented natively. The registry (builtins/index.ts) is a
 * frozen array of these; the runtime takes it as an argument, so hosts can extend or replace it.
 */
import { builtinVersions, catalogFunctionNames } from '../src/core/catalog-versions.ts';
import {
  BETA56_IMAGE_PREFIX,
  catalogName,
  compareVersions,
  HEAD_IMAGE_PREFIX,
  nearestVersion,
  parseImageRef,
  resolveCatalogRef,
  type DigestPolicy,
  type ImageInfo,
} from '../src/core/image.ts';
import { nearestName } from '../src/core/nearest-name.ts';
import type { KrmFunction } from './define.ts';
import type { JsonSchema } from './schema.ts';

/** An old image name (a catalog rename: `set-annotation`, `set-label`) answered with one fixed version's behaviour. */
export interface ImageAlias {
  name: string;
  version: string;
}

export interface BuiltinDescriptor {
  /** Catalog name, e.g. `set-namespace`. */
  readonly name: string;
  /** Image repositories (without tag) this built-in answers, for listings; any catalog registry prefix resolves. */
  readonly images: readonly string[];
  /**
   * Versions that resolve (`vX.Y.Z`, oldest first): the catalog's released versions of `name`
   * (src/core/catalog-versions.ts) together with the versions the author lists.
   */
  readonly versions: readonly string[];
  /** Known digests (`sha256:<hex>`) → version. */
  readonly digests?: Readonly<Record<string, string>>;
  readonly aliases?: readonly ImageAlias[];
  /** Kinds accepted as functionConfig (e.g. `ConfigMap`, `SetNamespace`). */
  readonly configKinds: readonly string[];
  /** One line for `krmfn functions`. */
  readonly summary: string;
  /** JSON Schema of the typed config (documentation and forms). */
  readonly schema?: JsonSchema;
  /** Docs page, relative to the package root (e.g. `builtins/docs/set-namespace.md`). */
  readonly docs?: string;
  readonly fn: KrmFunction;
}

export type BuiltinInit = Omit<BuiltinDescriptor, 'images' | 'docs'> & { images?: readonly string[]; docs?: string };

/**
 * A frozen descriptor; `images` default to the Google and kptdev registries, `docs` to
 * builtins/docs/<name>.md, and `versions` gain every released version of the catalog function
 * of that name (so every released tag resolves; the function reads `ctx.image.version`).
 */
export function defineBuiltin(init: BuiltinInit): BuiltinDescriptor {
  return Object.freeze({
    ...init,
    images: Object.freeze([...(init.images ?? [BETA56_IMAGE_PREFIX + init.name, HEAD_IMAGE_PREFIX + init.name])]),
    versions: Object.freeze(mergeVersions(init.versions, builtinVersions(init.name))),
    docs: init.docs ?? `builtins/docs/${init.name}.md`,
  });
}

function mergeVersions(...lists: (readonly string[])[]): string[] {
  return [...new Set(lists.flat())].sort(compareVersions);
}

export interface BuiltinMatch {
  descriptor: BuiltinDescriptor;
  image: ImageInfo;
}

export interface FindBuiltinOptions {
  /** What a digest pin means (default `tag`: run the tag's version, record the digest). */
  digestPolicy?: DigestPolicy;
}

/**
 * The built-in an image names (any catalog prefix, short names, released and floating tags,
 * digest pins under `options.digestPolicy`), or undefined.
 */
export function findBuiltin(
  registry: readonly BuiltinDescriptor[],
  image: string,
  options: FindBuiltinOptions = {},
): BuiltinMatch | undefined {
  const name = catalogName(image);
  if (name === undefined) return undefined;
  const ref = parseImageRef(image);
  const policy = options.digestPolicy ?? 'tag';
  for (const d of registry) {
    if (d.name === name) {
      const r = resolveCatalogRef(ref.tag, ref.digest, d.versions, d.digests, policy);
      return r
        ? { descriptor: d, image: imageInfo(d.name, ref.tag, r.version, r.digest, r.digestVerified) }
        : undefined;
    }
    const alias = d.aliases?.find((a) => a.name === name);
    if (alias) {
      const r = resolveCatalogRef(ref.tag, ref.digest, aliasVersions(alias), {}, policy);
      return r ? { descriptor: d, image: imageInfo(d.name, ref.tag, alias.version, r.digest, false) } : undefined;
    }
  }
  return undefined;
}

function aliasVersions(alias: ImageAlias): string[] {
  return mergeVersions(builtinVersions(alias.name), [alias.version]);
}

function imageInfo(name: string, tag: string, version: string, digest: string, verified: boolean): ImageInfo {
  return { name, tag, version, ...(digest ? { digest, digestVerified: verified } : {}) };
}

/**
 * Why `image` is not a built-in, for the "function not found" error: an unknown version of a
 * built-in (with the versions krmfn has and the nearest), a digest krmfn cannot place, a catalog
 * function krmfn does not build in, the starlark function (the Starlark runtime's), or a misspelt name (with the nearest name). undefined when the
 * image is outside the catalog registries or is a built-in after all.
 */
export function explainNotBuiltin(
  registry: readonly BuiltinDescriptor[],
  image: string,
  options: FindBuiltinOptions = {},
): string | undefined {
  const name = catalogName(image);
  if (name === undefined || findBuiltin(registry, image, options)) return undefined;
  const ref = parseImageRef(image);
  const d = registry.find((x) => x.name === name || x.aliases?.some((a) => a.name === name));
  if (d) {
    const alias = d.aliases?.find((a) => a.name === name);
    const versions = alias ? aliasVersions(alias) : d.versions;
    if (ref.digest && (ref.tag === '' || options.digestPolicy === 'strict')) {
      return ref.tag === ''
        ? `${name} is pinned by digest only (${ref.digest}): krmfn runs its built-in by version and cannot tell which version that digest is; write ${name}:<version>@${ref.digest} (versions: ${versions.join(', ')})`
        : `krmfn cannot vouch for digest ${ref.digest} of ${name}:${ref.tag} (its built-in is a reimplementation, not that image) and digests are strict`;
    }
    const near = nearestVersion(ref.tag, versions);
    return `${name} has no version ${JSON.stringify(ref.tag)}; krmfn has ${versions.join(', ')} (also vX.Y, vX, latest, unstable)${near ? `; nearest: ${name}:${near}` : ''}`;
  }
  // The catalog's starlark function is not a built-in: the Starlark runtime (src/runtimes/starlark.ts)
  // runs it, so this hint is seen only when a runtime chain leaves that runtime out.
  if (name === 'starlark') {
    return 'starlark is run by the starlark runtime, which this runtime chain does not include';
  }
  if (builtinVersions(name).length > 0) {
    return `${name} is a catalog function that krmfn does not build in (released ${builtinVersions(name).join(', ')})`;
  }
  const names = new Set([
    ...registry.flatMap((x) => [x.name, ...(x.aliases ?? []).map((a) => a.name)]),
    ...catalogFunctionNames(),
  ]);
  const hint = nearestName(name, names);
  return `no catalog function is named ${JSON.stringify(name)}${hint ? `; did you mean ${JSON.stringify(hint)}?` : ''}`;
}
