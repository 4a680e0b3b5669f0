/**
 * Failures of the WASM host, as data. The host never throws across its boundary for something the
 * guest did: a trap, a limit or a bad module comes back as a `WasmFailure` inside the outcome.
 * `WasmHostError` is thrown only by set-up steps (compiling, classifying, loading) and carries the
 * same `kind`; guards are structural because errors cross Workers and bundles.
 */
export type WasmFailureKind =
  /** The bytes are not a valid module, or a limit in its header cannot be honoured. */
  | 'compile'
  /** The module is valid but not one of the supported ABIs, or imports something not granted. */
  | 'abi'
  /** The guest trapped (unreachable, out-of-bounds access, stack overflow) or threw from an import. */
  | 'trap'
  /** The deadline passed; the worker running it was terminated. */
  | 'timeout'
  /** The guest ran into the linear-memory cap. */
  | 'memory'
  /** The guest wrote more than the output cap to stdout and stderr together. */
  | 'output'
  /** The call was cancelled through its AbortSignal. */
  | 'cancelled'
  /** The worker died or could not start. */
  | 'worker';

export interface WasmFailure {
  kind: WasmFailureKind;
  message: string;
}

export class WasmHostError extends Error {
  readonly kind: WasmFailureKind;
  readonly isWasmHostError = true;
  constructor(kind: WasmFailureKind, message: string) {
    super(message);
    this.name = 'WasmHostError';
    this.kind = kind;
  }
  toFailure(): WasmFailure {
    return { kind: this.kind, message: this.message };
  }
}

export function isWasmHostError(e: unknown): e is WasmHostError {
  return typeof e === 'object' && e !== null && (e as { isWasmHostError?: unknown }).isWasmHostError === true;
}

/** A guest-side exception (RuntimeError, thrown string, host bug) as a failure record. */
export function failureFromThrown(e: unknown): WasmFailure {
  if (isWasmHostError(e)) return e.toFailure();
  if (typeof e === 'string') return { kind: 'trap', message: e };
  if (e instanceof Error) {
    const isTrap = e.name === 'RuntimeError' || e.constructor?.name === 'RuntimeError';
    return { kind: 'trap', message: isTrap ? `wasm trap: ${e.message}` : e.message };
  }
  return { kind: 'trap', message: String(e) };
}
