/**
 * Function results, as the KRM Functions Specification and kpt define them (docs/sdk.md, "Wire format",
 * docs/kpt-semantics.md, "Results file"). Field order of these interfaces is the order kpt writes them.
 */
export type Severity = 'error' | 'warning' | 'info';

export interface ResourceRef {
  apiVersion: string;
  kind: string;
  name: string;
  namespace?: string;
}

export interface FieldRef {
  path: string;
  currentValue?: unknown;
  proposedValue?: unknown;
}

export interface FileRef {
  path: string;
  index?: number;
}

export interface Result {
  message: string;
  /** Absent means the function gave none (printed as info by kpt's CLI). */
  severity?: Severity;
  resourceRef?: ResourceRef;
  field?: FieldRef;
  file?: FileRef;
  tags?: Record<string, string>;
}

/** One executed function in kpt's results file (`FunctionResultList.items[]`). */
export interface FunctionResult {
  /** Resolved image name, when the function was given by image. */
  image?: string;
  /** The whole exec string, when the function was given by exec. */
  exec?: string;
  stderr?: string;
  exitCode: number;
  results?: Result[];
}

/** kpt's `results.yaml` document. */
export interface FunctionResultList {
  apiVersion: 'kpt.dev/v1';
  kind: 'FunctionResultList';
  metadata: { name: 'fnresults' };
  exitCode: number;
  items: FunctionResult[];
}
