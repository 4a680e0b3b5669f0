/**
 * The released versions a catalog registry lists for an image, used to resolve kpt beta.67 `tag:`
 * constraints the way kpt does (it lists the registry's tags): the tags that image's registry
 * serves (src/core/registry-tags.ts), whether or not krmfn implements them all, so a constraint
 * picks what the registry would and an unimplemented pick fails with the built-in's
 * unknown-version message. Every version a built-in implements is in that data (a later
 * release or a WASM build), so the descriptors are no longer read; the parameter stays for the
 * composition root's call (src/create-engine.ts).
 */
import { catalogName } from '../core/image.ts';
import { catalogRegistry, registryTags } from '../core/registry-tags.ts';

/** What the lister reads of each built-in descriptor (sdk/registry.ts `BuiltinDescriptor`). */
export interface VersionedName {
  readonly name: string;
  readonly versions: readonly string[];
}

export function builtinTagLister(_registry: readonly VersionedName[]): (image: string) => readonly string[] {
  return (image) => {
    const name = catalogName(image);
    const where = catalogRegistry(image);
    if (name === undefined || where === undefined) return [];
    return registryTags(where, name).versions;
  };
}
