/**
 * `krmfn serve` against a real server on loopback, backed by the real engine and built-ins.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { connect, createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createEngine, defaultRuntimes, MemoryFs } from 'krmfn';
import { BUILTINS } from 'krmfn/builtins';
import { readTar, writeTar } from '../../src/core/tar.ts';
import { createRemoteRuntime } from '../../src/runtimes/remote.ts';
import { createEngineService } from '../../src/node/serve/engine-service.ts';
import { startServer, type RunningServer, type ServeOptions } from '../../src/node/serve/server.ts';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const s of open.splice(0).reverse()) await s.close();
});

const functions = BUILTINS.map((b) => ({ name: b.name, images: b.images, summary: b.summary }));

async function serve(
  extra: Partial<ServeOptions> = {},
  engine = createEngine(),
): Promise<RunningServer & { logs: Record<string, unknown>[] }> {
  const logs: Record<string, unknown>[] = [];
  const s = await startServer({
    service: createEngineService({ engine, functions }),
    log: (e) => logs.push(e),
    ...extra,
  });
  open.push(s);
  return Object.assign(s, { logs });
}

const LIST = `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: app # keep me
  data:
    k: v
functionConfig:
  apiVersion: v1
  kind: ConfigMap
  metadata:
    name: function-input
  data:
    namespace: prod
`;

function packageFiles(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return out;
}

describe('krmfn serve: function calls', () => {
  it('answers health, readiness and the function list', async () => {
    const s = await serve();
    expect(await (await fetch(`${s.url}/healthz`)).text()).toBe('ok\n');
    expect((await fetch(`${s.url}/readyz`)).status).toBe(200);
    const list = (await (await fetch(`${s.url}/v1/functions`)).json()) as { functions: { name: string }[] };
    expect(list.functions.map((f) => f.name)).toContain('set-namespace');
    expect(s.address.address).toBe('127.0.0.1');
  });

  it('runs a built-in on a YAML ResourceList and keeps comments', async () => {
    const s = await serve();
    const res = await fetch(`${s.url}/v1/run?image=gcr.io/kpt-fn/set-namespace:v0.4.1`, {
      method: 'POST',
      body: LIST,
      headers: { 'content-type': 'application/yaml' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/yaml');
    expect(res.headers.get('krmfn-exit-code')).toBe('0');
    const text = await res.text();
    expect(text).toContain('namespace: prod');
    expect(text).toContain('name: app # keep me');
    expect(s.logs.find((l) => l.path === '/v1/run')).toMatchObject({
      status: 200,
      image: 'gcr.io/kpt-fn/set-namespace:v0.4.1',
    });
  });

  it('answers JSON with JSON', async () => {
    const s = await serve();
    const body = JSON.stringify({
      apiVersion: 'config.kubernetes.io/v1',
      kind: 'ResourceList',
      items: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } }],
      functionConfig: {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'function-input' },
        data: { env: 'dev' },
      },
    });
    const res = await fetch(`${s.url}/v1/run?image=set-labels:v0.2.0`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(200);
    const out = (await res.json()) as { items: { metadata: { labels: Record<string, string> } }[] };
    expect(out.items[0].metadata.labels).toEqual({ env: 'dev' });
  });

  it('rejects unknown images, malformed bodies and wrong methods with clear errors', async () => {
    const s = await serve();
    const unknown = await fetch(`${s.url}/v1/run?image=example.com/nope:v1`, { method: 'POST', body: LIST });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { code: string }).code).toBe('function-not-found');
    const garbage = await fetch(`${s.url}/v1/run?image=set-labels:v0.2.0`, {
      method: 'POST',
      body: 'items: [unclosed',
    });
    expect(garbage.status).toBe(400);
    expect(((await garbage.json()) as { error: string }).error).toMatch(/yaml|flow|expected/i);
    expect((await fetch(`${s.url}/v1/run`, { method: 'POST', body: LIST })).status).toBe(400);
    expect((await fetch(`${s.url}/v1/run?image=x`)).status).toBe(405);
    const badJson = await fetch(`${s.url}/v1/render`, {
      method: 'POST',
      body: '{nope',
      headers: { 'content-type': 'application/json' },
    });
    expect(badJson.status).toBe(400);
    expect((await fetch(`${s.url}/nowhere`)).status).toBe(404);
  });
});

describe('krmfn serve: package render', () => {
  it('renders a JSON file map exactly as an in-process render does', async () => {
    const s = await serve();
    const files = packageFiles('examples/hello');
    const res = await fetch(`${s.url}/v1/render`, {
      method: 'POST',
      body: JSON.stringify({ files }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(200);
    const out = (await res.json()) as {
      ok: boolean;
      files: Record<string, string>;
      log: string;
      results: { exitCode: number };
    };
    expect(out.ok).toBe(true);
    expect(out.results.exitCode).toBe(0);
    expect(out.log).toContain('Successfully executed');

    const fs = new MemoryFs(Object.fromEntries(Object.entries(files).map(([p, t]) => [`/pkg/${p}`, t])));
    await createEngine().render({ fs, root: '/pkg' });
    const expected = Object.fromEntries(Object.entries(fs.snapshot('/pkg')).map(([p, t]) => [p.slice(5), t]));
    expect(out.files).toEqual(expected);
  });

  it('renders a tar and answers with a tar holding the results', async () => {
    const s = await serve();
    const enc = new TextEncoder();
    const tar = writeTar(
      Object.entries(packageFiles('examples/hello')).map(([path, t]) => ({ path, data: enc.encode(t) })),
    );
    const res = await fetch(`${s.url}/v1/render`, {
      method: 'POST',
      body: tar as Uint8Array<ArrayBuffer>,
      headers: { 'content-type': 'application/x-tar' },
    });
    expect(res.status).toBe(200);
    const entries = readTar(new Uint8Array(await res.arrayBuffer()));
    const byPath = new Map(entries.map((e) => [e.path, new TextDecoder().decode(e.data)]));
    expect(byPath.get('deployment.yaml')).toContain('namespace: hello-prod');
    expect(JSON.parse(byPath.get('.krmfn/results.json')!)).toMatchObject({ kind: 'FunctionResultList', exitCode: 0 });
  });

  it('reports a failing render with 422 and the failure, writing nothing', async () => {
    const s = await serve();
    const files = {
      Kptfile:
        'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: x\npipeline:\n  mutators:\n  - image: gcr.io/kpt-fn/set-namespace:v0.4.1\n    configMap: {}\n    bogus: 1\n',
      'cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n',
    };
    const res = await fetch(`${s.url}/v1/render`, {
      method: 'POST',
      body: JSON.stringify({ files }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(422);
    const out = (await res.json()) as { ok: boolean; error: string; files: Record<string, string> };
    expect(out.ok).toBe(false);
    expect(out.error).toMatch(/field bogus not found/);
    expect(out.files).toEqual(files);
  });
});

/**
 * Starts a POST whose body never finishes until `finish()`; `status` is the answer's status (the
 * server may answer before the body is complete, e.g. 408).
 */
