/**
 * How kpt prints each kind of failure (docs/kpt-semantics.md, "CLI text"); the CLI applies it.
 * A function step's own failure (a FunctionCallError that is not the non-zero exit itself) is
 * printed as kpt's `fn render` wraps it (`Error: … `, a typed error) or as `fn eval` returns it to
 * cobra (`error: …`): checked with the real kpt v1.0.0-beta.56 on unparsable function output and on
 * a duplicate path/index (test/e2e/cases/function-garbage-output, eval-function-errors-plain).
 */
import { isKrmfnError, KrmfnError } from '../core/errors.ts';
import { isFunctionCallError } from './call-error.ts';
import type { EngineFailure, ErrorStyle } from './types.ts';

const PLAIN = new Set(['write-failed', 'output-exists', 'usage', 'function-output', 'invalid-resource-list']);

/** The command whose failure is printed; it decides how a function step's failure is worded. */
export type FailingCommand = 'render' | 'eval';

export function errorStyle(e: KrmfnError, command?: FailingCommand): ErrorStyle {
  if (isFunctionCallError(e)) {
    if (e.exitFailure) return 'none';
    if (command !== undefined) return command === 'render' ? 'typed' : 'plain';
  }
  if (e.code === 'kptfile-invalid') return 'bare';
  if (PLAIN.has(e.code)) return 'plain';
  return 'typed';
}

export function toFailure(e: unknown, command?: FailingCommand): EngineFailure {
  const error = isKrmfnError(e)
    ? e
    : new KrmfnError({ code: 'internal', message: e instanceof Error ? e.message : String(e), cause: e });
  return { error, style: errorStyle(error, command) };
}
