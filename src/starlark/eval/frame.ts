/**
 * Activation records. A `Frame` is allocated per call of a Starlark function (and once for the
 * module's top level). Compiled closures read locals by slot (`fr.l[i]`), cells through
 * `Cell.v`, captured variables through `fr.free[i]`. `pos` is the encoded position of the
 * operation in progress, set only before operations that can fail (for backtraces).
 */
import type { Callable, Thread, Value } from '../value/contract.ts';

/**
 * What compiled code and the call machinery need of a thread beyond the value layer's `Thread`
 * (eval/thread.ts's `ThreadImpl` implements it; declared here so that frames, functions and calls
 * do not import the thread that imports them).
 */
export interface EvalThread extends Thread {
  /** Countdown to the next poll: `if (--th.tick <= 0) th.poll()`. */
  tick: number;
  /** Reads the clock and the abort signal, refills `tick`; throws the limit error on overrun. */
  poll(): void;
  /** Active frames, outermost first: Starlark frames, and the callables of builtin calls. */
  readonly frames: (Frame | Callable)[];
  depth: number;
  readonly maxDepth: number;
  /** Throws the depth-limit error. */
  overflow(): never;
  /** Host loader for `load()`: module name (host string) to its members. */
  readonly loader: ((module: string) => Record<string, Value>) | undefined;
}

/** A captured variable. `v` is undefined while unassigned. */
export class Cell {
  v: Value | undefined;
  constructor(v: Value | undefined) {
    this.v = v;
  }
}

/** A local slot: a value, a cell (for captured locals), or undefined (unbound). */
export type Slot = Value | Cell | undefined;

export class Frame {
  /** Locals by slot; `undefined` means unbound. Cell slots hold a `Cell`. */
  readonly l: Slot[];
  readonly free: Cell[];
  readonly th: EvalThread;
  /** Function name (binary) for backtraces: `<toplevel>`, `f`, `lambda`. */
  readonly name: string;
  readonly file: string;
  /** Encoded position of the current operation (see `encodePos`). */
  pos = 0;
  /** The value of the `return` that ended the body. */
  ret: Value | undefined = undefined;
  constructor(th: EvalThread, l: Slot[], free: Cell[], name: string, file: string) {
    this.th = th;
    this.l = l;
    this.free = free;
    this.name = name;
    this.file = file;
  }
}

const COLS = 0x10000;

/** Packs a 1-based line/col into one number (cols clamp at 65535). */
export function encodePos(line: number, col: number): number {
  return line * COLS + (col < COLS ? col : COLS - 1);
}

export function decodeLine(p: number): number {
  return Math.floor(p / COLS);
}

export function decodeCol(p: number): number {
  return p % COLS;
}
