/**
 * The released versions krmfn knows for a catalog image, used to resolve kpt beta.67 `tag:`
 * constraints. One function on purpose: today it lists the versions each built-in descriptor
 * implements (sdk/registry.ts `BuiltinDescriptor.versions`); a fuller released-version table can
 * replace it here without touching the engine.
 */
import { catalogName } from '../core/image.ts';
import type { BuiltinDescriptor } from '../../sdk/registry.ts';

export function builtinTagLister(registry: readonly BuiltinDescriptor[]): (image: string) => readonly string[] {
  return (image) => {
    const name = catalogName(image);
    if (name === undefined) return [];
    return registry.find((d) => d.name === name)?.versions ?? [];
  };
}
