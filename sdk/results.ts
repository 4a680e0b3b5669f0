/**
 * Result builders (docs/sdk.md, "Design"). A `ResultBuilder` collects results in emission order;
 * with `object` it fills `resourceRef` and `file` from the object's identity and reader annotations
 * (internal form first, legacy second); with `field` given as a path it emits the bracket form and
 * reads `currentValue` from the object unless one is given.
 */
import { KrmfnError } from '../src/core/errors.ts';
import { formatFieldPath, parseFieldPath, type FieldPathInput } from '../src/core/field-path.ts';
import type { KubeObject } from '../src/core/kube-object.ts';
import type { FieldRef, FileRef, ResourceRef, Result, Severity } from '../src/core/result.ts';

export interface ResultOptions {
  /** The object the result is about: fills `resourceRef` and `file`. */
  object?: KubeObject;
  /** A field path (string or segments), or a full `FieldRef`. */
  field?: FieldPathInput | FieldRef;
  currentValue?: unknown;
  proposedValue?: unknown;
  /** Overrides the file taken from `object`. */
  file?: FileRef;
  /** Overrides the reference taken from `object`. */
  resourceRef?: ResourceRef;
  tags?: Record<string, string>;
}

export function resourceRefOf(obj: KubeObject): ResourceRef {
  const ref: ResourceRef = { apiVersion: obj.apiVersion, kind: obj.kind, name: obj.name };
  if (obj.namespace) ref.namespace = obj.namespace;
  return ref;
}

export function fileRefOf(obj: KubeObject): FileRef | undefined {
  const src = obj.source;
  return src ? { path: src.path, index: src.index } : undefined;
}

/** One result; severity is always one of the spec's three (never `warn`). */
export function makeResult(severity: Severity, message: string, opts: ResultOptions = {}): Result {
  const r: Result = { message, severity };
  const ref = opts.resourceRef ?? (opts.object ? resourceRefOf(opts.object) : undefined);
  if (ref) r.resourceRef = ref;
  if (opts.field !== undefined) {
    const isRef = typeof opts.field === 'object' && !Array.isArray(opts.field) && 'path' in (opts.field as object);
    const field: FieldRef = isRef
      ? { ...(opts.field as FieldRef) }
      : { path: formatFieldPath(parseFieldPath(opts.field as FieldPathInput)) };
    if (opts.currentValue !== undefined) field.currentValue = opts.currentValue;
    else if (!isRef && opts.object) {
      const v = opts.object.get(opts.field as FieldPathInput);
      if (v !== undefined) field.currentValue = v;
    }
    if (opts.proposedValue !== undefined) field.proposedValue = opts.proposedValue;
    r.field = field;
  }
  const file = opts.file ?? (opts.object ? fileRefOf(opts.object) : undefined);
  if (file) r.file = file;
  if (opts.tags) r.tags = { ...opts.tags };
  return r;
}

/** Collects results for one function call, in emission order. */
export class ResultBuilder {
  readonly #items: Result[] = [];

  error(message: string, opts?: ResultOptions): Result {
    return this.add(makeResult('error', message, opts));
  }
  warning(message: string, opts?: ResultOptions): Result {
    return this.add(makeResult('warning', message, opts));
  }
  info(message: string, opts?: ResultOptions): Result {
    return this.add(makeResult('info', message, opts));
  }
  /** Appends a result as given (for exact catalog shapes, e.g. results without a severity). */
  add(result: Result): Result {
    this.#items.push(result);
    return result;
  }
  /** The results so far (a copy). */
  get all(): Result[] {
    return [...this.#items];
  }
  get hasErrors(): boolean {
    return this.#items.some(isErrorResult);
  }
}

/** `severity` absent counts as error only when a spec reader would default it; SDK results always carry one. */
export function isErrorResult(r: Result): boolean {
  return r.severity === 'error';
}

/** Thrown by a function to end the call with these results (appended to what it reported). */
export class ResultsError extends KrmfnError {
  readonly results: Result[];
  readonly isResultsError = true;
  constructor(results: Result[], message?: string) {
    super({ code: 'function-failed', message: message ?? results.map((r) => r.message).join('; ') });
    this.name = 'ResultsError';
    this.results = results;
  }
}

export function isResultsError(e: unknown): e is ResultsError {
  return typeof e === 'object' && e !== null && (e as { isResultsError?: unknown }).isResultsError === true;
}

/** Thrown when the functionConfig is missing or invalid; becomes an error result pointing at it. */
export class ConfigError extends KrmfnError {
  readonly isConfigError = true;
  /** Field of the config at fault, in bracket form. */
  readonly field: string | undefined;
  constructor(message: string, field?: string) {
    super({ code: 'config-invalid', message });
    this.name = 'ConfigError';
    this.field = field;
  }
}

export function isConfigError(e: unknown): e is ConfigError {
  return typeof e === 'object' && e !== null && (e as { isConfigError?: unknown }).isConfigError === true;
}

/** The shape of an ajv error that `fromAjvErrors` reads (ajv's `ErrorObject` satisfies it). */
export interface SchemaErrorLike {
  instancePath: string;
  message?: string;
  keyword?: string;
  params?: Record<string, unknown>;
}

/** `/spec/containers/0/image` → `spec.containers[0].image` (JSON pointer, `~1` and `~0` unescaped). */
export function pointerToFieldPath(pointer: string): string {
  if (pointer === '' || pointer === '/') return '';
  const segs = pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^(0|[1-9][0-9]*)$/.test(s) ? Number(s) : s));
  return formatFieldPath(segs);
}

/** Schema errors as error results; with `object`, each points at the object and field. */
export function fromAjvErrors(errors: readonly SchemaErrorLike[], object?: KubeObject): Result[] {
  return errors.map((e) => {
    const path = pointerToFieldPath(e.instancePath);
    const missing =
      e.keyword === 'required' && typeof e.params?.['missingProperty'] === 'string'
        ? String(e.params['missingProperty'])
        : '';
    const fieldPath = missing ? (path ? `${path}.${missing}` : missing) : path;
    const message = `${fieldPath || '(root)'}: ${e.message ?? 'is invalid'}`;
    const opts: ResultOptions = {};
    if (object) opts.object = object;
    if (fieldPath) opts.field = { path: fieldPath };
    return makeResult('error', message, opts);
  });
}

const SEVERITY_ORDER: Record<string, number> = { error: 0, warning: 1, info: 2 };

/** kyaml's order: by file path and index, then severity, then message. Returns a new array. */
export function sortResults(results: readonly Result[]): Result[] {
  return [...results].sort((a, b) => {
    const fa = a.file?.path ?? '';
    const fb = b.file?.path ?? '';
    if (fa !== fb) return fa < fb ? -1 : 1;
    const ia = a.file?.index ?? 0;
    const ib = b.file?.index ?? 0;
    if (ia !== ib) return ia - ib;
    const sa = SEVERITY_ORDER[a.severity ?? 'error'] ?? 0;
    const sb = SEVERITY_ORDER[b.severity ?? 'error'] ?? 0;
    if (sa !== sb) return sa - sb;
    return a.message < b.message ? -1 : a.message > b.message ? 1 : 0;
  });
}
