/**
 * Messages between a host and a WASM worker. Everything is structured-cloneable: a compiled
 * `WebAssembly.Module` is shared, not recompiled; stdin and outputs travel as transferred buffers.
 */
import type { WasmFailure } from '../errors.ts';
import type { ProcessOutcome } from '../gojs/call.ts';
import type { PreparedModule } from '../module-cache.ts';
import type { ReadOnlyTree } from '../readonly-tree.ts';
import type { WasiOutcome } from '../run-wasi.ts';

/** One WASI command run (fresh WASI and Instance inside the worker). */
export interface WasiJob {
  module: PreparedModule;
  stdin: Uint8Array;
  args?: readonly string[];
  env?: Readonly<Record<string, string>>;
  maxOutputBytes: number;
  fs?: ReadOnlyTree;
  /** Record an strace-style log of the WASI calls (returned in `WasiOutcome.trace`). */
  trace?: boolean;
}

/** One `processResourceList` call on the worker's warm Go instance for `module.key`. */
export interface GoJsJob {
  module: PreparedModule;
  input: string;
  maxOutputBytes: number;
  env?: Readonly<Record<string, string>>;
}

export type WorkerRequest = ({ op: 'wasi' } & WasiJob & { id: number }) | ({ op: 'gojs' } & GoJsJob & { id: number });

/**
 * The worker's messages: one final reply per request, preceded by `stderr` events streaming the
 * first `STREAMED_STDERR_BYTES` of the guest's stderr as it writes it, so a call terminated at its
 * deadline still reports what the guest said before it hung.
 */
export type WorkerResponse =
  | { id: number; op: 'stderr'; chunk: Uint8Array }
  | { id: number; op: 'wasi'; outcome: WasiOutcome }
  | { id: number; op: 'gojs'; outcome: ProcessOutcome }
  | { id: number; op: 'error'; failure: WasmFailure };

export const STREAMED_STDERR_BYTES = 64 * 1024;
/** Trace lines kept per call (the rest are counted in a final line). */
export const MAX_TRACE_LINES = 10_000;

/** Deadline and cancellation of one call. */
export interface CallOptions {
  /** Milliseconds the call may take; past it the worker is terminated. */
  timeoutMs: number;
  signal?: AbortSignal;
}

/** Runs WASM jobs somewhere: in this thread, in a pool of workers, in a remote service. */
export interface WasmExecutor {
  runWasi(job: WasiJob, opts: CallOptions): Promise<WasiOutcome>;
  callGoJs(job: GoJsJob, opts: CallOptions): Promise<ProcessOutcome>;
  /** Terminates workers and drops warm instances. */
  close(): Promise<void>;
  /** Starts a worker ahead of the first call (hides its start-up behind loading and compiling). */
  prewarm?(): void;
}

export function timeoutFailure(ms: number): WasmFailure {
  return { kind: 'timeout', message: `function timed out after ${Math.round(ms)} ms` };
}

export function cancelledFailure(): WasmFailure {
  return { kind: 'cancelled', message: 'function cancelled' };
}

export function failedWasi(failure: WasmFailure, stderr: Uint8Array = new Uint8Array(0)): WasiOutcome {
  return { exitCode: 1, stdout: new Uint8Array(0), stderr, failure, memoryBytes: 0 };
}

export function failedGoJs(failure: WasmFailure, stderr = ''): ProcessOutcome {
  return { ok: false, output: '', errors: '', stderr, failure };
}
