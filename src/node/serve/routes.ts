/**
 * The server's route table: each path, the guards its requests pass (guards.ts) and its handler.
 * Health and readiness take no guard, so they answer whatever the work endpoints are doing (the
 * work itself runs in worker processes, see worker-service.ts). `/v1/*` requires the token when one
 * is set; the work endpoints then check the method, refuse while draining, read the body, take a
 * concurrency slot and set the deadline, in that order.
 */
import { accepting, authorized, method, withBody, withDeadline, type Guard, type RequestContext } from './guards.ts';
import type { ConcurrencyLimit } from './guards.ts';
import { renderHandler, runHandler } from './handlers.ts';
import { send } from './http.ts';
import type { FunctionService } from './service.ts';

export interface Route {
  path: string;
  guards: readonly Guard[];
  handle(ctx: RequestContext): Promise<void>;
}

export interface RouteSettings {
  service: FunctionService;
  token: string | undefined;
  maxBodyBytes: number;
  bodyTimeoutMs: number;
  requestTimeoutMs: number;
  concurrency: ConcurrencyLimit;
  isClosing(): boolean;
  now(): number;
}

export function routes(s: RouteSettings): Route[] {
  const auth = authorized(s.token);
  const work: Guard[] = [
    auth,
    method('POST'),
    accepting(s.isClosing),
    withBody({ maxBytes: s.maxBodyBytes, timeoutMs: s.bodyTimeoutMs }),
    s.concurrency.guard,
    withDeadline(s.requestTimeoutMs, s.now),
  ];
  const text = (status: number, body: string) => async (ctx: RequestContext) =>
    send(ctx.res, status, 'text/plain', body);
  return [
    { path: '/healthz', guards: [], handle: text(200, 'ok\n') },
    {
      path: '/readyz',
      guards: [],
      handle: (ctx) => (s.isClosing() ? text(503, 'shutting down\n') : text(200, 'ready\n'))(ctx),
    },
    {
      path: '/v1/functions',
      guards: [auth, method('GET')],
      handle: async (ctx) =>
        send(ctx.res, 200, 'application/json', JSON.stringify({ functions: s.service.functions() }, null, 2) + '\n'),
    },
    { path: '/v1/run', guards: work, handle: runHandler(s.service) },
    { path: '/v1/render', guards: work, handle: renderHandler(s.service) },
  ];
}
