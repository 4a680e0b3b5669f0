/**
 * The worker side of the protocol, shared by the Web Worker entry (web-entry.ts) and the Node
 * `worker_threads` entry (src/node/wasm). Keeps at most one warm Go instance per module key and
 * discards it after any failure or exit; WASI runs keep no state between calls.
 */
import { failureFromThrown } from '../errors.ts';
import { callProcessResourceList, type ProcessOutcome } from '../gojs/call.ts';
import { GoJsInstance } from '../gojs/instance.ts';
import { runWasiJob } from './run-job.ts';
import { STREAMED_STDERR_BYTES, type GoJsJob, type WorkerRequest, type WorkerResponse } from './protocol.ts';

export interface Reply {
  response: WorkerResponse;
  transfer: ArrayBuffer[];
}

/**
 * `notify` receives the `stderr` events of a request (see protocol.ts); without it nothing is
 * streamed.
 */
export function createJobHandler(notify?: (event: WorkerResponse) => void): {
  handle(req: WorkerRequest): Promise<Reply>;
  runGoJs(job: GoJsJob, onOutput?: (chunk: Uint8Array) => void): Promise<ProcessOutcome>;
  close(): void;
} {
  const instances = new Map<string, GoJsInstance>();
  /** The current call's output observer (Go instances outlive calls; the observer does not). */
  let goOutput: ((chunk: Uint8Array) => void) | undefined;

  async function runGoJs(job: GoJsJob, onOutput?: (chunk: Uint8Array) => void): Promise<ProcessOutcome> {
    goOutput = onOutput;
    try {
      return await runGoJsCall(job);
    } finally {
      goOutput = undefined;
    }
  }

  async function runGoJsCall(job: GoJsJob): Promise<ProcessOutcome> {
    let inst = instances.get(job.module.key);
    if (!inst || inst.isDead) {
      inst = new GoJsInstance(job.module, {
        maxOutputBytes: job.maxOutputBytes,
        onOutput: (chunk) => goOutput?.(chunk),
        ...(job.env ? { env: job.env } : {}),
      });
      const started = await inst.start();
      if (started.failure)
        return { ok: false, output: '', errors: '', stderr: started.stderr, failure: started.failure };
      instances.set(job.module.key, inst);
    }
    const outcome = callProcessResourceList(inst, job.input);
    if (outcome.failure || inst.isDead) {
      inst.kill();
      instances.delete(job.module.key);
    }
    return outcome;
  }

  /** Streams the first STREAMED_STDERR_BYTES of a request's stderr through `notify`. */
  function streamer(id: number): ((chunk: Uint8Array) => void) | undefined {
    if (!notify) return undefined;
    let left = STREAMED_STDERR_BYTES;
    return (chunk) => {
      if (left <= 0) return;
      const part = chunk.byteLength > left ? chunk.slice(0, left) : chunk.slice();
      left -= part.byteLength;
      notify({ id, op: 'stderr', chunk: part });
    };
  }

  async function handle(req: WorkerRequest): Promise<Reply> {
    try {
      const onStderr = streamer(req.id);
      if (req.op === 'wasi') {
        const outcome = await runWasiJob(req, onStderr);
        return {
          response: { id: req.id, op: 'wasi', outcome },
          transfer: transferable(outcome.stdout, outcome.stderr),
        };
      }
      const outcome = await runGoJs(req, onStderr);
      return { response: { id: req.id, op: 'gojs', outcome }, transfer: [] };
    } catch (e) {
      return { response: { id: req.id, op: 'error', failure: failureFromThrown(e) }, transfer: [] };
    }
  }

  return {
    handle,
    runGoJs,
    close(): void {
      for (const i of instances.values()) i.kill();
      instances.clear();
    },
  };
}

/** Buffers that can be transferred: each must be a whole, distinct ArrayBuffer. */
function transferable(...views: Uint8Array[]): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  for (const v of views) {
    const b = v.buffer;
    if (
      b instanceof ArrayBuffer &&
      v.byteOffset === 0 &&
      v.byteLength === b.byteLength &&
      b.byteLength > 0 &&
      !out.includes(b)
    )
      out.push(b);
  }
  return out;
}
