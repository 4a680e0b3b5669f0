/**
 * The released versions krmfn knows for a catalog image, used to resolve kpt beta.67 `tag:`
 * constraints. One function on purpose: today it lists the versions each built-in descriptor
 * implements (sdk/registry.ts `BuiltinDescriptor.versions`); a fuller released-version table can
 * replace it here without touching the engine.
 */
import { catalogName } from '../core/image.ts';

/** What the lister reads of each built-in descriptor (sdk/registry.ts `BuiltinDescriptor`). */
export interface VersionedName {
  readonly name: string;
  readonly versions: readonly string[];
}

export function builtinTagLister(registry: readonly VersionedName[]): (image: string) => readonly string[] {
  return (image) => {
    const name = catalogName(image);
    if (name === undefined) return [];
    return registry.find((d) => d.name === name)?.versions ?? [];
  };
}
