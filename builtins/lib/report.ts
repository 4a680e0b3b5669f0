/**
 * What the pure logic of a catalog function hands back to its SDK wrapper: the results in the
 * catalog's exact wording and whether the function failed (exit 1 in the catalog). Keeping the
 * logic free of SDK state makes it testable on bare KubeObjects.
 */
import type { KubeObject, Result } from '../../sdk/index.ts';
import { fileRefOf, resourceRefOf } from './gvk.ts';

export interface Report {
  results: Result[];
  /** The catalog function would exit non-zero. */
  failed: boolean;
}

export function ok(results: Result[] = []): Report {
  return { results, failed: false };
}

/** A failure: one error-severity result with `message` (plus any results gathered before). */
export function fail(message: string, before: Result[] = []): Report {
  return { results: [...before, { message, severity: 'error' }], failed: true };
}

/** Go's `%q` for a string (close enough: JSON quoting, which matches for printable ASCII). */
export function goQuote(s: string): string {
  return JSON.stringify(s);
}

/**
 * The fn SDK's `ErrorConfigObjectResult(err, functionConfig)` (kpt-functions-sdk go/fn/result.go
 * `ConfigObjectResult`): an error naming the config object and the file it came from.
 */
export function configObjectError(message: string, fc: KubeObject | undefined): Result {
  const file = fc ? fileRefOf(fc) : undefined;
  return {
    message,
    severity: 'error',
    ...(fc ? { resourceRef: resourceRefOf(fc) } : {}),
    ...(file ? { file } : {}),
  };
}
