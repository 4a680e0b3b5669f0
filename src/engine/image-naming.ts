/**
 * How a kpt release names the image of a pipeline entry before running it (the name shown in
 * `[RUNNING]`, recorded in results and in renderStatus):
 * - beta.56 (kptdev/kpt internal/fnruntime/runner.go at v1.0.0-beta.56): a name without `/` gets
 *   `gcr.io/kpt-fn/`; nothing else changes.
 * - beta.67 (kptdev/kpt pkg/fn/runtime/runner.go and tag_resolution.go at v1.0.0-beta.67): a name
 *   without `/` gets `ghcr.io/kptdev/krm-functions-catalog/` (or the `--image-prefix` /
 *   `KPT_IMAGE_PREFIX` prefix; an empty one leaves it alone); with `tag:` the image's own tag and
 *   digest are dropped and the tag is resolved (a semantic version is used literally, a
 *   constraint picks the highest listed version it admits, anything else must be a valid tag
 *   literal); without `tag:` an image with neither tag nor digest gets `:latest`.
 */
import { KrmfnError } from '../core/errors.ts';
import { HEAD_IMAGE_PREFIX, parseImageRef, resolveImageName } from '../core/image.ts';

export { HEAD_IMAGE_PREFIX };
import { highestSatisfying, parseConstraint, parseSemver } from '../core/semver.ts';

/** The released versions (tags) of an image without tag, e.g. from the built-in catalog. */
export type TagLister = (image: string) => readonly string[];

export interface ImageNamer {
  /**
   * The full name the function runs as (registry prefix, tag resolution, `:latest`). `prefix`:
   * `--image-prefix` / `KPT_IMAGE_PREFIX` where the release has them ('' leaves short names alone).
   */
  resolve(image: string, tag: string | undefined, listTags: TagLister, prefix?: string): string;
  /** Only the registry prefix for a short name (what `fn eval -i` does before anything else). */
  prefixOnly(image: string, prefix?: string): string;
}

export const beta56Images: ImageNamer = {
  resolve: (image) => resolveImageName(image, { kpt: 'beta56' }),
  prefixOnly: (image) => resolveImageName(image, { kpt: 'beta56' }),
};

/** kpt beta.67 `RunnerOptions.ResolveToImage` (kptdev/kpt pkg/lib/runneroptions/runneroptions.go). */
function withPrefix(image: string, prefix: string = HEAD_IMAGE_PREFIX): string {
  const p = prefix.replace(/\/+$/, '');
  if (p === '' || image.includes('/')) return image;
  return `${p}/${image}`;
}

/** distribution/reference TagRegexp, as kpt matches it (first match must be the whole tag). */
const TAG_RE = /[\w][\w.-]{0,127}/;
const TAG_ERROR =
  'must start with an alphanumeric character or underscore, followed by at most 127 alphanumeric characters, underscores, periods, or dashes';

function withoutTagOrDigest(image: string): string {
  const ref = parseImageRef(image);
  return ref.repository ? `${ref.repository}/${ref.name}` : ref.name;
}

function literalTag(base: string, tag: string): string {
  if (TAG_RE.exec(tag)?.[0] !== tag) {
    throw new KrmfnError({
      code: 'function-tag',
      message: `\`function.tag\` ${JSON.stringify(tag)} must be a valid image tag: ${TAG_ERROR}`,
    });
  }
  return `${base}:${tag}`;
}

export const beta67Images: ImageNamer = {
  prefixOnly: withPrefix,
  resolve(image, tag, listTags, prefix) {
    const named = withPrefix(image, prefix);
    if (!tag) {
      const ref = parseImageRef(named);
      return ref.tag || ref.digest ? named : `${named}:latest`;
    }
    const base = withoutTagOrDigest(named);
    if (parseSemver(tag)) return literalTag(base, tag);
    const constraint = parseConstraint(tag);
    if (!constraint) return literalTag(base, tag);
    const found = highestSatisfying(listTags(base), constraint);
    if (found === undefined) {
      throw new KrmfnError({
        code: 'function-tag',
        message: `no tag could be found matching the version constraint ${JSON.stringify(tag)}`,
      });
    }
    return `${base}:${found}`;
  },
};
