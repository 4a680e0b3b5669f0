/**
 * A pool of WASM workers with hard deadlines. Synchronous guests cannot be interrupted from inside
 * (JS engines have no fuel), so every call runs in a worker and, past its deadline or on abort,
 * the worker is terminated and replaced on demand. Browser-safe: workers come from an injected
 * `spawn()` (a Web Worker in browsers, `worker_threads` at the Node edge, see src/node/wasm).
 *
 * Reuse policy ("warm where safe"):
 * - WASI jobs share a small set of workers. A guest only reaches the WASI imports and the fds of
 *   its own call (fresh WASI + Instance per call), so nothing of one call is visible to the next.
 * - Go js jobs get one dedicated worker per module key: the Go program stays running there between
 *   calls (its runtime start-up is paid once) and never shares a realm with another module. The
 *   worker is dropped after any failure.
 * - `reuse: false` terminates every worker after one call (a clean realm per call, at the cost of
 *   a worker start each time).
 */
import { concatBytes } from '../bytes.ts';
import { failureFromThrown, type WasmFailure } from '../errors.ts';
import type { ProcessOutcome } from '../gojs/call.ts';
import type { WasiOutcome } from '../run-wasi.ts';
import {
  cancelledFailure,
  failedGoJs,
  failedWasi,
  timeoutFailure,
  type CallOptions,
  type GoJsJob,
  type WasiJob,
  type WasmExecutor,
  type WorkerRequest,
  type WorkerResponse,
} from './protocol.ts';

/** The few operations the pool needs from a worker, whatever its platform. */
export interface WorkerLike {
  postMessage(message: unknown, transfer: Transferable[]): void;
  /** Registers the single message and error listeners. */
  listen(onMessage: (data: unknown) => void, onError: (error: unknown) => void): void;
  terminate(): void;
  /** Node: let the process exit while the worker idles (ref again when busy). */
  ref?(): void;
  unref?(): void;
}

export interface WorkerPoolOptions {
  spawn: () => WorkerLike;
  /** Workers for WASI jobs running at once (Go js workers are extra, one per module). Default 2. */
  maxWorkers?: number;
  /** Keep workers between calls (default true). */
  reuse?: boolean;
  /**
   * A WASI worker whose guest grew its memory beyond this is retired after the call rather than
   * kept warm, so a one-off 500 MiB guest does not stay resident (default 128 MiB).
   */
  recycleAboveBytes?: number;
  /** Warm Go js programs kept at once; the least recently used is stopped beyond it (default 4). */
  maxGoWorkers?: number;
}

/** What a call ends with: the worker's reply, or the worker stopped (with the stderr streamed). */
type Settled = Exclude<WorkerResponse, { op: 'stderr' }> | { op: 'dead'; failure: WasmFailure; stderr: Uint8Array };

interface Slot {
  worker: WorkerLike;
  pending: Map<number, (r: Settled) => void>;
  /** stderr chunks streamed for each pending request. */
  streamed: Map<number, Uint8Array[]>;
  dead: boolean;
}

export class WorkerPool implements WasmExecutor {
  private readonly spawnWorker: () => WorkerLike;
  private readonly maxWorkers: number;
  private readonly reuse: boolean;
  private readonly recycleAboveBytes: number;
  private readonly maxGoWorkers: number;
  private readonly idle: Slot[] = [];
  private busy = 0;
  private readonly waiters: Array<() => void> = [];
  private readonly goWorkers = new Map<string, { slot: Slot; queue: Promise<unknown> }>();
  private nextId = 1;
  private closed = false;
  /** Workers started so far (for tests and benchmarks). */
  spawned = 0;

  constructor(opts: WorkerPoolOptions) {
    this.spawnWorker = opts.spawn;
    this.maxWorkers = Math.max(1, opts.maxWorkers ?? 2);
    this.reuse = opts.reuse ?? true;
    this.recycleAboveBytes = opts.recycleAboveBytes ?? 128 * 1048576;
    this.maxGoWorkers = Math.max(1, opts.maxGoWorkers ?? 4);
  }

  async runWasi(job: WasiJob, opts: CallOptions): Promise<WasiOutcome> {
    if (opts.signal?.aborted) return failedWasi(cancelledFailure());
    const slot = await this.acquire();
    const stdin = job.stdin.slice();
    const req: WorkerRequest = { op: 'wasi', id: this.nextId++, ...job, stdin };
    const r = await this.call(slot, req, [stdin.buffer], opts);
    if (r.op === 'wasi' && r.outcome.memoryBytes > this.recycleAboveBytes) this.kill(slot);
    this.release(slot);
    if (r.op === 'wasi') return r.outcome;
    if (r.op === 'dead') return failedWasi(r.failure, r.stderr);
    return failedWasi('failure' in r ? r.failure : unexpected(r.op));
  }

