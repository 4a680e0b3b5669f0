/**
 * One pipeline step as kpt runs it (docs/kpt-semantics.md, "Selection and merge"): selection, the call, the merge, the result
 * record and the start/end events. Shared by render and eval, under the run's call context
 * (src/engine/call-env.ts).
 */
import type { PipelineFunction } from '../core/function.ts';
import type { KubeObject } from '../core/kube-object.ts';
import type { FunctionResult, FunctionResultList } from '../core/result.ts';
import { callFunction, type FunctionCall } from './call.ts';
import type { CallEnv } from './call-env.ts';
import { isFunctionCallError } from './call-error.ts';
import { hasSelection, mergeSelected, select, stampResourceIds } from './selectors.ts';

/** One pipeline entry ready to run: the call and the entry it came from (selectors, image or exec). */
export interface Step extends FunctionCall {
  spec: PipelineFunction;
}

function record(results: FunctionResultList, step: Step, r: Omit<FunctionResult, 'image' | 'exec'>): void {
  const item: FunctionResult = { exitCode: r.exitCode };
  if (step.spec.image) item.image = step.name;
  else item.exec = step.name;
  if (r.stderr) item.stderr = r.stderr;
  if (r.results && r.results.length) item.results = r.results;
  results.items.push(item);
}

/** Runs one step on `items` and returns the new item list (validators return `items` unchanged). */
export async function runStep(env: CallEnv, step: Step, items: KubeObject[]): Promise<KubeObject[]> {
  const selecting = hasSelection(step.spec.selectors, step.spec.exclude);
  if (selecting && !step.validator) stampResourceIds(items);
  let selected = selecting ? select(items, step.spec.selectors, step.spec.exclude) : items;
  if (step.validator) selected = selected.map((o) => o.clone());
  env.emit({
    type: 'function-start',
    name: step.name,
    wasm: env.allowWasm,
    ...(selecting ? { selected: selected.length } : {}),
  });
  const t0 = env.now();
  try {
    const out = await callFunction(env, step, selected);
    record(env.results, step, { stderr: out.stderr, exitCode: 0, results: out.results });
    env.emit({
      type: 'function-end',
      name: step.name,
      ok: true,
      durationMs: env.now() - t0,
      results: out.results,
      stderr: out.stderr,
      exitCode: 0,
      exitFailure: false,
    });
    if (step.validator) return items;
    return selecting ? mergeSelected(items, selected, out.items) : out.items;
  } catch (e) {
    const callErr = isFunctionCallError(e) ? e : undefined;
    const stage = callErr?.stage;
    // What kpt's runner records for each stage: see FailureStage in call-error.ts.
    if (stage === 'after-pass') {
      record(env.results, step, { stderr: callErr!.stderr, exitCode: 0, results: callErr!.results });
    } else if (stage === 'function') {
      record(env.results, step, {
        stderr: callErr!.exitFailure ? callErr!.stderr : '',
        exitCode: callErr!.exitFailure ? (callErr!.exitCode ?? 1) : 1,
        results: callErr!.results,
      });
      env.results.exitCode = 1;
    }
    env.emit({
      type: 'function-end',
      name: step.name,
      ok: stage === 'after-pass',
      durationMs: env.now() - t0,
      results: callErr?.results ?? [],
      stderr: callErr?.stderr ?? '',
      ...(callErr?.exitCode !== undefined ? { exitCode: callErr.exitCode } : {}),
      exitFailure: callErr?.exitFailure ?? false,
      ...(callErr ? { error: callErr } : {}),
    });
    throw e;
  }
}
