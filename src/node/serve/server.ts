/**
 * `krmfn serve`: functions as an HTTP service (node:http, no framework).
 *
 *   POST /v1/run?image=IMAGE   body: ResourceList (application/yaml or application/json)
 *                              → the output ResourceList in the same form (200 on exit 0, 422 when
 *                                the function failed; `krmfn-exit-code` header either way), or the
 *                                JSON envelope {exitCode, stdout, stderr} when the client accepts
 *                                application/vnd.krmfn.run+json (the remote runtime does).
 *   POST /v1/render            body: {"files": {"path": "text", ...}} (application/json) or a tar
 *                              (application/x-tar) → the rendered package in the same form plus
 *                              results (JSON: {ok, files, results, log}; tar: files + header).
 *   GET  /v1/functions         what this server runs.
 *   GET  /healthz, /readyz     liveness; readiness (503 while shutting down).
 *
 * Limits: request bodies over `maxBodyBytes` get 413; more than `maxConcurrent` requests in
 * flight get 429 (with Retry-After); each request has a deadline (`requestTimeoutMs`, the function
 * fails with a timeout → 504). Optional bearer-token auth on /v1/*. Binds to loopback unless a
 * host is given. `close()` stops accepting, turns readiness off and resolves once in-flight
 * requests have finished (or `graceMs` passed). Logs are JSON lines through `log`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { readTar, writeTar } from '../../core/tar.ts';
import { isKrmfnError } from '../../core/errors.ts';
import { RUN_ENVELOPE_TYPE } from '../../runtimes/remote.ts';
import type { FunctionService } from './service.ts';

export interface ServeOptions {
  service: FunctionService;
  host?: string;
  port?: number;
  token?: string;
  maxBodyBytes?: number;
  maxConcurrent?: number;
  requestTimeoutMs?: number;
  graceMs?: number;
  log?: (entry: Record<string, unknown>) => void;
  now?: () => number;
}

export interface RunningServer {
  readonly url: string;
  readonly address: AddressInfo;
  close(): Promise<void>;
  /** Requests currently being served. */
  inFlight(): number;
}

class HttpError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;
  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.headers = headers;
  }
}

