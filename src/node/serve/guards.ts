/**
 * The server's guards: each wraps the next step of a request (`next`) and either refuses it by
 * throwing an `HttpError` or prepares what the handler needs. A route lists the guards it runs, in
 * order (routes.ts); `logged` wraps every request.
 *
 * - `logged`: one JSON log entry per request (id, method, path, status, ms, error) and the error
 *   answer for whatever was thrown.
 * - `authorized`: the bearer token, compared in constant time.
 * - `method`: 405 with `Allow` for any other method.
 * - `accepting`: 503 once the server is draining.
 * - `withBody`: reads the body under its size and time bounds (body.ts).
 * - `limited`: counts the request toward `maxConcurrent` only now that its body has arrived, so
 *   slow uploads never hold a slot; 429 with `Retry-After` beyond it.
 * - `withDeadline`: the request's deadline and an abort signal that fires at the deadline (plus a
 *   grace for the function to report its own timeout) or when the client goes away.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LimitExceededError } from '../../core/errors.ts';
import { readBody, type BodyLimits } from './body.ts';
import { HttpError, sendError } from './http.ts';

export interface RequestContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly url: URL;
  /** The request's log entry; guards and handlers add fields. */
  readonly entry: Record<string, unknown>;
  body?: Uint8Array;
  signal?: AbortSignal;
  /** Epoch ms. */
  deadline?: number;
}

export type Next = () => Promise<void>;
export type Guard = (ctx: RequestContext, next: Next) => Promise<void>;

/** Runs `guards` in order around `last`. */
export function compose(guards: readonly Guard[], last: (ctx: RequestContext) => Promise<void>): Guard {
  return (ctx) => {
    const step = (i: number): Promise<void> => (i === guards.length ? last(ctx) : guards[i](ctx, () => step(i + 1)));
    return step(0);
  };
}

export function logged(log: (entry: Record<string, unknown>) => void, now: () => number): Guard {
  return async (ctx, next) => {
    const started = now();
    try {
      await next();
    } catch (e) {
      ctx.entry.error = e instanceof Error ? e.message : String(e);
      sendError(ctx.res, e);
    } finally {
      ctx.entry.status = ctx.res.statusCode;
      ctx.entry.ms = now() - started;
      log(ctx.entry);
    }
  };
}

export function authorized(token: string | undefined): Guard {
  const expected = token ? Buffer.from(`Bearer ${token}`) : undefined;
  return async (ctx, next) => {
    if (expected) {
      const got = Buffer.from(ctx.req.headers.authorization ?? '');
      if (got.length !== expected.length || !timingSafeEqual(got, expected))
        throw new HttpError(401, 'missing or wrong bearer token', { 'www-authenticate': 'Bearer' });
    }
    await next();
  };
}

export function method(allowed: 'GET' | 'POST'): Guard {
  return async (ctx, next) => {
    if (ctx.req.method !== allowed && !(allowed === 'GET' && ctx.req.method === 'HEAD'))
      throw new HttpError(405, `use ${allowed}`, { allow: allowed });
    await next();
  };
}

export function accepting(isClosing: () => boolean): Guard {
  return async (_ctx, next) => {
    if (isClosing()) throw new HttpError(503, 'server is shutting down', { connection: 'close' });
    await next();
  };
}

export function withBody(limits: BodyLimits): Guard {
  return async (ctx, next) => {
    ctx.body = await readBody(ctx.req, limits);
    ctx.entry.bytesIn = ctx.body.length;
    await next();
  };
}

/** Requests past their body and not yet answered, bounded by `max`. */
export class ConcurrencyLimit {
  private count = 0;
  readonly max: number;
  constructor(max: number) {
    this.max = max;
  }
  get inFlight(): number {
    return this.count;
  }
  readonly guard: Guard = async (_ctx, next) => {
    if (this.count >= this.max)
      throw new HttpError(429, `too many requests in flight (limit ${this.max})`, { 'retry-after': '1' });
    this.count++;
    try {
      await next();
    } finally {
      this.count--;
    }
  };
}

/** Grace after the deadline for the function to fail with its own timeout before the request is cut. */
const DEADLINE_GRACE_MS = 1000;

export function withDeadline(timeoutMs: number, now: () => number): Guard {
  return async (ctx, next) => {
    const ac = new AbortController();
    ctx.deadline = now() + timeoutMs;
    ctx.signal = ac.signal;
    const timer = setTimeout(
      () => ac.abort(new LimitExceededError('deadline', `request did not finish within ${timeoutMs} ms`)),
      timeoutMs + DEADLINE_GRACE_MS,
    );
    const onClose = (): void => {
      if (!ctx.res.writableFinished) ac.abort(new HttpError(499, 'client went away'));
    };
    ctx.res.on('close', onClose);
    try {
      await next();
    } finally {
      clearTimeout(timer);
      ctx.res.off('close', onClose);
    }
  };
}
