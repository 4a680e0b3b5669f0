/** Runs one `WasiJob` on this thread (used inside workers and by the in-thread executor). */
import { runWasi, type WasiOutcome } from '../run-wasi.ts';
import { MAX_TRACE_LINES, type WasiJob } from './protocol.ts';

export async function runWasiJob(job: WasiJob, onStderr?: (chunk: Uint8Array) => void): Promise<WasiOutcome> {
  let trace: string[] | undefined;
  let dropped = 0;
  const outcome = await runWasi({
    module: job.module,
    stdin: job.stdin,
    ...(job.args ? { args: job.args } : {}),
    ...(job.env ? { env: job.env } : {}),
    ...(job.fs ? { fs: job.fs } : {}),
    ...(onStderr ? { onStderr } : {}),
    ...(job.trace
      ? {
          trace: (line: string) => {
            trace ??= [];
            if (trace.length < MAX_TRACE_LINES) trace.push(line);
            else dropped++;
          },
        }
      : {}),
    limits: { maxOutputBytes: job.maxOutputBytes },
  });
  if (trace) {
    if (dropped > 0) trace.push(`... ${dropped} more calls not recorded`);
    outcome.trace = trace;
  }
  return outcome;
}
