/**
 * Sibling subpackages hydrated concurrently (render's `jobs` option), with output identical to
 * hydrating them one after another as kpt does (docs/kpt-semantics.md; kptdev/kpt
 * internal/util/render/executor.go `hydrate` at v1.0.0-beta.56: a package's subpackages are
 * hydrated in order and none sees another's output, so their work is independent).
 *
 * Contract of `siblingHydration(st, count, hydrateOne)`, whose `take(i)` the caller awaits for
 * i = 0, 1, ... in kpt's order:
 * - jobs <= 1 (the default) or fewer than two siblings: `take(i)` is `hydrateOne(st, i)`, run then,
 *   on the render state itself: exactly the sequential render.
 * - otherwise every sibling starts at once on a fork of the state: its own events buffer, result
 *   list, step records, counters, files read and cycle-detection set. At most `jobs` hydrations run
 *   at a time over the whole render (one slot is the caller's own): a sibling that finds no free
 *   slot runs in its caller instead of waiting, so nested packages can never deadlock the pool.
 *   `take(i)` waits for sibling i, then folds its fork into the state in order (events replayed,
 *   results, steps and files appended, counters added) and returns its items or throws its error.
 *   After a failure the caller stops taking; `take` first waits for every sibling still running, so
 *   no work outlives the render, and the folded state is what kpt's would be: later siblings' work
 *   is dropped (it ran, but its results, events and files are never seen).
 */
import type { KubeObject } from '../core/kube-object.ts';
import { newResultList } from '../core/results-file.ts';
import type { EngineEvent } from './events.ts';
import type { RenderState } from './render.ts';

export interface SiblingHydration {
  take(i: number): Promise<KubeObject[]>;
}

/** Slots of concurrent hydration shared by one render (the render's own flow holds one). */
export interface JobSlots {
  free: number;
}

const slotsOfRender = new WeakMap<RenderState['opts'], JobSlots>();

function slotsFor(st: RenderState, jobs: number): JobSlots {
  let slots = slotsOfRender.get(st.opts);
  if (!slots) slotsOfRender.set(st.opts, (slots = { free: jobs - 1 }));
  return slots;
}

interface Fork {
  state: RenderState;
  events: EngineEvent[];
  done: Promise<KubeObject[]>;
}

function fork(st: RenderState): { state: RenderState; events: EngineEvent[] } {
  const events: EngineEvent[] = [];
  const state: RenderState = {
    ...st,
    env: { ...st.env, emit: (e) => events.push(e), results: newResultList() },
    visiting: new Set(st.visiting),
    readFiles: [],
    originals: new Map(),
    functionsRun: 0,
    packagesRun: 0,
    packagesVisited: 0,
    steps: [],
    failedPackage: undefined,
    pipelineItems: undefined,
    partial: undefined,
  };
  return { state, events };
}

/** Folds a finished fork into `st` as if its work had been done on `st` itself. */
function fold(st: RenderState, f: Fork, failed: boolean): void {
  const s = f.state;
  for (const e of f.events) st.env.emit(e);
  st.env.results.items.push(...s.env.results.items);
  if (s.env.results.exitCode !== 0) st.env.results.exitCode = s.env.results.exitCode;
  st.steps.push(...s.steps);
  st.readFiles.push(...s.readFiles);
  for (const [k, v] of s.originals) st.originals.set(k, v);
  st.functionsRun += s.functionsRun;
  st.packagesRun += s.packagesRun;
  st.packagesVisited += s.packagesVisited;
  if (s.failedPackage !== undefined) st.failedPackage ??= s.failedPackage;
  if (s.pipelineItems !== undefined) st.pipelineItems = s.pipelineItems;
  if (failed) st.partial = s.partial;
}

export function siblingHydration(
  st: RenderState,
  count: number,
  hydrateOne: (state: RenderState, i: number) => Promise<KubeObject[]>,
): SiblingHydration {
  const jobs = st.opts.jobs ?? 1;
  if (jobs <= 1 || count < 2) return { take: (i) => hydrateOne(st, i) };
  const slots = slotsFor(st, jobs);
  const forks: Fork[] = [];
  let chain: Promise<unknown> = Promise.resolve();
  for (let i = 0; i < count; i++) {
    const { state, events } = fork(st);
    let done: Promise<KubeObject[]>;
    if (slots.free > 0) {
      slots.free--;
      done = hydrateOne(state, i).finally(() => slots.free++);
    } else {
      // No free slot: this sibling runs in the caller's own flow, after the ones before it.
      done = chain.then(() => hydrateOne(state, i));
      chain = done.catch(() => undefined);
    }
    done.catch(() => undefined);
    forks.push({ state, events, done });
  }
  return {
    async take(i) {
      const f = forks[i];
      try {
        const items = await f.done;
        fold(st, f, false);
        return items;
      } catch (e) {
        await Promise.allSettled(forks.map((x) => x.done));
        fold(st, f, true);
        throw e;
      }
    },
  };
}
