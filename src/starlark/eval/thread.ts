/**
 * The Thread: one script run's execution context and sandbox. It owns the call stack, the step
 * counter (checked cheaply: compiled loops and calls do `if (--th.tick <= 0) th.poll()`; the
 * clock and the AbortSignal are read only every `POLL_INTERVAL` steps), the allocation and output
 * budgets, and sticky cancellation: once cancelled (by a limit or by the host), every further
 * step fails with the first reason.
 */
import { STARLARK_GO_HEAD, type StarlarkGoRelease } from '../release.ts';
import { StarlarkLimitError } from '../errors.ts';
import type { LimitKind } from '../errors.ts';
import type { Callable, FrameInfo, Kwargs, Value } from '../value/contract.ts';
import { Frame, decodeCol, decodeLine } from './frame.ts';
import type { EvalThread } from './frame.ts';
import { binaryToHost, hostToBinary } from '../syntax/utf8.ts';
import { callValue } from './call.ts';

/** Steps between two polls of the clock and the abort signal. */
export const POLL_INTERVAL = 4096;

/** Default maximum Starlark call depth (JS stack overflow is also reported as a stack overflow). */
export const DEFAULT_MAX_CALL_DEPTH = 1000;

export interface ThreadLimits {
  maxSteps?: number;
  /** Epoch milliseconds, compared against `now()`. */
  deadline?: number;
  now?: () => number;
  maxCallDepth?: number;
  maxAllocBytes?: number;
  maxOutputBytes?: number;
  signal?: AbortSignal;
}

export interface ThreadOptions {
  name?: string;
  limits?: ThreadLimits;
  /** Receives each `print` line (host string, no trailing newline). */
  print?: (msg: string) => void;
  /** Host loader for `load()`: module name (host string) to its members. */
  load?: (module: string) => Record<string, Value>;
  /** The google/starlark-go behaviour to follow (default HEAD). */
  release?: StarlarkGoRelease;
}

export class ThreadImpl implements EvalThread {
  readonly name: string;
  readonly local = new Map<string, unknown>();
  /** Countdown to the next poll. */
  tick: number;
  /** Active frames, outermost first: Starlark frames, and the callables of builtin calls. */
  readonly frames: (Frame | Callable)[] = [];
  depth = 0;
  readonly maxDepth: number;
  private chunk: number;
  private stepsBase = 0;
  private readonly maxSteps: number;
  private readonly deadline: number;
  private readonly now: (() => number) | undefined;
  private readonly signal: AbortSignal | undefined;
  private readonly maxAlloc: number;
  private allocated = 0;
  private readonly maxOutput: number;
  private output = 0;
  private cancelled: StarlarkLimitError | null = null;
  private readonly printHook: ((msg: string) => void) | undefined;
  readonly loader: ((module: string) => Record<string, Value>) | undefined;
  readonly release: StarlarkGoRelease;

  constructor(opts: ThreadOptions = {}) {
    this.release = opts.release ?? STARLARK_GO_HEAD;
    const lim = opts.limits ?? {};
    this.name = opts.name ?? '';
    this.maxSteps = lim.maxSteps ?? Infinity;
    this.deadline = lim.deadline ?? Infinity;
    this.now = lim.now ?? (lim.deadline !== undefined ? () => Date.now() : undefined);
    this.signal = lim.signal;
    this.maxDepth = lim.maxCallDepth ?? DEFAULT_MAX_CALL_DEPTH;
    this.maxAlloc = lim.maxAllocBytes ?? Infinity;
    this.maxOutput = lim.maxOutputBytes ?? Infinity;
    this.printHook = opts.print;
    this.loader = opts.load;
    this.chunk = this.nextChunk();
    this.tick = this.chunk;
  }

  private nextChunk(): number {
    const left = this.maxSteps - this.stepsBase;
    return left < POLL_INTERVAL ? Math.max(1, left + 1) : POLL_INTERVAL;
  }

  /** Steps executed so far. */
  get steps(): number {
    return this.stepsBase + (this.chunk - this.tick);
  }

  step(n = 1): void {
    this.tick -= n;
    if (this.tick <= 0) this.poll();
  }

  /** Called when `tick` runs out: accounts the chunk, checks every budget, starts a new chunk. */
  poll(): void {
    this.stepsBase += this.chunk - this.tick;
    this.chunk = 0;
    this.tick = 0;
    if (this.cancelled !== null) throw this.stickyError();
    if (this.signal?.aborted) {
      const r: unknown = this.signal.reason;
      const reason = r instanceof Error ? r.message : r === undefined ? 'aborted' : String(r);
      this.cancel(reason, 'cancelled');
      throw this.stickyError();
    }
    if (this.stepsBase > this.maxSteps) {
      this.cancel('too many steps', 'steps');
      throw this.stickyError();
    }
    if (this.now !== undefined && this.now() > this.deadline) {
      this.cancel('deadline exceeded', 'deadline');
      throw this.stickyError();
    }
    this.chunk = this.nextChunk();
    this.tick = this.chunk;
  }

  /**
   * Cancels the thread: the next step fails with `Starlark computation cancelled: <reason>`.
   * Sticky: only the first reason is kept. Safe to call from host callbacks.
   */
  cancel(reason: string, kind: LimitKind = 'cancelled'): void {
    if (this.cancelled === null) {
      this.cancelled = new StarlarkLimitError(kind, 'Starlark computation cancelled: ' + hostToBinary(reason));
    }
    this.stepsBase += this.chunk - this.tick;
    this.chunk = 0;
    this.tick = 0;
  }

  /** The cancellation error, if cancelled. */
  get cancellation(): StarlarkLimitError | null {
    return this.cancelled;
  }

  private stickyError(): StarlarkLimitError {
    const c = this.cancelled!;
    // A fresh instance per throw, so each carries its own backtrace.
    return new StarlarkLimitError(c.limit, c.message);
  }

  alloc(bytes: number): void {
    this.allocated += bytes;
    if (this.allocated > this.maxAlloc) {
      this.cancel(`allocation budget exceeded (${this.maxAlloc} bytes)`, 'alloc');
      throw this.stickyError();
    }
  }

  print(message: string): void {
    this.output += message.length + 1;
    if (this.output > this.maxOutput) {
      this.cancel(`output budget exceeded (${this.maxOutput} bytes)`, 'output');
      throw this.stickyError();
    }
    this.printHook?.(message);
  }

  /** Throws the depth-limit error. */
  overflow(): never {
    throw new StarlarkLimitError('depth', 'Starlark stack overflow');
  }

  call(fn: Value, args: Value[], kwargs: Kwargs): Value {
    return callValue(this, fn, args, kwargs);
  }

  callStack(): FrameInfo[] {
    const out: FrameInfo[] = [];
    for (const f of this.frames) {
      if (f instanceof Frame) {
        out.push({ name: binaryToHost(f.name), file: f.file, line: decodeLine(f.pos), col: decodeCol(f.pos) });
      } else {
        out.push({ name: binaryToHost(f.name), file: '<builtin>', line: 0, col: 0 });
      }
    }
    return out;
  }

  /** Encodes a host string for Starlark (helper for hosts building values). */
  static encode(s: string): string {
    return hostToBinary(s);
  }
}
