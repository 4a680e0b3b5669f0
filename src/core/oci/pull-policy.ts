/**
 * kpt's `--image-pull-policy` values: `Always`, `IfNotPresent`, `Never`, matched without regard to
 * case (kpt beta.56 takes `never`, `NEVER`, `ifnotpresent`; checked with the real kpt), and kpt's
 * message for anything else.
 */
export type PullPolicy = 'Always' | 'IfNotPresent' | 'Never';

const POLICIES: readonly PullPolicy[] = ['Always', 'IfNotPresent', 'Never'];

/** The policy `text` names, or undefined. */
export function parsePullPolicy(text: string): PullPolicy | undefined {
  return POLICIES.find((p) => p.toLowerCase() === text.toLowerCase());
}

/** kpt's usage error for a value that names no policy. */
export function pullPolicyError(text: string): string {
  return `invalid argument ${JSON.stringify(text)} for "--image-pull-policy" flag: must be one of: ${POLICIES.join(', ')}`;
}
