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
import {
  catalogPublishes,
  catalogRegistry,
  GHCR_REGISTRY,
  GCR_REGISTRY,
  registryLabel,
  registryTags,
  servesTagForm,
  type RegistryTags,
} from '../src/core/registry-tags.ts';
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
  /** Image repositories (without tag) this built-in answers, for listings; any catalog registry prefix resolves, among the tags that registry serves. */
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
 * digest pins under `options.digestPolicy`), or undefined. A tag resolves only among the versions
 * the image's registry serves (src/core/registry-tags.ts) that the built-in implements: a floating
 * tag never picks a version its registry never published.
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
    const alias = d.name === name ? undefined : d.aliases?.find((a) => a.name === name);
    if (d.name !== name && !alias) continue;
    const here = servedHere(image, name, alias ? aliasVersions(alias) : d.versions);
    if (!servesTagForm(here.tags, ref.tag, ref.digest)) return undefined;
    const r = resolveCatalogRef(ref.tag, ref.digest, here.versions, alias ? {} : d.digests, policy);
    if (!r) return undefined;
    return alias
      ? { descriptor: d, image: imageInfo(d.name, ref.tag, alias.version, r.digest, false) }
      : { descriptor: d, image: imageInfo(d.name, ref.tag, r.version, r.digest, r.digestVerified) };
  }
  return undefined;
}

interface ServedHere {
  tags: RegistryTags;
  /** The implemented versions this registry serves, oldest first. */
  versions: string[];
}

/**
 * What the image's registry serves of catalog function `name`, cut down to `implemented`. A
 * host's own built-in under a name the catalog never published answers every registry with its
 * own versions and every tag form.
 */
function servedHere(image: string, name: string, implemented: readonly string[]): ServedHere {
  const registry = catalogRegistry(image) ?? GCR_REGISTRY;
  if (!catalogPublishes(name)) {
    const tags = { registry, versions: implemented, floating: true, latest: true, unstable: true };
    return { tags, versions: [...implemented] };
  }
  const tags = registryTags(registry, name);
  return { tags, versions: implemented.filter((v) => tags.versions.includes(v)) };
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
    const here = servedHere(image, name, alias ? aliasVersions(alias) : d.versions);
    const versions = here.versions;
    if (ref.digest && (ref.tag === '' || options.digestPolicy === 'strict')) {
      return ref.tag === ''
        ? `${name} is pinned by digest only (${ref.digest}): krmfn runs its built-in by version and cannot tell which version that digest is; write ${name}:<version>@${ref.digest} (versions: ${versions.join(', ')})`
        : `krmfn cannot vouch for digest ${ref.digest} of ${name}:${ref.tag} (its built-in is a reimplementation, not that image) and digests are strict`;
    }
    return unknownVersion(name, ref.tag, here, alias ? aliasVersions(alias) : d.versions);
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

/**
 * The unknown-version message: what krmfn can run from this registry, why this tag is not among
 * it (a tag form the registry never publishes, a release krmfn does not implement, a release
 * published on another registry), and the nearest version to write instead.
 */
function unknownVersion(name: string, tag: string, here: ServedHere, implemented: readonly string[]): string {
  const where = registryLabel(here.tags.registry);
  const shown = tag || 'latest';
  const forms = [
    ...(here.tags.floating ? ['vX.Y', 'vX'] : []),
    ...(here.tags.latest ? ['latest'] : []),
    ...(here.tags.unstable ? ['unstable'] : []),
  ];
  const has = `krmfn has ${here.versions.join(', ') || 'no version'} for ${where}${forms.length ? ` (also ${forms.join(', ')})` : ''}`;
  const why = reason(name, tag, here, implemented);
  const near = nearestVersion(shown, here.versions);
  const elsewhere = near ? undefined : nearestElsewhere(name, shown, implemented);
  const hint = near ? `; nearest: ${name}:${near}` : elsewhere ? `; nearest: ${elsewhere}` : '';
  return `${name} has no version ${JSON.stringify(shown)}; ${has}${why ? `; ${why}` : ''}${hint}`;
}

function reason(name: string, tag: string, here: ServedHere, implemented: readonly string[]): string | undefined {
  const where = registryLabel(here.tags.registry);
  if (!servesTagForm(here.tags, tag, '')) {
    return tag === '' || tag === 'latest'
      ? `${where} publishes no "latest" tag (an image without tag pulls "latest")`
      : `${where} publishes no ${JSON.stringify(tag)} tag`;
  }
  if (here.tags.versions.includes(tag) && !implemented.includes(tag)) {
    return `${where} serves ${tag}, a release krmfn does not implement`;
  }
  if (implemented.includes(tag)) {
    const others = [GCR_REGISTRY, GHCR_REGISTRY].filter(
      (r) => r !== here.tags.registry && registryTags(r, name).versions.includes(tag),
    );
    return others.length
      ? `${tag} was published on ${others.map(registryLabel).join(' and ')}, not on ${where}`
      : `${tag} was never published on ${where}`;
  }
  return undefined;
}

/** The same tag, else the nearest implemented version, on a main catalog registry, as a full image name. */
function nearestElsewhere(name: string, tag: string, implemented: readonly string[]): string | undefined {
  for (const r of [GHCR_REGISTRY, GCR_REGISTRY]) {
    const runnable = implemented.filter((v) => registryTags(r, name).versions.includes(v));
    const near = runnable.includes(tag) ? tag : nearestVersion(tag, runnable);
    if (near) return `${r}${name}:${near}`;
  }
  return undefined;
}
