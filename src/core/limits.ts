/**
 * Resource limits for one function call (and for parsing untrusted YAML). One type for every
 * runtime: Starlark polls `maxSteps` and the deadline in its loop, WASM gets memory caps and a
 * Worker that is terminated at the deadline, YAML parsing enforces the size, document-count, alias
 * and depth limits while it reads (src/core/yaml/parse.ts, parser.ts).
 * Each overrun surfaces as a `LimitExceededError`.
 */
export interface Limits {
  /** Wall-clock budget of one function call, in milliseconds (kpt's --timeout; default 60 s). */
  timeoutMs: number;
  /** Interpreter steps (Starlark). */
  maxSteps: number;
  /** Bytes of memory a sandboxed function may use (WASM linear memory, Starlark allocation budget). */
  maxMemoryBytes: number;
  /** Bytes a function may write to stdout/stderr (or produce as output). */
  maxOutputBytes: number;
  /** Alias nodes YAML parsing may expand (billion-laughs guard). */
  maxAliases: number;
  /** Nesting depth YAML parsing and conversion accept. */
  maxDepth: number;
  /** Bytes of one input file or ResourceList. */
  maxInputBytes: number;
  /** YAML documents one file or stream may hold (`---`-separated pieces with content). */
  maxDocuments: number;
}

export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  timeoutMs: 60_000,
  maxSteps: 1_000_000_000,
  maxMemoryBytes: 512 * 1024 * 1024,
  maxOutputBytes: 256 * 1024 * 1024,
  maxAliases: 10_000,
  maxDepth: 1_000,
  maxInputBytes: 512 * 1024 * 1024,
  maxDocuments: 100_000,
});

export function withLimits(overrides: Partial<Limits> | undefined): Limits {
  return { ...DEFAULT_LIMITS, ...(overrides ?? {}) };
}
