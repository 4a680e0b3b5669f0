/**
 * Messages whose wording changed between kpt releases (the message catalogue of a compatibility
 * level, src/engine/kpt-level.ts). Each entry returns kpt's text for that release.
 *
 * - beta.56: kptdev/kpt pkg/api/kptfile/v1/validation.go at v1.0.0-beta.56.
 * - beta.67: kptdev/kpt api/kptfile/v1/validation.go at v1.0.0-beta.67 (`ValidateFunctionImageURL`
 *   wraps distribution/reference's `Parse` error; `GetValidatedFnConfigFromPath` wraps the open
 *   error) and pkg/lib/pkg/pkg.go at v1.0.0-beta.67 (`ValidatePipeline`'s `makeStepValidationErr`,
 *   naming the step by `PipelineStepNameOrImage`).
 */
import { parseImageRef } from './image.ts';
import { beta56InvalidImage, goQuote, isValidImageReference } from './kptfile.ts';

/** A pipeline step as `ValidatePipeline` names it in its configPath reason. */
export interface PipelineStepRef {
  validator: boolean;
  name?: string;
  image?: string;
}

export interface KptMessages {
  /** The ValidateError reason for a bad `image`, or undefined when the reference is valid. */
  invalidImage(image: string): string | undefined;
  /** The ValidateError reason when a `configPath` file cannot be opened (`abs`: the joined path). */
  configPathMissing(configPath: string, abs: string): string;
  /** The ValidateError reason when a `configPath` names no resource read from the step's own package. */
  configPathNotInPackage(step: PipelineStepRef, configPath: string): string;
}

export const BETA56_MESSAGES: KptMessages = {
  invalidImage: beta56InvalidImage,
  configPathMissing: () => 'functionConfig must exist in the current package',
  configPathNotInPackage: () => 'functionConfig must exist in the current package',
};

/**
 * kpt's `PipelineStepNameOrImage`: the step's name, else its image's base name (regclient's
 * repository after its last `/`; the image reference has passed validation by then). An exec step
 * with no name gives ''.
 */
function stepNameOrImage(step: PipelineStepRef): string {
  if (step.name) return step.name;
  return step.image ? parseImageRef(step.image).name : '';
}

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
  configPathNotInPackage: (step, configPath) => {
    const kind = step.validator ? 'validator' : 'mutator';
    const p = goQuote(configPath);
    return `functionConfig resource for ${kind} ${goQuote(stepNameOrImage(step))} is missing from path ${p}, this also occurs if ${p} is part of a subpackage`;
  },
};
