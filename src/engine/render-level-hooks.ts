/**
 * The points where render hands its state to the compatibility level's status strategy
 * (src/engine/render-status.ts): recording each step as kpt's `captureStepResult` /
 * `preExecFailureStep` do (kptdev/kpt pkg/lib/kptops/render_executor.go at v1.0.0-beta.67), and
 * rewriting the root Kptfile after a successful plan or a failed run.
 */
import type { PipelineEntry } from './pipeline-config.ts';
import { kptRenderErrorText, type StepRecord } from './render-status.ts';
import type { RenderState } from './render.ts';
import type { EngineFailure } from './types.ts';
import { applyPlan, attribute, planWrite, relativize, type WritePlan } from './write.ts';
import type { Kptfile } from '../core/kptfile.ts';
import type { KubeObject } from '../core/kube-object.ts';
import type { KptLevel } from './kpt-level.ts';
import { join } from './paths.ts';

const enc = new TextEncoder();
const dec = new TextDecoder();

/**
 * Runs `work` (resolving or running entry `e`) and records the step: the function's result item
 * when it added one, otherwise, on failure, `exitCode: 1` and the error as `executionError`.
 * `resolving`: a successful resolution is not a step. `image()` is the image as kpt holds it at
 * that point (resolved; '' after a failed tag resolution, which kpt leaves empty).
 */
export async function recordStep<T>(
  st: RenderState,
  e: PipelineEntry,
  resolving: boolean,
  image: () => string | undefined,
  work: () => Promise<T>,
): Promise<T> {
  const before = st.env.results.items.length;
  const base = (): StepRecord => {
    const shown = e.spec.image ? (image() ?? e.spec.image) : undefined;
    return {
      validator: e.validator,
      ...(e.spec.name ? { name: e.spec.name } : {}),
      ...(shown ? { image: shown } : {}),
      ...(e.spec.exec ? { exec: e.spec.exec } : {}),
      exitCode: 0,
      results: [],
    };
  };
  try {
    const out = await work();
    if (!resolving) {
      const item = st.env.results.items[st.env.results.items.length - 1];
      const rec = base();
      if (item && st.env.results.items.length > before) {
        if (item.stderr) rec.stderr = item.stderr;
        rec.exitCode = item.exitCode;
        rec.results = item.results ?? [];
      }
      st.steps.push(rec);
    }
    return out;
  } catch (err) {
    const rec = base();
    const item = st.env.results.items[st.env.results.items.length - 1];
    if (!resolving && item && st.env.results.items.length > before) {
      if (item.stderr) rec.stderr = item.stderr;
      rec.exitCode = item.exitCode;
      rec.results = item.results ?? [];
    } else {
      rec.exitCode = 1;
      rec.executionError = err instanceof Error ? err.message : String(err);
    }
    st.steps.push(rec);
    throw err;
  }
}

export function renderErrorForStatus(st: RenderState, root: string, failure: EngineFailure): string {
  const failed = st.failedPackage ?? root;
  // Top-down hydration wraps a pipeline's error with the root package (kpt's hydrateBfsOrder).
  const outer = st.topDown ? root : failed;
  if (st.failedBeforeRun !== undefined)
    return kptRenderErrorText(st.opts.cwd ?? '/', root, outer, st.failedBeforeRun, false);
  const cause = failure.style === 'none' ? 'already handled error' : failure.error.message;
  return kptRenderErrorText(st.opts.cwd ?? '/', root, outer, cause, true, failed);
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** The root Kptfile in the plan (or as read) gets the level's status (`error` undefined: success). */
export function applyRenderStatus(st: RenderState, plan: WritePlan, root: string, error?: string): void {
  const path = join(root, 'Kptfile');
  const current = plan.writes.get(path) ?? st.originals.get(path);
  if (!current) return;
  const updated = st.env.level.status.update(dec.decode(current), {
    steps: st.steps,
    ...(error !== undefined ? { error } : {}),
  });
  if (updated === undefined) return;
  const bytes = enc.encode(updated);
  const original = st.originals.get(path);
  plan.writes.set(path, original && sameBytes(original, bytes) ? original : bytes);
}

/** Failure: the root Kptfile on disk gets the level's status; errors are ignored, as kpt does. */
export async function writeFailureStatus(st: RenderState, root: string, error: string): Promise<void> {
  const path = join(root, 'Kptfile');
  try {
    const current = await st.opts.fs.readFile(path);
    const updated = st.env.level.status.update(dec.decode(current), { steps: st.steps, error });
    if (updated !== undefined) await st.opts.fs.writeFile(path, enc.encode(updated));
  } catch {
    // kpt logs the failure at verbosity 3 and keeps the render error.
  }
}

/** Whether the root Kptfile turns on kpt's save-on-render-failure (kpt's `ToCondition(value) == True`). */
export function saveOnFailureRequested(level: KptLevel, kptfile: Kptfile): boolean {
  return annotationIsTrue(kptfile, level.saveOnFailureAnnotation);
}

/**
 * kpt beta.67's `kpt.dev/bfs-rendering: "true"` on the root Kptfile: hydrate top-down
 * (kptdev/kpt pkg/lib/kptops/render_executor.go at v1.0.0-beta.67, `hydrateBfsOrder`).
 */
export function bfsRenderingRequested(level: KptLevel, kptfile: Kptfile): boolean {
  return annotationIsTrue(kptfile, level.bfsRenderAnnotation);
}

/** kpt's `ToCondition(value) == ConditionTrue` (api/kptfile/v1/types.go at v1.0.0-beta.67). */
function annotationIsTrue(kptfile: Kptfile, key: string | undefined): boolean {
  const value = key === undefined ? undefined : kptfile.metadata.annotations?.[key];
  return value !== undefined && value.toLowerCase() === 'true';
}

/**
 * kpt beta.67 with `kpt.dev/save-on-render-failure: "true"`: the root's partial resources are
 * written as a successful render writes them, but no file is deleted; then the root Kptfile gets
 * the failure status. `items` is empty when the root kept nothing (a failure deeper than a direct
 * subpackage). Write errors are ignored: the render error stays the one reported.
 */
export async function saveFailedRender(
  st: RenderState,
  root: string,
  items: KubeObject[],
  error: string,
  attribution: boolean,
): Promise<void> {
  try {
    relativize(items, root);
    if (attribution) attribute(items);
    const plan = await planWrite(st.opts.fs, items, { root, readFiles: st.readFiles, originals: st.originals });
    plan.deletes = [];
    applyRenderStatus(st, plan, root, error);
    await applyPlan(st.opts.fs, plan, st.originals);
    if (!plan.writes.has(join(root, 'Kptfile'))) await writeFailureStatus(st, root, error);
  } catch {
    await writeFailureStatus(st, root, error);
  }
}