  async callGoJs(job: GoJsJob, opts: CallOptions): Promise<ProcessOutcome> {
    if (opts.signal?.aborted) return failedGoJs(cancelledFailure());
    const key = job.module.key;
    let entry = this.goWorkers.get(key);
    if (!entry || entry.slot.dead) {
      entry = { slot: this.newSlot(), queue: Promise.resolve() };
      this.goWorkers.set(key, entry);
      this.evictGoWorkers(key);
    } else {
      // Most recently used last.
      this.goWorkers.delete(key);
      this.goWorkers.set(key, entry);
    }
    const { slot } = entry;
    const run = entry.queue.then(async (): Promise<ProcessOutcome> => {
      if (slot.dead) return failedGoJs({ kind: 'worker', message: 'WASM worker stopped' });
      slot.worker.ref?.();
      const r = await this.call(slot, { op: 'gojs', id: this.nextId++, ...job }, [], opts);
      if (!slot.dead) slot.worker.unref?.();
      const outcome =
        r.op === 'gojs'
          ? r.outcome
          : r.op === 'dead'
            ? failedGoJs(r.failure, new TextDecoder().decode(r.stderr))
            : failedGoJs('failure' in r ? r.failure : unexpected(r.op));
      if (outcome.failure || !this.reuse) this.kill(slot);
      if (slot.dead && this.goWorkers.get(key)?.slot === slot) this.goWorkers.delete(key);
      return outcome;
    });
    entry.queue = run.catch(() => undefined);
    return run;
  }

  /** Stops the least recently used Go js workers beyond `maxGoWorkers` (never `keep`). */
  private evictGoWorkers(keep: string): void {
    for (const [key, entry] of this.goWorkers) {
      if (this.goWorkers.size <= this.maxGoWorkers) break;
      if (key === keep) continue;
      this.goWorkers.delete(key);
      // Let a call in flight finish first.
      void entry.queue.then(() => this.kill(entry.slot));
    }
  }

  /** Starts one idle WASI worker if none is idle and the pool has room. */
  prewarm(): void {
    if (this.closed || this.idle.length > 0 || this.busy + this.idle.length >= this.maxWorkers) return;
    const slot = this.newSlot();
    slot.worker.unref?.();
    this.idle.push(slot);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const s of this.idle.splice(0)) this.kill(s);
    for (const { slot } of this.goWorkers.values()) this.kill(slot);
    this.goWorkers.clear();
  }

  /** Workers alive now: idle WASI workers, busy ones and Go js workers. */
  get size(): { idle: number; busy: number; goJs: number } {
    return { idle: this.idle.length, busy: this.busy, goJs: this.goWorkers.size };
  }

  private newSlot(): Slot {
    if (this.closed) throw new Error('WorkerPool is closed');
    const worker = this.spawnWorker();
    this.spawned++;
    const slot: Slot = { worker, pending: new Map(), streamed: new Map(), dead: false };
    worker.listen(
      (data) => {
        const r = data as WorkerResponse;
        if (r.op === 'stderr') {
          slot.streamed.get(r.id)?.push(r.chunk);
          return;
        }
        slot.streamed.delete(r.id);
        const done = slot.pending.get(r.id);
        if (done) {
          slot.pending.delete(r.id);
          done(r);
        }
      },
      (error) => {
        const failure: WasmFailure = {
          kind: 'worker',
          message: `WASM worker failed: ${failureFromThrown(error).message}`,
        };
        this.kill(slot, failure);
      },
    );
    return slot;
  }

  private async acquire(): Promise<Slot> {
    for (;;) {
      const slot = this.idle.pop();
      if (slot && !slot.dead) {
        this.busy++;
        slot.worker.ref?.();
        return slot;
      }
      if (this.busy + this.idle.length < this.maxWorkers) {
        this.busy++;
        try {
          return this.newSlot();
        } catch (e) {
          this.busy--;
          throw e;
        }
      }
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  private release(slot: Slot): void {
    this.busy--;
    if (!slot.dead && this.reuse && !this.closed) {
      slot.worker.unref?.();
      this.idle.push(slot);
    } else {
      this.kill(slot);
    }
    this.waiters.shift()?.();
  }

  private kill(slot: Slot, failure: WasmFailure = { kind: 'worker', message: 'WASM worker stopped' }): void {
    if (slot.dead) return;
    slot.dead = true;
    slot.worker.terminate();
    for (const [id, done] of slot.pending)
      done({ op: 'dead', failure, stderr: concatBytes(slot.streamed.get(id) ?? []) });
    slot.pending.clear();
    slot.streamed.clear();
    const i = this.idle.indexOf(slot);
    if (i >= 0) this.idle.splice(i, 1);
  }

  /** Posts one request and waits for its reply, the deadline or the abort, whichever is first. */
  private call(slot: Slot, req: WorkerRequest, transfer: Transferable[], opts: CallOptions): Promise<Settled> {
    return new Promise((resolve) => {
      let settled = false;
      const finish = (r: Settled): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        opts.signal?.removeEventListener('abort', onAbort);
        resolve(r);
      };
      const stop = (failure: WasmFailure): void => {
        const stderr = concatBytes(slot.streamed.get(req.id) ?? []);
        slot.pending.delete(req.id);
        slot.streamed.delete(req.id);
        this.kill(slot, failure);
        finish({ op: 'dead', failure, stderr });
      };
      const onAbort = (): void => stop(cancelledFailure());
      const timer = setTimeout(
        () => stop(timeoutFailure(opts.timeoutMs)),
        Math.min(Math.max(0, opts.timeoutMs), 2 ** 31 - 1),
      );
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      slot.pending.set(req.id, finish);
      slot.streamed.set(req.id, []);
      try {
        slot.worker.postMessage(req, transfer);
      } catch (e) {
        stop({ kind: 'worker', message: `cannot post to the WASM worker: ${failureFromThrown(e).message}` });
      }
    });
  }
}

function unexpected(op: string): WasmFailure {
  return { kind: 'worker', message: `unexpected reply ${JSON.stringify(op)} from the WASM worker` };
}
