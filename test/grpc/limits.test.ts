/**
 * The gRPC service's limits, auth, drain and forwarding, on in-process servers on loopback backed
 * by the real engine; a function that hangs is a remote function whose TCP peer never answers.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { createEngine, defaultRuntimes, type Engine } from 'krmfn';
import { BUILTINS } from 'krmfn/builtins';
import { createBuiltinRuntime } from '../../src/index.ts';
import { createRemoteRuntime } from '../../src/runtimes/remote.ts';
import { createEngineService } from '../../src/node/serve/engine-service.ts';
import { createEvaluatorClient } from '../../src/node/grpc/client.ts';
import { startGrpcServer, type GrpcServeOptions, type RunningGrpcServer } from '../../src/node/grpc/server.ts';
import { hangingPeer, SET_NAMESPACE, setNamespaceList, STARLARK, starlarkList, TestClient, until } from './helpers.ts';

const open: Array<{ close(): unknown }> = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

const functions = BUILTINS.map((b) => ({ name: b.name, images: b.images, summary: b.summary }));
const HANG = 'example.com/fn/hang:v1';
const APP = `- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: app
`;
const LIST = setNamespaceList(`${APP}  data:
    k: v
`);
const STARLARK_LIST = starlarkList(
  APP,
  `for r in ctx.resource_list["items"]:
  r["metadata"]["namespace"] = "from-upstream"`,
);

async function hangingEngine(): Promise<Engine> {
  const peer = await hangingPeer();
  open.push(peer);
  return createEngine({
    runtimes: [
      createRemoteRuntime({ endpoints: [{ image: 'example.com/fn/hang', url: peer.url }] }),
      ...defaultRuntimes(),
    ],
  });
}

async function serve(
  extra: Partial<GrpcServeOptions> = {},
  engine = createEngine(),
): Promise<RunningGrpcServer & { logs: Record<string, unknown>[]; client: TestClient }> {
  const logs: Record<string, unknown>[] = [];
  const s = await startGrpcServer({
    service: createEngineService({ engine, functions }),
    address: '127.0.0.1:0',
    log: (e) => logs.push(e),
    ...extra,
  });
  open.push(s);
  const client = new TestClient(s.target);
  open.push(client);
  return Object.assign(s, { logs, client });
}

describe('krmfn serve --grpc: limits', () => {
  it("honours the client's deadline with DEADLINE_EXCEEDED and frees the slot", async () => {
    const s = await serve({}, await hangingEngine());
    const answer = await s.client.evaluate(HANG, LIST, { deadlineMs: 300 });
    expect(answer.code).toBe(grpc.status.DEADLINE_EXCEEDED);
    await until(() => s.inFlight() === 0);
  });

  it("ends the call with DEADLINE_EXCEEDED at the server's --timeout when the client sets none earlier", async () => {
    const s = await serve({ timeoutMs: 200 }, await hangingEngine());
    const answer = await s.client.evaluate(HANG, LIST, { deadlineMs: 60_000 });
    expect(answer.code).toBe(grpc.status.DEADLINE_EXCEEDED);
    expect(answer.details).toMatch(/did not finish|timed out/);
  });

  it('refuses a message over --max-body with RESOURCE_EXHAUSTED', async () => {
    const s = await serve({ maxMessageBytes: 1024 });
    const big = LIST + `# ${'x'.repeat(2048)}\n`;
    expect((await s.client.evaluate(SET_NAMESPACE, big)).code).toBe(grpc.status.RESOURCE_EXHAUSTED);
    expect((await s.client.evaluate(SET_NAMESPACE, LIST)).code).toBe(grpc.status.OK);
  });

  it('answers RESOURCE_EXHAUSTED beyond --max-concurrent; a cancelled call frees its slot', async () => {
    const s = await serve({ maxConcurrent: 2 }, await hangingEngine());
    const calls: grpc.ClientUnaryCall[] = [];
    const hung = [0, 1].map(() => s.client.evaluate(HANG, LIST, { onCall: (c) => calls.push(c) }));
    await until(() => s.inFlight() === 2);
    const flood = await Promise.all([0, 1, 2, 3, 4].map(() => s.client.evaluate(SET_NAMESPACE, LIST)));
    expect(flood.map((a) => a.code)).toEqual(Array(5).fill(grpc.status.RESOURCE_EXHAUSTED));
    expect(flood[0].details).toBe('too many concurrent calls (limit 2); retry later');
    for (const c of calls) c.cancel();
    expect((await Promise.all(hung)).map((a) => a.code)).toEqual([grpc.status.CANCELLED, grpc.status.CANCELLED]);
    await until(() => s.inFlight() === 0);
    expect((await s.client.evaluate(SET_NAMESPACE, LIST)).code).toBe(grpc.status.OK);
  });

  it('requires the bearer token on EvaluateFunction, not on health checks', async () => {
    const s = await serve({ token: 's3cret' });
    expect(await s.client.evaluate(SET_NAMESPACE, LIST)).toEqual({
      code: grpc.status.UNAUTHENTICATED,
      details: 'missing or wrong bearer token',
    });
    expect((await s.client.evaluate(SET_NAMESPACE, LIST, { token: 'wrong!' })).code).toBe(grpc.status.UNAUTHENTICATED);
    expect((await s.client.evaluate(SET_NAMESPACE, LIST, { token: 's3cret' })).code).toBe(grpc.status.OK);
    expect(await s.client.check()).toMatchObject({ code: 0, status: 'SERVING' });
  });

  it('drains on close: in-flight calls finish, new calls are refused', async () => {
    const s = await serve({}, await hangingEngine());
    const hung = s.client.evaluate(HANG, LIST, { deadlineMs: 1500 });
    await until(() => s.inFlight() === 1);
    let closed = false;
    const closing = s.close().then(() => (closed = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(closed).toBe(false);
    expect((await s.client.evaluate(SET_NAMESPACE, LIST)).code).toBe(grpc.status.UNAVAILABLE);
    expect((await hung).code).toBe(grpc.status.DEADLINE_EXCEEDED);
    await closing;
    expect(closed).toBe(true);
  });
});

describe('krmfn serve --grpc: health', () => {
  it('streams SERVING to a watcher, then NOT_SERVING when the server starts draining', async () => {
    const s = await serve();
    const statuses: string[] = [];
    const watch = (
      s.client.health as unknown as { Watch(req: object): grpc.ClientReadableStream<{ status: string }> }
    ).Watch({ service: '' });
    const ended = new Promise<void>((resolve) => {
      watch.on('data', (m: { status: string }) => statuses.push(m.status));
      watch.on('end', () => resolve());
      watch.on('error', () => resolve());
    });
    await until(() => statuses.length === 1);
    await s.close();
    await ended;
    expect(statuses).toEqual(['SERVING', 'NOT_SERVING']);
  });
});

describe('krmfn serve --grpc: forwarding to an upstream FunctionEvaluator', () => {
  it('runs built-ins in-process and forwards what it cannot run, relaying the answer', async () => {
    const upstream = await serve();
    // The front runs catalog built-ins only; Starlark and unknown images go upstream.
    const frontEngine = createEngine({ runtimes: [createBuiltinRuntime(BUILTINS)] });
    const client = await createEvaluatorClient({ address: upstream.target });
    const front = await serve({ upstream: client }, frontEngine);

    const direct = await upstream.client.evaluate(STARLARK, STARLARK_LIST);
    expect(direct.code).toBe(0);
    expect(await front.client.evaluate(STARLARK, STARLARK_LIST)).toEqual(direct);
    expect(direct.resourceList).toContain('namespace: from-upstream');

    expect((await front.client.evaluate(SET_NAMESPACE, LIST)).code).toBe(0);
    const upstreamCalls = (): unknown[] => upstream.logs.filter((l) => l.msg === 'grpc');
    expect(upstreamCalls().length).toBe(2);

    expect(await front.client.evaluate('example.com/fn/nobody:v1', LIST)).toEqual({
      code: grpc.status.NOT_FOUND,
      details: 'function "example.com/fn/nobody:v1" not found',
    });
    expect(upstreamCalls().length).toBe(3);
  });
});

describe('krmfn serve --grpc: TLS', () => {
  it('serves over TLS with the given certificate and key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'krmfn-grpc-tls-'));
    open.push({ close: () => rmSync(dir, { recursive: true, force: true }) });
    const cert = join(dir, 'cert.pem');
    const key = join(dir, 'key.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { stdio: 'ignore' },
    );
    const s = await serve({ tlsCertFile: cert, tlsKeyFile: key });
    const tlsClient = new TestClient(s.target, grpc.credentials.createSsl(readFileSync(cert)));
    open.push(tlsClient);
    expect((await tlsClient.evaluate(SET_NAMESPACE, LIST)).code).toBe(grpc.status.OK);
    // A plaintext client cannot talk to it.
    expect((await s.client.evaluate(SET_NAMESPACE, LIST, { deadlineMs: 5000 })).code).toBe(grpc.status.UNAVAILABLE);
    const ours = await createEvaluatorClient({ address: s.target, tls: true, caFile: cert });
    open.push(ours);
    const res = await ours.evaluate({ resource_list: new TextEncoder().encode(LIST), image: SET_NAMESPACE });
    expect(new TextDecoder().decode(res.resource_list)).toContain('namespace: prod');
  });
});