export async function startServer(opts: ServeOptions): Promise<RunningServer> {
  const host = opts.host ?? '127.0.0.1';
  const maxBody = opts.maxBodyBytes ?? 16 * 1024 * 1024;
  const maxConcurrent = opts.maxConcurrent ?? 16;
  const timeoutMs = opts.requestTimeoutMs ?? 60_000;
  const now = opts.now ?? Date.now;
  const log = opts.log ?? (() => {});
  const token = opts.token ? Buffer.from(`Bearer ${opts.token}`) : undefined;
  let inFlight = 0;
  let closing = false;
  let seq = 0;
  const idle: Array<() => void> = [];

  const handler = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = now();
    const id = ++seq;
    const url = new URL(req.url ?? '/', 'http://localhost');
    const entry: Record<string, unknown> = { msg: 'request', id, method: req.method, path: url.pathname };
    let counted = false;
    try {
      if (url.pathname === '/healthz') return send(res, 200, 'text/plain', 'ok\n');
      if (url.pathname === '/readyz')
        return closing ? send(res, 503, 'text/plain', 'shutting down\n') : send(res, 200, 'text/plain', 'ready\n');
      if (!url.pathname.startsWith('/v1/')) throw new HttpError(404, `no route for ${url.pathname}`);
      if (token) {
        const got = Buffer.from(req.headers.authorization ?? '');
        if (got.length !== token.length || !timingSafeEqual(got, token)) {
          throw new HttpError(401, 'missing or wrong bearer token', { 'www-authenticate': 'Bearer' });
        }
      }
      if (url.pathname === '/v1/functions') {
        if (req.method !== 'GET') throw new HttpError(405, 'use GET', { allow: 'GET' });
        return send(
          res,
          200,
          'application/json',
          JSON.stringify({ functions: opts.service.functions() }, null, 2) + '\n',
        );
      }
      if (req.method !== 'POST') throw new HttpError(405, 'use POST', { allow: 'POST' });
      if (closing) throw new HttpError(503, 'server is shutting down');
      if (inFlight >= maxConcurrent)
        throw new HttpError(429, `too many requests in flight (limit ${maxConcurrent})`, { 'retry-after': '1' });
      inFlight++;
      counted = true;
      const body = await readBody(req, maxBody);
      entry.bytesIn = body.length;
      const ac = new AbortController();
      // The function's own deadline (below) fails it with a timeout; this later timer only
      // guarantees the request ends even if a runner ignores its deadline.
      const timer = setTimeout(() => ac.abort(new Error('request deadline exceeded')), timeoutMs + 1000);
      req.on('close', () => {
        if (!res.writableFinished) ac.abort(new Error('client went away'));
      });
      try {
        const deadline = now() + timeoutMs;
        if (url.pathname === '/v1/run') await handleRun(req, res, url, body, ac.signal, deadline, entry);
        else if (url.pathname === '/v1/render') await handleRender(req, res, body, ac.signal, deadline, entry);
        else throw new HttpError(404, `no route for ${url.pathname}`);
      } finally {
        clearTimeout(timer);
      }
    } catch (e) {
      const status =
        e instanceof HttpError ? e.status : isKrmfnError(e) && e.code === 'timeout' ? 504 : isKrmfnError(e) ? 400 : 500;
      const message = e instanceof Error ? e.message : String(e);
      entry.error = message;
      if (!res.headersSent) {
        res.writeHead(status, { 'content-type': 'application/json', ...(e instanceof HttpError ? e.headers : {}) });
        res.end(JSON.stringify({ error: message, ...(isKrmfnError(e) ? { code: e.code } : {}) }) + '\n');
      } else res.destroy();
    } finally {
      if (counted) inFlight--;
      entry.status = res.statusCode;
      entry.ms = now() - started;
      log(entry);
      if (closing && inFlight === 0) for (const f of idle.splice(0)) f();
    }
  };

  async function handleRun(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    body: Uint8Array,
    signal: AbortSignal,
    deadline: number,
    entry: Record<string, unknown>,
  ): Promise<void> {
    const image = url.searchParams.get('image');
    if (!image) throw new HttpError(400, 'missing ?image= parameter');
    entry.image = image;
    const format = contentFormat(req.headers['content-type']);
    const out = await opts.service.run({ image, input: body, format, signal, deadline });
    entry.exitCode = out.exitCode;
    if ((req.headers.accept ?? '').includes(RUN_ENVELOPE_TYPE)) {
      const text = new TextDecoder().decode(out.stdout);
      return send(
        res,
        200,
        RUN_ENVELOPE_TYPE,
        JSON.stringify({ exitCode: out.exitCode, stdout: text, stderr: out.stderr }),
        {
          'krmfn-exit-code': String(out.exitCode),
        },
      );
    }
    send(res, out.exitCode === 0 ? 200 : 422, format === 'json' ? 'application/json' : 'application/yaml', out.stdout, {
      'krmfn-exit-code': String(out.exitCode),
    });
  }

  async function handleRender(
    req: IncomingMessage,
    res: ServerResponse,
    body: Uint8Array,
    signal: AbortSignal,
    deadline: number,
    entry: Record<string, unknown>,
  ): Promise<void> {
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim();
    const files = new Map<string, Uint8Array>();
    const enc = new TextEncoder();
    if (type === 'application/x-tar') {
      for (const e of readTar(body)) files.set(e.path, e.data);
    } else if (type === 'application/json') {
      let parsed: unknown;
      try {
        parsed = JSON.parse(new TextDecoder().decode(body));
      } catch (e) {
        throw new HttpError(400, `malformed JSON body: ${(e as Error).message}`);
      }
      const map = (parsed as { files?: unknown } | null)?.files;
      if (!map || typeof map !== 'object' || Array.isArray(map))
        throw new HttpError(400, 'body must be {"files": {"<path>": "<content>", ...}}');
      for (const [p, v] of Object.entries(map as Record<string, unknown>)) {
        if (typeof v !== 'string') throw new HttpError(400, `files[${JSON.stringify(p)}] must be a string`);
        if (p.startsWith('/') || p.split('/').includes('..'))
          throw new HttpError(400, `file path ${JSON.stringify(p)} escapes the package`);
        files.set(p, enc.encode(v));
      }
    } else {
      throw new HttpError(415, 'send application/json ({"files": {...}}) or application/x-tar');
    }
    entry.files = files.size;
    const out = await opts.service.render({ files, signal, deadline });
    entry.ok = out.ok;
    const headers = { 'krmfn-exit-code': out.ok ? '0' : '1' };
    if (type === 'application/x-tar') {
      const entries = [...out.files].map(([path, data]) => ({ path, data }));
      entries.push({ path: '.krmfn/results.json', data: enc.encode(JSON.stringify(out.results, null, 2) + '\n') });
      return send(res, out.ok ? 200 : 422, 'application/x-tar', writeTar(entries), headers);
    }
    const dec = new TextDecoder();
    const filesOut: Record<string, string> = {};
    for (const [p, d] of out.files) filesOut[p] = dec.decode(d);
    send(
      res,
      out.ok ? 200 : 422,
      'application/json',
      JSON.stringify({
        ok: out.ok,
        ...(out.error ? { error: out.error } : {}),
        files: filesOut,
        results: out.results,
        log: out.log,
      }) + '\n',
      headers,
    );
  }

  const server: Server = createServer((req, res) => void handler(req, res));
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  log({ msg: 'listening', url: `http://${shown}:${address.port}` });
  return {
    url: `http://${shown}:${address.port}`,
    address,
    inFlight: () => inFlight,
    close: () =>
      new Promise<void>((resolve) => {
        closing = true;
        log({ msg: 'shutting down', inFlight });
        server.close(() => resolve());
        server.closeIdleConnections();
        const drained = new Promise<void>((r) => (inFlight === 0 ? r() : idle.push(r)));
        const grace = setTimeout(() => server.closeAllConnections(), opts.graceMs ?? 30_000);
        void drained.then(() => {
          clearTimeout(grace);
          server.closeIdleConnections();
        });
      }),
  };
}

function contentFormat(type: string | undefined): 'yaml' | 'json' {
  return (type ?? '').includes('json') ? 'json' : 'yaml';
}

function readBody(req: IncomingMessage, max: number): Promise<Uint8Array> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > max) return Promise.reject(new HttpError(413, `request body larger than ${max} bytes`));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > max) {
        reject(new HttpError(413, `request body larger than ${max} bytes`));
        req.pause();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    req.on('error', reject);
  });
}

function send(
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
