/**
 * `krmfn serve`: functions as an HTTP service (node:http, no framework). The endpoints and their
 * guards are the route table in routes.ts; request and response forms are in handlers.ts.
 *
 *   POST /v1/run?image=IMAGE   run one function on a ResourceList
 *   POST /v1/render            render a package (JSON file map or tar)
 *   GET  /v1/functions         what this server runs
 *   GET  /healthz, /readyz     liveness; readiness (503 while draining)
 *
 * Limits: headers must arrive within `headersTimeoutMs` and a body within `bodyTimeoutMs` (408);
 * bodies over `maxBodyBytes` get 413; a request counts toward `maxConcurrent` once its body has
 * arrived, beyond it 429 (Retry-After); each request has a deadline (`requestTimeoutMs`: 504).
 * Optional bearer-token auth on /v1/*. Binds to loopback unless a host is given.
 *
 * `close()` drains: it stops accepting connections and turns readiness off, lets every request
 * already received finish (those reading their body, waiting for a worker or running), answers
 * new requests on open keep-alive connections with 503, and resolves once all are done or
 * `graceMs` passed (then remaining connections are cut). Logs are JSON lines through `log`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { compose, ConcurrencyLimit, logged, type Guard, type RequestContext } from './guards.ts';
import { HttpError } from './http.ts';
import { routes, type Route } from './routes.ts';
import type { FunctionService } from './service.ts';

export interface ServeOptions {
  service: FunctionService;
  host?: string;
  port?: number;
  token?: string;
  maxBodyBytes?: number;
  maxConcurrent?: number;
  requestTimeoutMs?: number;
  /** Time a request's headers may take to arrive (default 10 s). */
  headersTimeoutMs?: number;
  /** Time a request's body may take to arrive once its headers are in (default 30 s). */
  bodyTimeoutMs?: number;
  graceMs?: number;
  log?: (entry: Record<string, unknown>) => void;
  now?: () => number;
}

export interface RunningServer {
  readonly url: string;
  readonly address: AddressInfo;
  close(): Promise<void>;
  /** Requests past their body and not yet answered (what `maxConcurrent` bounds). */
  inFlight(): number;
  /** Requests received and not yet answered, including those still reading their body. */
  open(): number;
}

export async function startServer(opts: ServeOptions): Promise<RunningServer> {
  const now = opts.now ?? Date.now;
  const log = opts.log ?? (() => {});
  const headersTimeoutMs = opts.headersTimeoutMs ?? 10_000;
  const bodyTimeoutMs = opts.bodyTimeoutMs ?? 30_000;
  const concurrency = new ConcurrencyLimit(opts.maxConcurrent ?? 16);
  let closing = false;
  let open = 0;
  let seq = 0;
  const drained: Array<() => void> = [];

  const table = new Map<string, Guard>(
    routes({
      service: opts.service,
      token: opts.token,
      maxBodyBytes: opts.maxBodyBytes ?? 16 * 1024 * 1024,
      bodyTimeoutMs,
      requestTimeoutMs: opts.requestTimeoutMs ?? 60_000,
      concurrency,
      isClosing: () => closing,
      now,
    }).map((r: Route) => [r.path, compose(r.guards, (ctx) => r.handle(ctx))]),
  );
  const notFound: Guard = async (ctx) => {
    throw new HttpError(404, `no route for ${ctx.url.pathname}`);
  };
  const logging = logged(log, now);
  const done = async (): Promise<void> => {};
  const handle = (ctx: RequestContext): Promise<void> =>
    logging(ctx, () => (table.get(ctx.url.pathname) ?? notFound)(ctx, done));

  const server: Server = createServer(
    {
      headersTimeout: headersTimeoutMs,
      // Node's own backstop for a whole request's arrival; body.ts enforces the body bound exactly.
      requestTimeout: headersTimeoutMs + bodyTimeoutMs + 1000,
      connectionsCheckingInterval: Math.min(1000, headersTimeoutMs),
    },
    (req, res) => {
      open++;
      if (closing) res.setHeader('connection', 'close');
      const url = new URL(req.url ?? '/', 'http://localhost');
      const entry: Record<string, unknown> = { msg: 'request', id: ++seq, method: req.method, path: url.pathname };
      void handle({ req, res, url, entry }).finally(() => {
        open--;
        if (closing && open === 0) for (const f of drained.splice(0)) f();
      });
    },
  );
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${shown}:${address.port}`;
  log({ msg: 'listening', url });
  return {
    url,
    address,
    inFlight: () => concurrency.inFlight,
    open: () => open,
    close: () =>
      new Promise<void>((resolve) => {
        closing = true;
        log({ msg: 'shutting down', open });
        server.close(() => resolve());
        server.closeIdleConnections();
        const grace = setTimeout(() => server.closeAllConnections(), opts.graceMs ?? 30_000);
        grace.unref();
        void new Promise<void>((r) => (open === 0 ? r() : drained.push(r))).then(() => {
          clearTimeout(grace);
          server.closeIdleConnections();
        });
      }),
  };
}
