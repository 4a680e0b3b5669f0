/**
 * The one error type of the OCI client: a `KrmfnError` with an `oci-*` code, a message that names
 * the image reference, and the HTTP status when a registry answered.
 */
import { KrmfnError, type ErrorCode } from '../errors.ts';

export type OciErrorCode = Extract<ErrorCode, `oci-${string}`>;

export class OciError extends KrmfnError {
  /** The image reference as the caller wrote it. */
  readonly reference: string;
  readonly status: number | undefined;

  constructor(code: OciErrorCode, message: string, reference: string, status?: number, cause?: unknown) {
    super({ code, message, function: reference, ...(cause === undefined ? {} : { cause }) });
    this.name = 'OciError';
    this.reference = reference;
    this.status = status;
  }
}

export function isOciError(e: unknown): e is OciError {
  return (
    typeof e === 'object' &&
    e !== null &&
    typeof (e as { code?: unknown }).code === 'string' &&
    (e as { code: string }).code.startsWith('oci-') &&
    (e as { isKrmfnError?: unknown }).isKrmfnError === true
  );
}
