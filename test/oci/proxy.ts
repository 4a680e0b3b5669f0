/**
 * A registry front for tests of hostile or unusual answers: a Node HTTP server on loopback that
 * forwards every request to a real registry, except where the test's `intercept` answers or
 * rewrites. The registry behind it stays real; only the answer under test is changed.
 */
import { createServer, type IncomingMessage } from 'node:http';

export interface ProxyRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Uint8Array;
}

/** Forwards `req` to the registry and answers its response. */
export type Forward = (req: ProxyRequest) => Promise<Response>;
/** Answers a request itself, or undefined to forward it unchanged. */
export type Intercept = (req: ProxyRequest, forward: Forward) => Promise<Response | undefined>;

export interface Proxy {
  host: string;
  /** Requests seen, as `METHOD path`. */
  log: string[];
  stop(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}

export async function startProxy(upstream: string, intercept: Intercept): Promise<Proxy> {
  const log: string[] = [];
  const forward: Forward = async (r) => {
    const headers = { ...r.headers };
    delete headers.host;
    delete headers['content-length'];
    const init: RequestInit = { method: r.method, headers, redirect: 'manual' };
    if (r.method !== 'GET' && r.method !== 'HEAD') init.body = r.body as Uint8Array<ArrayBuffer>;
    return fetch(`http://${upstream}${r.path}`, init);
  };
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
      const pr: ProxyRequest = { method: req.method ?? 'GET', path: req.url ?? '/', headers, body };
      log.push(`${pr.method} ${pr.path}`);
      const answer = (await intercept(pr, forward)) ?? (await forward(pr));
      const out: Record<string, string> = {};
      answer.headers.forEach((v, k) => {
        if (k !== 'content-length' && k !== 'transfer-encoding' && k !== 'content-encoding') out[k] = v;
      });
      if (out.location) out.location = out.location.replace(`http://${upstream}`, `http://${host}`);
      const bytes = new Uint8Array(await answer.arrayBuffer());
      res.writeHead(answer.status, { ...out, 'content-length': String(bytes.byteLength) });
      res.end(pr.method === 'HEAD' ? undefined : bytes);
    })().catch(() => res.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const host = `127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    host,
    log,
    stop: () => new Promise((r) => server.close(() => r())),
  };
}
