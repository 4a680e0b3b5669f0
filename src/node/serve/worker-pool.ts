/**
 * The render workers of `krmfn serve`: a fixed number of worker processes, each running one job at
 * a time, so renders and Starlark (synchronous code that can spin) never hold the main thread,
 * which keeps answering `/healthz` and reading requests. Jobs beyond the pool wait in order.
 *
 * A job's `signal` (its deadline, or its client going away) kills the worker running it; a worker
 * that throws, exits or runs out of its heap (`maxHeapMb`) fails only its own job with an
 * `internal` error. Dead workers are replaced on demand; idle workers are unref'd so they never keep
 * a process alive by themselves.
 *
 * Processes, not `worker_threads`: a thread that reaches its `resourceLimits` heap can still abort
 * the whole process (Node documents it for worker `resourceLimits`; nodejs/node issue 47224 shows
 * it for a plain allocation loop, and it reproduced here on Node 20 with a Starlark list doubling),
 * and a worker's crash must never take the server down. Messages use the IPC channel's structured
 * clone (`serialization: 'advanced'`), so Maps and byte arrays cross as they are.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
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
  setup: WorkerSetup | Promise<WorkerSetup>;
  /** Workers running at once (at least 1). */
  size: number;
  /** Old-generation heap of each worker, in MiB (default 1024). */
  maxHeapMb?: number;
}

interface Slot {
  worker: ChildProcess;
  /** The job running in it. */
  job?: { id: number; settle(answer: WorkerAnswer | { id: number; died: Error }): void };
  dead: boolean;
}

export class ServeWorkerPool {
  private readonly opts: ServeWorkerPoolOptions;
  private readonly idle: Slot[] = [];
  private readonly waiting: Array<(slot: Slot | Error) => void> = [];
  private alive = 0;
  private busy = 0;
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
    if (signal.aborted) {
      this.release(slot);
      throw asError(signal.reason);
    }
    const id = this.nextId++;
    ref(slot.worker, true);
    this.busy++;
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
      slot.worker.send({ id, ...request });
    });
    slot.job = undefined;
    this.busy--;
    this.release(slot);
    if ('died' in answer) throw answer.died;
    if (!answer.ok) throw errorFromData(answer.error);
    return answer.value;
  }

  /** Starts every worker now, so the first requests do not wait for a process to start. */
  prewarm(): void {
    while (this.alive < this.opts.size && !this.closed)
      this.spawn().then(
        (slot) => this.release(slot),
        () => undefined,
      );
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const w of this.waiting.splice(0)) w(new KrmfnError({ code: 'internal', message: 'server is closing' }));
    for (const s of this.idle.splice(0)) this.kill(s);
  }

  /** Workers alive now. */
  get size(): number {
    return this.alive;
  }

  /** Jobs handed to a worker and not yet answered. */
  get running(): number {
    return this.busy;
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
    ref(slot.worker, false);
    this.idle.push(slot);
  }

  private async spawn(): Promise<Slot> {
    if (this.closed) throw new KrmfnError({ code: 'internal', message: 'server is closing' });
    this.alive++;
    this.spawned++;
    let script: URL;
    let setup: WorkerSetup;
    try {
      [script, setup] = await Promise.all([this.opts.script, this.opts.setup]);
    } catch (e) {
      this.alive--;
      throw e;
    }
    const worker = fork(fileURLToPath(script), [], {
      serialization: 'advanced',
      execArgv: [`--max-old-space-size=${this.opts.maxHeapMb ?? 1024}`],
      // A worker's own output is not part of any response, nor of the server's log.
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    });
    // The first message sets the worker up; the channel keeps messages in order.
    worker.send({ setup });
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
    worker.on('exit', (code, sig) => died(`exited with ${sig ? `signal ${sig}` : `code ${code}`}`));
    return slot;
  }

  /** Stops a worker and, when jobs wait, starts its replacement for the first of them. */
  private kill(slot: Slot): void {
    if (slot.dead) return;
    slot.dead = true;
    this.alive--;
    const i = this.idle.indexOf(slot);
    if (i >= 0) this.idle.splice(i, 1);
    slot.worker.kill('SIGKILL');
    const next = this.waiting.shift();
    if (next) this.spawn().then(next, next);
  }
}

/** Whether a worker process keeps the event loop (and so the server's process) alive. */
function ref(worker: ChildProcess, on: boolean): void {
  const channel = worker.channel as { ref(): void; unref(): void } | null | undefined;
  if (on) {
    worker.ref();
    channel?.ref();
  } else {
    worker.unref();
    channel?.unref();
  }
}

function asError(reason: unknown): Error {
  return reason instanceof Error ? reason : new KrmfnError({ code: 'internal', message: String(reason) });
}