function stalledPost(url: string): { status: Promise<number>; finish(): Promise<number> } {
  const u = new URL(url);
  const req = httpRequest({
    host: u.hostname,
    port: u.port,
    path: u.pathname + u.search,
    method: 'POST',
    headers: { 'content-type': 'application/yaml', 'content-length': String(LIST.length) },
  });
  const status = new Promise<number>((resolve, reject) => {
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
  });
  req.write(LIST.slice(0, 10));
  return {
    status,
    finish() {
      req.end(LIST.slice(10));
      return status;
    },
  };
}

async function until(cond: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** An engine whose `example.com/hang` image runs on a TCP peer that accepts and never answers. */
async function hangingEngine(): Promise<ReturnType<typeof createEngine>> {
  const sockets = new Set<import('node:net').Socket>();
  const hang: TcpServer = createTcpServer((sock) => void sockets.add(sock));
  await new Promise<void>((r) => hang.listen(0, '127.0.0.1', r));
  open.push({
    close: () =>
      new Promise<void>((r) => {
        for (const sock of sockets) sock.destroy();
        hang.close(() => r());
      }),
  });
  const port = (hang.address() as { port: number }).port;
  return createEngine({
    runtimes: [
      createRemoteRuntime({ endpoints: [{ image: 'example.com/hang', url: `http://127.0.0.1:${port}/v1/run` }] }),
      ...defaultRuntimes(),
    ],
  });
}

describe('krmfn serve: limits, auth and shutdown', () => {
  it('refuses bodies over the limit with 413', async () => {
    const s = await serve({ maxBodyBytes: 100 });
    const res = await fetch(`${s.url}/v1/run?image=set-labels:v0.2.0`, { method: 'POST', body: LIST });
    expect(res.status).toBe(413);
  });

  it('answers 429 beyond the concurrency limit, counting requests whose body arrived', async () => {
    const s = await serve({ maxConcurrent: 1 }, await hangingEngine());
    const ac = new AbortController();
    const held = fetch(`${s.url}/v1/run?image=example.com/hang:v1`, { method: 'POST', body: LIST, signal: ac.signal });
    await until(() => s.inFlight() === 1);
    const res = await fetch(`${s.url}/v1/run?image=set-labels:v0.2.0`, { method: 'POST', body: LIST });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('1');
    ac.abort();
    await expect(held).rejects.toThrow();
    // The client went away: its slot is freed and the next request is served.
    await until(() => s.inFlight() === 0);
    const after = await fetch(`${s.url}/v1/run?image=set-labels:v0.2.0`, { method: 'POST', body: LIST });
    expect(after.status).toBe(200);
    expect(s.logs.find((l) => l.image === 'example.com/hang:v1')?.error).toMatch(/cancelled|client went away/);
  });

  it('does not count slow bodies toward the limit', async () => {
    const s = await serve({ maxConcurrent: 1 });
    const slow = Array.from({ length: 16 }, () => stalledPost(`${s.url}/v1/run?image=set-labels:v0.2.0`));
    await until(() => s.open() === 16);
    expect(s.inFlight()).toBe(0);
    const res = await fetch(`${s.url}/v1/run?image=gcr.io/kpt-fn/set-namespace:v0.4.1`, {
      method: 'POST',
      body: LIST,
    });
    expect(res.status).toBe(200);
    for (const p of slow) expect(await p.finish()).toBe(200);
  });

  it('answers 408 and frees the connection when a body does not arrive in time', async () => {
    const s = await serve({ bodyTimeoutMs: 200 });
    const slow = stalledPost(`${s.url}/v1/run?image=set-labels:v0.2.0`);
    expect(await slow.status).toBe(408);
    await until(() => s.open() === 0);
    expect(s.logs.find((l) => l.status === 408)?.error).toMatch(/request body not received within 200 ms/);
  });

  it('closes connections whose headers do not arrive in time', async () => {
    const s = await serve({ headersTimeoutMs: 200 });
    const sock = connect(s.address.port, '127.0.0.1');
    let received = '';
    sock.on('data', (d: Buffer) => (received += d.toString()));
    sock.write('POST /v1/run HTTP/1.1\r\nHost: x\r\n');
    await new Promise<void>((r) => sock.on('close', () => r()));
    expect(received).toMatch(/^HTTP\/1\.1 408/);
  });

  it('fails a request past its deadline with 504', async () => {
    const s = await serve({ requestTimeoutMs: 300 }, await hangingEngine());
    const res = await fetch(`${s.url}/v1/run?image=example.com/hang:v1`, { method: 'POST', body: LIST });
    expect(res.status).toBe(504);
    expect(((await res.json()) as { error: string }).error).toMatch(/timed out|did not finish/);
  });

  it('requires the bearer token on /v1/* when one is set', async () => {
    const s = await serve({ token: 's3cret' });
    expect((await fetch(`${s.url}/v1/functions`)).status).toBe(401);
    expect((await fetch(`${s.url}/v1/functions`, { headers: { authorization: 'Bearer wrong!' } })).status).toBe(401);
    expect((await fetch(`${s.url}/v1/functions`, { headers: { authorization: 'Bearer s3cret' } })).status).toBe(200);
    expect((await fetch(`${s.url}/v1/run`, { method: 'POST', body: LIST })).status).toBe(401);
    expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
  });

  it('shuts down gracefully: readiness off, requests still arriving finish', async () => {
    const s = await serve();
    const slow = stalledPost(`${s.url}/v1/run?image=gcr.io/kpt-fn/set-namespace:v0.4.1`);
    await until(() => s.open() === 1);
    let closed = false;
    const closing = s.close().then(() => (closed = true));
    open.pop();
    await new Promise((r) => setTimeout(r, 50));
    expect(closed).toBe(false);
    expect(await slow.finish()).toBe(200);
    await closing;
    expect(closed).toBe(true);
    await expect(fetch(`${s.url}/healthz`)).rejects.toThrow();
  });
});

describe('remote runtime end to end', () => {
  it('renders a Kptfile pipeline whose function runs on a krmfn server, byte-identical to in-process', async () => {
    const s = await serve();
    const files = packageFiles('examples/hello');
    const toFs = (): MemoryFs =>
      new MemoryFs(Object.fromEntries(Object.entries(files).map(([p, t]) => [`/pkg/${p}`, t])));
    const remote = createRemoteRuntime({
      endpoints: [{ image: 'gcr.io/kpt-fn/set-namespace', url: `${s.url}/v1/run` }],
    });
    const viaServer = toFs();
    const outcome = await createEngine({ runtimes: [remote, ...defaultRuntimes()] }).render({
      fs: viaServer,
      root: '/pkg',
    });
    expect(outcome.ok).toBe(true);
    const local = toFs();
    await createEngine().render({ fs: local, root: '/pkg' });
    expect(viaServer.snapshot()).toEqual(local.snapshot());
    // The server really ran it.
    expect(
      s.logs.filter((l) => l.path === '/v1/run' && l.image === 'gcr.io/kpt-fn/set-namespace:v0.4.1').length,
    ).toBeGreaterThan(0);
  });

  it('names the endpoint when it cannot be reached, after retrying', async () => {
    const s = await serve();
    const url = `${s.url}/v1/run`;
    await s.close();
    open.pop();
    let sleeps = 0;
    const remote = createRemoteRuntime({
      endpoints: [{ image: 'gcr.io/kpt-fn/set-namespace', url, retries: 2 }],
      sleep: async () => void sleeps++,
    });
    const fs = new MemoryFs(
      Object.fromEntries(Object.entries(packageFiles('examples/hello')).map(([p, t]) => [`/pkg/${p}`, t])),
    );
    const before = fs.snapshot();
    // At kpt 1.0.0-beta.56 a failed render writes nothing (beta.67 records the failure in the Kptfile).
    const engine = createEngine({ runtimes: [remote, ...defaultRuntimes()], kptVersion: '1.0.0-beta.56' });
    const outcome = await engine.render({ fs, root: '/pkg' });
    expect(outcome.ok).toBe(false);
    expect(outcome.failure?.error.message).toMatch(
      new RegExp(`cannot reach ${url.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} after 3 attempt\\(s\\)`),
    );
    expect(sleeps).toBe(2);
    expect(fs.snapshot()).toEqual(before);
  });
});
