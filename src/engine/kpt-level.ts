/**
 * A compatibility level: the data and strategy objects that make the engine behave as one kpt
 * release. `kptLevel(version)` is called once per run; the engine asks the level, it never
 * compares versions itself.
 *
 * - `version`: which Kptfile schema is read (src/core/kptfile.ts).
 * - `images`: how a pipeline entry's image is named and resolved (default registry for short
 *   names, `:latest` for untagged images, semantic-version `tag:` constraints).
 * - `status`: how the root Kptfile records the render outcome (kpt beta.67 writes
 *   `status.conditions` and `status.renderStatus`; beta.56 writes nothing).
 * - `text`: the stderr printer; `messages`: wording that changed between releases.
 * - `localResourcesFirst`, `saveOnFailureAnnotation`: hydration order and partial saves.
 */
import { parseKptVersion, DEFAULT_KPT_VERSION, type KptVersion } from '../core/kpt-version.ts';
import { BETA56_MESSAGES, BETA67_MESSAGES, type KptMessages } from '../core/kpt-messages.ts';
import { beta56Images, beta67Images, type ImageNamer } from './image-naming.ts';
import { noRenderStatus, beta67RenderStatus, type RenderStatusWriter } from './render-status.ts';
import { beta56Text, type TextStrategy } from './text-strategy.ts';
import { beta67Text } from './text-output-beta67.ts';
import type { FieldValueStyle } from '../core/result-field-values.ts';

export interface KptLevel {
  readonly version: KptVersion;
  readonly images: ImageNamer;
  readonly status: RenderStatusWriter;
  readonly text: TextStrategy;
  /**
   * Whether a package's own resources come before its subpackages' outputs in its pipeline input
   * (kpt beta.67 `hydrate`) or after them (beta.56).
   */
  readonly localResourcesFirst: boolean;
  /** The root Kptfile annotation that keeps a failed render's partial results, if the release has one. */
  readonly saveOnFailureAnnotation: string | undefined;
  /** The root Kptfile annotation that asks for top-down (breadth-first) hydration; none before beta.67. */
  readonly bfsRenderAnnotation: string | undefined;
  /** Whether the release has `--image-prefix` / `KPT_IMAGE_PREFIX` and `fn eval --tag`. */
  readonly imagePrefixFlag: boolean;
  /** Messages whose wording differs between releases (src/core/kpt-messages.ts). */
  readonly messages: KptMessages;
  /** How results.yaml records a result's field values (src/core/result-field-values.ts). */
  readonly resultFieldValues: FieldValueStyle;
}

const LEVELS: Record<KptVersion, KptLevel> = {
  '1.0.0-beta.56': {
    version: '1.0.0-beta.56',
    images: beta56Images,
    status: noRenderStatus,
    text: beta56Text,
    localResourcesFirst: false,
    saveOnFailureAnnotation: undefined,
    bfsRenderAnnotation: undefined,
    imagePrefixFlag: false,
    messages: BETA56_MESSAGES,
    resultFieldValues: 'go-values',
  },
  '1.0.0-beta.67': {
    version: '1.0.0-beta.67',
    images: beta67Images,
    status: beta67RenderStatus,
    text: beta67Text,
    localResourcesFirst: true,
    saveOnFailureAnnotation: 'kpt.dev/save-on-render-failure',
    bfsRenderAnnotation: 'kpt.dev/bfs-rendering',
    imagePrefixFlag: true,
    messages: BETA67_MESSAGES,
    resultFieldValues: 'strings',
  },
};

/** The level for `version` (a KptVersion or a string such as `v1.0.0-beta.67`); throws on unknown ones. */
export function kptLevel(version: string = DEFAULT_KPT_VERSION): KptLevel {
  return LEVELS[parseKptVersion(version)];
}
