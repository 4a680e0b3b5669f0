/** How kpt prints each kind of failure (docs/kpt-semantics.md, "CLI text"); the CLI applies it. */
import { isKrmfnError, KrmfnError } from '../core/errors.ts';
import { isFunctionCallError } from './call-error.ts';
import type { EngineFailure, ErrorStyle } from './types.ts';

const PLAIN = new Set(['write-failed', 'output-exists', 'usage', 'function-output', 'invalid-resource-list']);

export function errorStyle(e: KrmfnError): ErrorStyle {
  if (isFunctionCallError(e) && e.exitFailure) return 'none';
  if (e.code === 'kptfile-invalid') return 'bare';
  if (PLAIN.has(e.code)) return 'plain';
  return 'typed';
}

export function toFailure(e: unknown): EngineFailure {
  const error = isKrmfnError(e)
    ? e
    : new KrmfnError({ code: 'internal', message: e instanceof Error ? e.message : String(e), cause: e });
  return { error, style: errorStyle(error) };
}
