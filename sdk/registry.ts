/**
 * Built-in function descriptors: what the built-in runtime, `krmfn functions` and the docs need
 * to know about a catalog function implemented natively. The registry (builtins/index.ts) is a
 * frozen array of these; the runtime takes it as an argument, so hosts can extend or replace it.
 */
import {
  BETA56_IMAGE_PREFIX,
  catalogName,
  HEAD_IMAGE_PREFIX,
  parseImageRef,
  resolveCatalogVersion,
  type ImageInfo,
} from '../src/core/image.ts';
import type { KrmFunction } from './define.ts';
import type { JsonSchema } from './schema.ts';

/** An old image name answered with one fixed version (catalog renames, catalog.md §1). */
export interface ImageAlias {
  name: string;
  version: string;
}

export interface BuiltinDescriptor {
  /** Catalog name, e.g. `set-namespace`. */
  readonly name: string;
  /** Image repositories (without tag) this built-in answers, for listings; any catalog registry prefix resolves. */
  readonly images: readonly string[];
  /** Released versions whose behaviour is implemented (`vX.Y.Z`). */
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

/** A frozen descriptor; `images` default to the Google and kptdev registries, `docs` to builtins/docs/<name>.md. */
export function defineBuiltin(init: BuiltinInit): BuiltinDescriptor {
  return Object.freeze({
    ...init,
    images: Object.freeze([...(init.images ?? [BETA56_IMAGE_PREFIX + init.name, HEAD_IMAGE_PREFIX + init.name])]),
    versions: Object.freeze([...init.versions]),
    docs: init.docs ?? `builtins/docs/${init.name}.md`,
  });
}

export interface BuiltinMatch {
  descriptor: BuiltinDescriptor;
  image: ImageInfo;
}

/** The built-in an image names (any catalog prefix, short names, tags and known digests), or undefined. */
export function findBuiltin(registry: readonly BuiltinDescriptor[], image: string): BuiltinMatch | undefined {
  const name = catalogName(image);
  if (name === undefined) return undefined;
  const ref = parseImageRef(image);
  for (const d of registry) {
    if (d.name === name) {
      const version = resolveCatalogVersion(ref.tag, ref.digest, d.versions, d.digests);
      return version ? { descriptor: d, image: { name: d.name, tag: ref.tag, version } } : undefined;
    }
    const alias = d.aliases?.find((a) => a.name === name);
    if (alias && !ref.digest) return { descriptor: d, image: { name: d.name, tag: ref.tag, version: alias.version } };
  }
  return undefined;
}
