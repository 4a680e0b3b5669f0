/**
 * A failed function call, carrying what kpt prints and records for it: the results the function
 * reported, its stderr, and its exit code (`exitFailure` when the failure is the non-zero exit
 * itself rather than a parse or invariant error).
 */
import { KrmfnError, type ErrorCode } from '../core/errors.ts';
import type { Result } from '../core/result.ts';

export class FunctionCallError extends KrmfnError {
  readonly results: Result[];
  readonly stderr: string;
  readonly exitCode: number | undefined;
  readonly exitFailure: boolean;

  constructor(init: {
    code: ErrorCode;
    message: string;
    function: string;
    results?: Result[];
    stderr?: string;
    exitCode?: number;
    exitFailure?: boolean;
    cause?: unknown;
  }) {
    super({ code: init.code, message: init.message, function: init.function, cause: init.cause });
    this.name = 'FunctionCallError';
    this.results = init.results ?? [];
    this.stderr = init.stderr ?? '';
    this.exitCode = init.exitCode;
    this.exitFailure = init.exitFailure ?? false;
  }
}

export function isFunctionCallError(e: unknown): e is FunctionCallError {
  return typeof e === 'object' && e !== null && (e as { name?: unknown }).name === 'FunctionCallError';
}
