/**
 * What both runner kinds share around one attempt (src/engine/call-bytes.ts,
 * src/engine/call-objects.ts): the run under the call's deadline with the runner's `RunContext`
 * (src/engine/call-env.ts), a thrown error turned into a `function`-stage FunctionCallError, and
 * the error of a non-zero exit. Also the raw outcome each kind hands back to src/engine/call.ts.
 */
import { isKrmfnError, type KrmfnError } from '../core/errors.ts';
import type { RunContext } from '../core/function.ts';
import type { KubeObject } from '../core/kube-object.ts';
import type { Result } from '../core/result.ts';
import type { Bookkeeping } from './annotations.ts';
import { FunctionCallError } from './call-error.ts';
import { runContext, type CallEnv } from './call-env.ts';
import { runWithDeadline } from './deadline.ts';

/** A runner's answer before the engine's checks: items out, and what each input item was before. */
export interface RawOutcome {
  output: KubeObject[];
  results: Result[];
  stderr: string;
  exitCode: number;
  /** Bookkeeping of the input items still in the output, as they were before the call. */
  snapshots: Map<KubeObject, Bookkeeping>;
  /**
   * Objects runners: the items in `snapshots` still need `normalizeAfterFunction` (the in-place
   * round trip), done item by item in the post-processing pass (src/engine/call.ts).
   */
  normalizeReceived?: boolean;
}

/** Runs one attempt under the call's deadline; any error it throws becomes a FunctionCallError. */
export async function attempt<T>(
  env: CallEnv,
  name: string,
  validator: boolean,
  run: (ctx: RunContext) => Promise<T>,
): Promise<T> {
  try {
    return await runWithDeadline(
      name,
      env.limits.timeoutMs,
      env.signal,
      (signal, deadline) => run(runContext(env, signal, deadline, validator)),
      env.now,
    );
  } catch (e) {
    throw wrapRunError(e, name);
  }
}

function wrapRunError(e: unknown, name: string): FunctionCallError {
  if (isKrmfnError(e)) {
    const ex = e as KrmfnError & { stderr?: string; exitCode?: number };
    return new FunctionCallError({
      code: e.code,
      message: e.message,
      function: name,
      stderr: typeof ex.stderr === 'string' ? ex.stderr : '',
      ...(typeof ex.exitCode === 'number' ? { exitCode: ex.exitCode } : {}),
      stage: 'function',
      cause: e,
    });
  }
  return new FunctionCallError({
    code: 'internal',
    message: `unexpected function error: ${e instanceof Error ? e.message : String(e)}`,
    function: name,
    stage: 'function',
    cause: e,
  });
}

/** The error of a function that exited non-zero (kpt prints its `Exit code: N` block, no error line). */
export function exitFailure(name: string, exitCode: number, results: Result[], stderr: string): FunctionCallError {
  return new FunctionCallError({
    code: 'function-failed',
    message: `function ${JSON.stringify(name)} exited with code ${exitCode}`,
    function: name,
    results,
    stderr,
    exitCode,
    exitFailure: true,
    stage: 'function',
  });
}
