/**
 * One pipeline step as kpt runs it (docs/kpt-semantics.md, "Selection and merge"): selection, the call, the merge, the result
 * record and the start/end events. Shared by render and eval.
 */
import type { FunctionRunner, PipelineFunction } from '../core/function.ts';
import type { KubeObject } from '../core/kube-object.ts';
import type { Limits } from '../core/limits.ts';
import type { FunctionResult, FunctionResultList } from '../core/result.ts';
import { callFunction } from './call.ts';
import { isFunctionCallError } from './call-error.ts';
import type { EventSink } from './events.ts';
import { hasSelection, mergeSelected, select, stampResourceIds } from './selectors.ts';
import type { EngineHost } from './types.ts';

export interface StepContext {
  limits: Limits;
  env: Readonly<Record<string, string>>;
  now: () => number;
  signal?: AbortSignal | undefined;
  emit: EventSink;
  results: FunctionResultList;
  wasm: boolean;
}

/** The step context of one render or eval run, from the host options both share. */
export function stepContext(
  host: EngineHost,
  limits: Limits,
  emit: EventSink,
  results: FunctionResultList,
): StepContext {
  return {
    limits,
    env: host.env ?? {},
    now: host.now ?? Date.now,
    signal: host.signal,
    emit,
    results,
    wasm: host.allowWasm ?? false,
  };
}

export interface Step {
  spec: PipelineFunction;
  name: string;
  runner: FunctionRunner;
  functionConfig?: KubeObject | undefined;
  validator: boolean;
  packagePath?: string | undefined;
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
export async function runStep(ctx: StepContext, step: Step, items: KubeObject[]): Promise<KubeObject[]> {
  const selecting = hasSelection(step.spec.selectors, step.spec.exclude);
  if (selecting && !step.validator) stampResourceIds(items);
  let selected = selecting ? select(items, step.spec.selectors, step.spec.exclude) : items;
  if (step.validator) selected = selected.map((o) => o.clone());
  ctx.emit({
    type: 'function-start',
    name: step.name,
    wasm: ctx.wasm,
    ...(selecting ? { selected: selected.length } : {}),
  });
  const t0 = ctx.now();
  try {
    const out = await callFunction({
      name: step.name,
      runner: step.runner,
      items: selected,
      functionConfig: step.functionConfig,
      validator: step.validator,
      packagePath: step.packagePath,
      limits: ctx.limits,
      env: ctx.env,
      now: ctx.now,
      signal: ctx.signal,
    });
    record(ctx.results, step, { stderr: out.stderr, exitCode: 0, results: out.results });
    ctx.emit({
      type: 'function-end',
      name: step.name,
      ok: true,
      durationMs: ctx.now() - t0,
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
      record(ctx.results, step, { stderr: callErr!.stderr, exitCode: 0, results: callErr!.results });
    } else if (stage === 'function') {
      record(ctx.results, step, {
        stderr: callErr!.exitFailure ? callErr!.stderr : '',
        exitCode: callErr!.exitFailure ? (callErr!.exitCode ?? 1) : 1,
        results: callErr!.results,
      });
      ctx.results.exitCode = 1;
    }
    ctx.emit({
      type: 'function-end',
      name: step.name,
      ok: stage === 'after-pass',
      durationMs: ctx.now() - t0,
      results: callErr?.results ?? [],
      stderr: callErr?.stderr ?? '',
      ...(callErr?.exitCode !== undefined ? { exitCode: callErr.exitCode } : {}),
      exitFailure: callErr?.exitFailure ?? false,
      ...(callErr ? { error: callErr } : {}),
    });
    throw e;
  }
}
