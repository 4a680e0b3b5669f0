/**
 * Version checks for catalog functions: the project's one version order (`compareVersions` in
 * src/core/image.ts, exported by the SDK), under the names the built-ins use. Versions come from
 * `ctx.image.version` (`v0.1.3`), or '' for the unreleased newest behaviour.
 */
import { compareVersions, versionAtLeast } from '../../sdk/index.ts';

export { compareVersions };

/** `version` is at least `min` ('' counts as newest; the leading `v` is optional on both). */
export function atLeast(version: string, min: string): boolean {
  return versionAtLeast(version, min);
}
