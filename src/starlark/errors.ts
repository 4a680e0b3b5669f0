/**
 * Starlark error classes. Three families, each with a stable `code` string:
 *
 * - `StarlarkSyntaxError` (`starlark-syntax` for scanner/parser errors, `starlark-resolve` for static
 *   resolver errors): carries every error found (the parser stops at the first, the resolver reports
 *   all), each `{ file, line, col, message }` with 1-based positions.
 * - `StarlarkEvalError` (`starlark-runtime`): a dynamic error. `message` is the bare starlark-go text
 *   (`key "x" not in dict`); the call stack at the point of failure is attached by the evaluator as
 *   `backtrace` (outermost first). The value layer and builtins throw it with only a message.
 * - `StarlarkLimitError` (`starlark-limit`), a subclass of `StarlarkEvalError`, for a sandbox budget:
 *   `limit` says which one. Cancellation is sticky on the thread.
 *
 * Guards are structural (`isStarlarkEvalError` ...) because values cross bundles.
 */
/** One frame of the call stack, for backtraces (1-based line/col, 0 when unknown). */
export interface FrameInfo {
  name: string;
  file: string;
  line: number;
  col: number;
}

export interface SyntaxErrorItem {
  file: string;
  line: number;
  col: number;
  message: string;
}

export type SyntaxErrorCode = 'starlark-syntax' | 'starlark-resolve';

/** One or more static errors; `message` is the first, formatted `file:line:col: msg`. */
export class StarlarkSyntaxError extends Error {
  readonly code: SyntaxErrorCode;
  readonly errors: SyntaxErrorItem[];
  readonly file: string;
  readonly line: number;
  readonly col: number;
  constructor(code: SyntaxErrorCode, errors: SyntaxErrorItem[]) {
    const first = errors[0] ?? { file: '', line: 0, col: 0, message: 'syntax error' };
    super(formatStarlarkPosition(first) + ': ' + first.message);
    this.name = 'StarlarkSyntaxError';
    this.code = code;
    this.errors = errors;
    this.file = first.file;
    this.line = first.line;
    this.col = first.col;
  }
  /** Every error, one per line, `file:line:col: msg`. */
  format(): string {
    return this.errors.map((e) => formatStarlarkPosition(e) + ': ' + e.message).join('\n');
  }
}

export type EvalErrorCode = 'starlark-runtime' | 'starlark-limit';

/** A dynamic Starlark error. Throw it with the bare message; the evaluator adds the backtrace. */
export class StarlarkEvalError extends Error {
  readonly code: EvalErrorCode = 'starlark-runtime';
  /** Call stack at the failure, outermost first; builtin frames have line 0. Empty until attached. */
  backtrace: FrameInfo[] = [];
  /** Set once the evaluator has attached the backtrace (internal bookkeeping). */
  traced = false;
  constructor(message: string) {
    super(message);
    this.name = 'StarlarkEvalError';
  }
  /** The innermost frame in `file`, or the innermost frame with a position. */
  get file(): string {
    return innermostPositioned(this.backtrace)?.file ?? '';
  }
  get line(): number {
    return innermostPositioned(this.backtrace)?.line ?? 0;
  }
  get col(): number {
    return innermostPositioned(this.backtrace)?.col ?? 0;
  }
  /**
   * starlark-go style:
   * ```
   * Traceback (most recent call last):
   *   fn.star:5:2: in <toplevel>
   *   fn.star:2:9: in f
   * Error: local variable y referenced before assignment
   * ```
   * A builtin innermost frame is dropped and named in the last line: `Error in fail: fail: boom`.
   */
  format(): string {
    const frames = this.backtrace.slice();
    let last = 'Error: ' + this.message;
    const inner = frames[frames.length - 1];
    if (inner !== undefined && inner.line === 0 && inner.file === '<builtin>') {
      frames.pop();
      last = 'Error in ' + inner.name + ': ' + this.message;
    }
    const lines = ['Traceback (most recent call last):'];
    for (const f of frames) lines.push('  ' + formatStarlarkPosition(f) + ': in ' + f.name);
    lines.push(last);
    return lines.join('\n');
  }
}

export type LimitKind = 'steps' | 'deadline' | 'depth' | 'alloc' | 'output' | 'cancelled';

/** A sandbox budget was exceeded (or the host cancelled). */
export class StarlarkLimitError extends StarlarkEvalError {
  override readonly code: EvalErrorCode = 'starlark-limit';
  readonly limit: LimitKind;
  constructor(limit: LimitKind, message: string) {
    super(message);
    this.name = 'StarlarkLimitError';
    this.limit = limit;
  }
}

export function isStarlarkSyntaxError(e: unknown): e is StarlarkSyntaxError {
  return (
    typeof e === 'object' &&
    e !== null &&
    Array.isArray((e as StarlarkSyntaxError).errors) &&
    ((e as StarlarkSyntaxError).code === 'starlark-syntax' || (e as StarlarkSyntaxError).code === 'starlark-resolve')
  );
}

export function isStarlarkEvalError(e: unknown): e is StarlarkEvalError {
  return (
    typeof e === 'object' &&
    e !== null &&
    Array.isArray((e as StarlarkEvalError).backtrace) &&
    ((e as StarlarkEvalError).code === 'starlark-runtime' || (e as StarlarkEvalError).code === 'starlark-limit')
  );
}

export function isStarlarkLimitError(e: unknown): e is StarlarkLimitError {
  return isStarlarkEvalError(e) && e.code === 'starlark-limit';
}

/** starlark-go's Position.String: `file:line:col`, only `file` when the line is unknown (0). */
export function formatStarlarkPosition(p: { file: string; line: number; col: number }): string {
  if (p.line === 0) return p.file;
  return p.file + ':' + p.line + ':' + p.col;
}

function innermostPositioned(frames: FrameInfo[]): FrameInfo | undefined {
  for (let i = frames.length - 1; i >= 0; i--) if (frames[i].line > 0) return frames[i];
  return undefined;
}

/** Wraps anything thrown during evaluation as a Starlark error (host bugs included, as data). */
export function toEvalError(e: unknown): StarlarkEvalError {
  if (typeof e === 'object' && e !== null) {
    const code = (e as { code?: unknown }).code;
    if (
      (code === 'starlark-runtime' || code === 'starlark-limit') &&
      Array.isArray((e as StarlarkEvalError).backtrace)
    ) {
      return e as StarlarkEvalError;
    }
    // No regexps here: this may run with almost no stack left.
    if (e instanceof RangeError && e.message.includes('call stack')) {
      return new StarlarkLimitError('depth', 'Starlark stack overflow');
    }
    // A value past V8's string or array length ("Invalid string length"): Starlark's words, not V8's.
    if (e instanceof RangeError && e.message.startsWith('Invalid ') && e.message.endsWith(' length')) {
      return new StarlarkEvalError('result too large');
    }
    if (e instanceof Error) {
      const err = new StarlarkEvalError(e.message);
      if (code !== 'STARLARK_EVAL') (err as { cause?: unknown }).cause = e;
      return err;
    }
  }
  return new StarlarkEvalError(String(e));
}
