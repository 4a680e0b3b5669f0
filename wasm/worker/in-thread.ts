/**
 * An executor that runs jobs on the calling thread: the cheapest path (no worker start, no
 * message copies) but with **no hard deadline** — a guest that never returns blocks the thread.
 * The deadline is only checked before and after the call (a late result becomes a timeout). Use it
 * for trusted modules, tests and benchmarks; untrusted code belongs in a `WorkerPool`.
 */
import type { ProcessOutcome } from '../gojs/call.ts';
import type { WasiOutcome } from '../run-wasi.ts';
import { runWasiJob } from './run-job.ts';
import { createJobHandler } from './handler.ts';
import {
  cancelledFailure,
  failedGoJs,
  failedWasi,
  timeoutFailure,
  type CallOptions,
  type GoJsJob,
  type WasiJob,
  type WasmExecutor,
} from './protocol.ts';

export function createInThreadExecutor(): WasmExecutor {
  const handler = createJobHandler();
  return {
    async runWasi(job: WasiJob, opts: CallOptions): Promise<WasiOutcome> {
      if (opts.signal?.aborted) return failedWasi(cancelledFailure());
      const t0 = performance.now();
      const out = await runWasiJob(job);
      if (performance.now() - t0 > opts.timeoutMs) return failedWasi(timeoutFailure(opts.timeoutMs));
      return out;
    },
    async callGoJs(job: GoJsJob, opts: CallOptions): Promise<ProcessOutcome> {
      if (opts.signal?.aborted) return failedGoJs(cancelledFailure());
      const t0 = performance.now();
      const out = await handler.runGoJs(job);
      if (performance.now() - t0 > opts.timeoutMs) return failedGoJs(timeoutFailure(opts.timeoutMs));
      return out;
    },
    async close(): Promise<void> {
      handler.close();
    },
  };
}
