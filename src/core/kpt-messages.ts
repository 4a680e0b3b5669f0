/**
 * Messages whose wording changed between kpt releases (the message catalogue of a compatibility
 * level, src/engine/kpt-level.ts). Each entry returns kpt's text for that release.
 *
 * - beta.56: kptdev/kpt pkg/api/kptfile/v1/validation.go at v1.0.0-beta.56.
 * - beta.67: kptdev/kpt api/kptfile/v1/validation.go at v1.0.0-beta.67 (`ValidateFunctionImageURL`
 *   wraps distribution/reference's `Parse` error; `GetValidatedFnConfigFromPath` wraps the open
 *   error).
 */
import { beta56InvalidImage, goQuote, isValidImageReference } from './kptfile.ts';

export interface KptMessages {
  /** The ValidateError reason for a bad `image`, or undefined when the reference is valid. */
  invalidImage(image: string): string | undefined;
  /** The ValidateError reason when a `configPath` file cannot be opened (`abs`: the joined path). */
  configPathMissing(configPath: string, abs: string): string;
}

export const BETA56_MESSAGES: KptMessages = {
  invalidImage: beta56InvalidImage,
  configPathMissing: () => 'functionConfig must exist in the current package',
};

/** distribution/reference `Parse` errors (reference.go): format, uppercase, total name length. */
function referenceError(image: string): string | undefined {
  if (image === '') return 'repository name must have at least one component';
  if (!isValidImageReference(image)) {
    return isValidImageReference(image.toLowerCase())
      ? 'repository name must be lowercase'
      : 'invalid reference format';
  }
  const name = image.replace(/@.*$/, '').replace(/:[\w][\w.-]*$/, '');
  if (name.length > 255) return 'repository name must not be more than 255 characters';
  return undefined;
}

export const BETA67_MESSAGES: KptMessages = {
  invalidImage(image) {
    const err = referenceError(image);
    return err === undefined ? undefined : `function image reference ${goQuote(image)} is invalid: ${err}`;
  },
  configPathMissing: (configPath, abs) =>
    `failed to open functionConfig from path ${goQuote(configPath)}: open ${abs}: no such file or directory`,
};
