/**
 * The render workers of `krmfn serve`: a fixed number of `worker_threads`, each running one job at
 * a time, so renders and Starlark (synchronous code that can spin) never hold the main thread,
 * which keeps answering `/healthz` and reading requests. Jobs beyond the pool wait in order.
 *
 * A job's `signal` (its deadline, or its client going away) terminates the worker running it; a
 * worker that throws, exits or runs out of its heap (`maxHeapMb`) fails only its own job with an
 * `internal` error. Dead workers are replaced on demand; idle workers are unref'd so they never keep
 * a process alive by themselves.
 */
import { Worker } from 'node:worker_threads';
import { KrmfnError } from '../../core/errors.ts';
import {
  errorFromData,
  type JobReply,
  type JobRequest,
  type WorkerAnswer,
  type WorkerSetup,
} from './worker-protocol.ts';

export interface ServeWorkerPoolOptions {
  script: URL | Promise<URL>;
  setup: WorkerSetup;
  /** Workers running at once (at least 1). */
  size: number;
  /** Old-generation heap of each worker, in MiB (default 1024). */
  maxHeapMb?: number;
}

interface Slot {
  worker: Worker;
  /** The job running in it. */
  job?: { id: number; settle(answer: WorkerAnswer | { id: number; died: Error }): void };
  dead: boolean;
}

export class ServeWorkerPool {
  private readonly opts: ServeWorkerPoolOptions;
  private readonly idle: Slot[] = [];
  private readonly waiting: Array<(slot: Slot | Error) => void> = [];
  private alive = 0;
  private nextId = 1;
  private closed = false;
  /** Workers started so far, and workers lost to a crash or a deadline (for tests and logs). */
  spawned = 0;
  lost = 0;

  constructor(opts: ServeWorkerPoolOptions) {
    this.opts = { ...opts, size: Math.max(1, opts.size) };
  }

  async call(request: JobRequest, signal: AbortSignal): Promise<JobReply> {
    signal.throwIfAborted();
    const slot = await this.acquire(signal);
    const id = this.nextId++;
    slot.worker.ref();
    const answer = await new Promise<WorkerAnswer | { id: number; died: Error }>((settle) => {
      const onAbort = (): void => {
        settle({ id, died: asError(signal.reason) });
        this.kill(slot);
      };
      slot.job = {
        id,
        settle: (a) => {
          signal.removeEventListener('abort', onAbort);
          settle(a);
        },
      };
      signal.addEventListener('abort', onAbort, { once: true });
      slot.worker.postMessage({ id, ...request });
    });
    slot.job = undefined;
    this.release(slot);
    if ('died' in answer) throw answer.died;
    if (!answer.ok) throw errorFromData(answer.error);
    return answer.value;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const w of this.waiting.splice(0)) w(new KrmfnError({ code: 'internal', message: 'server is closing' }));
    const all = this.idle.splice(0);
    await Promise.all(all.map((s) => s.worker.terminate()));
  }

  /** Workers alive now. */
  get size(): number {
    return this.alive;
  }

  private acquire(signal: AbortSignal): Promise<Slot> {
    const ready = this.idle.pop();
    if (ready) return Promise.resolve(ready);
    if (this.alive < this.opts.size) return this.spawn();
    return new Promise<Slot>((resolve, reject) => {
      const take = (slot: Slot | Error): void => {
        signal.removeEventListener('abort', onAbort);
        if (slot instanceof Error) reject(slot);
        else resolve(slot);
      };
      const onAbort = (): void => {
        const i = this.waiting.indexOf(take);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(asError(signal.reason));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(take);
    });
  }

  private release(slot: Slot): void {
    if (slot.dead) return;
    const next = this.waiting.shift();
    if (next) return next(slot);
    if (this.closed) {
      this.kill(slot);
      return;
    }
    slot.worker.unref();
    this.idle.push(slot);
  }

  private async spawn(): Promise<Slot> {
    if (this.closed) throw new KrmfnError({ code: 'internal', message: 'server is closing' });
    this.alive++;
    this.spawned++;
    let script: URL;
    try {
      script = await this.opts.script;
    } catch (e) {
      this.alive--;
      throw e;
    }
    const worker = new Worker(script, {
      workerData: this.opts.setup,
      resourceLimits: { maxOldGenerationSizeMb: this.opts.maxHeapMb ?? 1024 },
      stdout: true,
      stderr: true,
    });
    // A worker's own console output is not part of any response.
    worker.stdout.resume();
    worker.stderr.resume();
    const slot: Slot = { worker, dead: false };
    worker.on('message', (a: WorkerAnswer) => {
      if (slot.job?.id === a.id) slot.job.settle(a);
    });
    const died = (why: string): void => {
      const job = slot.job;
      this.kill(slot);
      if (job) {
        this.lost++;
        job.settle({ id: job.id, died: new KrmfnError({ code: 'internal', message: `render worker ${why}` }) });
      }
    };
    worker.on('error', (e) => died(`failed: ${e.message}`));
    worker.on('exit', (code) => died(`exited with code ${code}`));
    return slot;
  }

  /** Stops a worker and, when jobs wait, starts its replacement for the first of them. */
  private kill(slot: Slot): void {
    if (slot.dead) return;
    slot.dead = true;
    this.alive--;
    const i = this.idle.indexOf(slot);
    if (i >= 0) this.idle.splice(i, 1);
    void slot.worker.terminate();
    const next = this.waiting.shift();
    if (next) this.spawn().then(next, next);
  }
}

function asError(reason: unknown): Error {
  return reason instanceof Error ? reason : new KrmfnError({ code: 'internal', message: String(reason) });
}
