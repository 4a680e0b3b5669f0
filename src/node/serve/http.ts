/**
 * HTTP plumbing shared by the server's guards and handlers: `HttpError` (a status, a message and
 * extra headers), `send` (a whole body with its length) and `sendError` (the JSON error body every
 * failure gets: `{"error": message, "code"?: krmfn error code}`). Status of a thrown error:
 * HttpError → its status; a krmfn `timeout` → 504; other krmfn errors → 400; anything else → 500.
 */
import type { ServerResponse } from 'node:http';
import { isKrmfnError } from '../../core/errors.ts';

export class HttpError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;
  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.headers = headers;
  }
}

export function send(
  res: ServerResponse,
  status: number,
  type: string,
  body: string | Uint8Array,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'content-type': type,
    'content-length': String(typeof body === 'string' ? Buffer.byteLength(body) : body.length),
    ...headers,
  });
  res.end(body);
}

export function errorStatus(e: unknown): number {
  if (e instanceof HttpError) return e.status;
  if (isKrmfnError(e)) return e.code === 'timeout' ? 504 : e.code === 'internal' ? 500 : 400;
  return 500;
}

/** Answers with the error, or cuts the connection when the response has already started. */
export function sendError(res: ServerResponse, e: unknown): void {
  const message = e instanceof Error ? e.message : String(e);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({ error: message, ...(isKrmfnError(e) ? { code: e.code } : {}) }) + '\n';
  send(res, errorStatus(e), 'application/json', body, e instanceof HttpError ? e.headers : {});
}
