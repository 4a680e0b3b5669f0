/**
 * A failed function call, carrying what kpt prints and records for it: the results the function
 * reported, its stderr, and its exit code (`exitFailure` when the failure is the non-zero exit
 * itself rather than a parse or invariant error), and at which stage of kpt's runner it failed
 * (`stage`, see FailureStage), which decides what results.yaml records.
 */
import { KrmfnError, type ErrorCode } from '../core/errors.ts';
import type { Result } from '../core/result.ts';

/**
 * Where the call failed, after kpt's FunctionRunner (kptdev/kpt internal/fnruntime/runner.go at
 * v1.0.0-beta.56, `do` and `Filter`):
 * - `function`: the function itself (it could not run, exited non-zero, or wrote unparsable
 *   output): `[FAIL]`, a results item with its exit code (1 unless it exited non-zero) and the
 *   list's `exitCode: 1`;
 * - `checks`: the runner's own checks of the output (paths, KRM shape): `[FAIL]`, no results item;
 * - `after-pass`: after the runner returned (legacy/internal annotation reconciliation): `[PASS]`
 *   and a results item with exit code 0, then the error.
 */
export type FailureStage = 'function' | 'checks' | 'after-pass';

export class FunctionCallError extends KrmfnError {
  readonly results: Result[];
  readonly stderr: string;
  readonly exitCode: number | undefined;
  readonly exitFailure: boolean;
  readonly stage: FailureStage;

  constructor(init: {
    code: ErrorCode;
    message: string;
    function: string;
    results?: Result[];
    stderr?: string;
    exitCode?: number;
    exitFailure?: boolean;
    stage: FailureStage;
    cause?: unknown;
  }) {
    super({ code: init.code, message: init.message, function: init.function, cause: init.cause });
    this.name = 'FunctionCallError';
    this.results = init.results ?? [];
    this.stderr = init.stderr ?? '';
    this.exitCode = init.exitCode;
    this.exitFailure = init.exitFailure ?? false;
    this.stage = init.stage;
  }
}

export function isFunctionCallError(e: unknown): e is FunctionCallError {
  return typeof e === 'object' && e !== null && (e as { name?: unknown }).name === 'FunctionCallError';
}
