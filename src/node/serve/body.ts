/**
 * Reading a request body under two bounds: `maxBytes` (a declared or streamed size beyond it → 413)
 * and `timeoutMs`, the time the whole body may take to arrive once the headers are in (beyond it →
 * 408 and the connection is closed), so a client trickling bytes cannot hold the server's memory
 * or a drain open for long.
 */
import type { IncomingMessage } from 'node:http';
import { HttpError } from './http.ts';

export interface BodyLimits {
  maxBytes: number;
  timeoutMs: number;
}

export function readBody(req: IncomingMessage, limits: BodyLimits): Promise<Uint8Array> {
  const tooLarge = (): HttpError =>
    new HttpError(413, `request body larger than ${limits.maxBytes} bytes`, { connection: 'close' });
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > limits.maxBytes) return Promise.reject(tooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (err: Error | undefined, body?: Uint8Array): void => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
      if (err) {
        req.pause();
        reject(err);
      } else resolve(body!);
    };
    const timer = setTimeout(
      () =>
        finish(new HttpError(408, `request body not received within ${limits.timeoutMs} ms`, { connection: 'close' })),
      limits.timeoutMs,
    );
    const onData = (c: Buffer): void => {
      size += c.length;
      if (size > limits.maxBytes) return finish(tooLarge());
      chunks.push(c);
    };
    const onEnd = (): void => finish(undefined, new Uint8Array(Buffer.concat(chunks)));
    const onError = (e: Error): void => finish(new HttpError(400, `reading the request body: ${e.message}`));
    const onClose = (): void => {
      if (!req.complete) finish(new HttpError(400, 'client closed the connection before sending the whole body'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}
