/**
 * Errors are data. Every failure krmfn reports carries a code from the closed union below, a
 * message, and where known the file, 1-based line and column, the function, and a cause. Host code
 * throws `KrmfnError` (or a subclass) across layers; diagnostics about a user's package end up in
 * results and CLI output, never as crashes. Guards are structural (`isKrmfnError`), not `instanceof`,
 * because errors cross bundles and Workers.
 */
export type ErrorCode =
  // YAML / resource model
  | 'yaml-syntax'
  | 'yaml-duplicate-key'
  | 'yaml-alias-limit'
  | 'yaml-depth-limit'
  | 'yaml-size-limit'
  | 'not-krm'
  | 'field-type'
  | 'protected-field'
  | 'read-only'
  | 'invalid-resource-list'
  // package and Kptfile
  | 'kptfile-missing'
  | 'kptfile-version'
  /** kpt beta.67+: a `function.tag` that is neither a usable constraint nor a valid tag, or matches no version. */
  | 'function-tag'
  | 'kptfile-unreadable'
  | 'kptfile-invalid'
  | 'package-io'
  | 'package-cycle'
  // engine invariants
  | 'path-escape'
  | 'duplicate-path-index'
  | 'annotation-mismatch'
  | 'output-exists'
  | 'write-failed'
  // functions and runtimes
  | 'function-not-found'
  | 'function-failed'
  | 'function-output'
  | 'exec-not-allowed'
  | 'wasm-not-allowed'
  | 'config-invalid'
  | 'timeout'
  | 'limit-exceeded'
  | 'cancelled'
  | 'remote-failed'
  | 'container-unavailable'
  /** A container image refused by the sandbox runtime: bad config, digest or size mismatch, a layer escaping its root. */
  | 'image-invalid'
  // starlark
  | 'starlark-syntax'
  | 'starlark-resolve'
  | 'starlark-runtime'
  // wasm
  | 'wasm-compile'
  | 'wasm-trap'
  | 'wasm-digest'
  // OCI registries (src/core/oci)
  | 'oci-reference'
  | 'oci-unauthorized'
  | 'oci-not-found'
  | 'oci-platform'
  | 'oci-digest'
  | 'oci-registry'
  | 'oci-not-cached'
  // usage
  | 'usage'
  | 'internal';

export interface ErrorData {
  code: ErrorCode;
  message: string;
  file?: string;
  line?: number;
  column?: number;
  /** Image or exec string of the function involved. */
  function?: string;
  cause?: unknown;
}

export class KrmfnError extends Error {
  readonly code: ErrorCode;
  readonly file: string | undefined;
  readonly line: number | undefined;
  readonly column: number | undefined;
  readonly function: string | undefined;
  readonly isKrmfnError = true;

  constructor(data: ErrorData) {
    super(data.message, data.cause === undefined ? undefined : { cause: data.cause });
    this.name = 'KrmfnError';
    this.code = data.code;
    this.file = data.file;
    this.line = data.line;
    this.column = data.column;
    this.function = data.function;
  }

  toData(): ErrorData {
    const d: ErrorData = { code: this.code, message: this.message };
    if (this.file !== undefined) d.file = this.file;
    if (this.line !== undefined) d.line = this.line;
    if (this.column !== undefined) d.column = this.column;
    if (this.function !== undefined) d.function = this.function;
    return d;
  }
}

/** A runtime in the chain does not handle this function: the chain moves on to the next one. */
export class NotFoundError extends KrmfnError {
  /** Why this runtime could not take it, for the user (e.g. "set-labels has no version …"); the chain quotes it. */
  readonly hint: string | undefined;
  constructor(fn: string, message = `function ${JSON.stringify(fn)} not found`, hint?: string) {
    super({ code: 'function-not-found', message, function: fn });
    this.name = 'NotFoundError';
    this.hint = hint;
  }
}

export type LimitKind = 'steps' | 'deadline' | 'memory' | 'output' | 'aliases' | 'depth' | 'input';

/** One limit overran. `limit` says which; the message is user-facing. */
export class LimitExceededError extends KrmfnError {
  readonly limit: LimitKind;
  constructor(limit: LimitKind, message: string, fn?: string) {
    super({ code: limit === 'deadline' ? 'timeout' : 'limit-exceeded', message, ...(fn ? { function: fn } : {}) });
    this.name = 'LimitExceededError';
    this.limit = limit;
  }
}

export function isKrmfnError(e: unknown): e is KrmfnError {
  return typeof e === 'object' && e !== null && (e as { isKrmfnError?: unknown }).isKrmfnError === true;
}

export function isNotFoundError(e: unknown): boolean {
  return isKrmfnError(e) && e.code === 'function-not-found';
}

/** "file:line:col: message" with the parts that are known. */
export function formatErrorLocation(e: Pick<ErrorData, 'file' | 'line' | 'column' | 'message'>): string {
  let loc = e.file ?? '';
  if (e.line) loc += `${loc ? ':' : ''}${e.line}${e.column ? `:${e.column}` : ''}`;
  return loc ? `${loc}: ${e.message}` : e.message;
}
