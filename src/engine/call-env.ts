/**
 * One call context (`CallEnv`) per render or eval run (docs/architecture.md, "One function call"):
 * everything a function call needs from the host and the run, created once by `createCallEnv` and
 * passed down unchanged from render/eval through the pipeline step to the runner. Per-call data (the
 * pipeline entry, its config, the input items) travels separately (`FunctionCall`, src/engine/call.ts).
 * The only derived copies are a parallel sibling's (src/engine/sibling-render.ts), which buffers
 * its events and results until they are folded back in kpt's order.
 *
 * Runtimes see two views of it, built here and nowhere else: `ResolveContext` when a runtime picks a
 * runner, `RunContext` for each attempt under its deadline.
 */
import type { CallGrants, FunctionRuntime, ResolveContext, RunContext } from '../core/function.ts';
import type { KptVersion } from '../core/kpt-version.ts';
import { withLimits } from '../core/limits.ts';
import type { Limits } from '../core/limits.ts';
import type { FunctionResultList } from '../core/result.ts';
import { newResultList } from '../core/results-file.ts';
import type { PackageFs } from '../core/fs.ts';
import type { EventSink } from './events.ts';
import { kptLevel, type KptLevel } from './kpt-level.ts';

export interface CallEnv extends Readonly<CallGrants> {
  /** The runtime chain that turns a pipeline function into a runner (src/engine/chain.ts). */
  readonly runtime: FunctionRuntime;
  /** The kpt release the run imitates: image naming, messages, text (src/engine/kpt-level.ts). */
  readonly level: KptLevel;
  /** The user's cancellation; each call adds its own deadline (src/engine/deadline.ts). */
  readonly signal: AbortSignal | undefined;
  /** Where progress events go (kpt's `[RUNNING]`/`[PASS]` text is made from them). */
  readonly emit: EventSink;
  /** The run's function results, one item per call in order (`results.yaml`). */
  readonly results: FunctionResultList;
}

/** The host options a call context is made from (render's and eval's `EngineHost` satisfy it). */
export interface CallEnvOptions {
  runtime: FunctionRuntime;
  fs?: PackageFs | undefined;
  cwd?: string | undefined;
  env?: Readonly<Record<string, string>> | undefined;
  limits?: Partial<Limits> | undefined;
  now?: (() => number) | undefined;
  signal?: AbortSignal | undefined;
  onEvent?: EventSink | undefined;
  allowWasm?: boolean | undefined;
  allowNetwork?: boolean | undefined;
  kptVersion?: KptVersion | undefined;
}

/**
 * The call context of one run. `allowExec` is the caller's decision: render needs the host's
 * `--allow-exec`, eval grants exec (the user named the function on the command line).
 */
export function createCallEnv(host: CallEnvOptions, allowExec: boolean): CallEnv {
  const onEvent = host.onEvent;
  return {
    runtime: host.runtime,
    level: kptLevel(host.kptVersion),
    limits: withLimits(host.limits),
    now: host.now ?? Date.now,
    signal: host.signal,
    env: host.env ?? {},
    ...(host.fs ? { fs: host.fs } : {}),
    cwd: host.cwd ?? '/',
    allowExec,
    allowWasm: host.allowWasm ?? false,
    allowNetwork: host.allowNetwork ?? false,
    emit: onEvent ? (e) => onEvent(e) : () => {},
    results: newResultList(),
  };
}

/** What a runtime sees when it resolves `displayName` for the package at `packagePath`. */
export function resolveContext(env: CallEnv, displayName: string, packagePath: string): ResolveContext {
  return {
    displayName,
    packagePath,
    cwd: env.cwd,
    allowExec: env.allowExec,
    allowWasm: env.allowWasm,
    allowNetwork: env.allowNetwork,
    ...(env.fs ? { fs: env.fs } : {}),
    limits: env.limits,
  };
}

/** What a runner sees of one attempt under its deadline. */
export function runContext(env: CallEnv, signal: AbortSignal, deadline: number, validator: boolean): RunContext {
  return { limits: env.limits, signal, deadline, now: env.now, env: env.env, validator };
}
