/**
 * Soak of `krmfn serve` as a real process on loopback, bounded in count and time: slow bodies,
 * a flood beyond --max-concurrent, 9 MB of nested YAML, a Starlark print flood and a looping
 * script, all at once. Throughout, /healthz answers, every request gets an HTTP answer (none is
 * reset), and the server's resident memory (its own process; work runs in worker processes)
 * stays under a bound.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServeProcess, type ServeProcess } from './serve-process.ts';

/**
 * The server's own Node runs with a fixed old-space limit: if its memory grew with the size of a
 * function's output (the print flood writes far more than the 16 MiB output budget), it would die
 * of an out-of-memory error and `exitCode` would not be null. Measured here: it survives at 160 and
 * 256 MiB; at 96 MiB one budget-sized render answer (the rendered Kptfile records the failed step's
 * whole stderr at 1.0.0-beta.67, kptdev/kpt pkg/lib/kptops/render_executor.go at v1.0.0-beta.67) is
 * more than it can hold while it is serialized.
 */
const SERVER_HEAP_MB = 256;
/**
 * Peak RSS of the server process (not its workers). The heap limit bounds the V8 heap; the RSS
 * bound also covers buffers outside it (bodies, IPC, responses). Measured on a 2-core machine
 * shared with other jobs: 106–477 MiB over a dozen runs (the low ones when the deadline stopped the
 * print flood before its budget), 438 MiB with four times the print flood (so the peak follows when
 * the collector runs, not how much the scripts print). A 450 MiB bound failed once at 477.
 */
const RSS_BOUND = 512 * 1024 * 1024;
let s: ServeProcess;
let peakRss = 0;
let sampler: ReturnType<typeof setInterval>;

beforeAll(async () => {
  s = await startServeProcess(
    [
      '--max-concurrent',
      '4',
      '--workers',
      '2',
      '--timeout',
      '3s',
      '--body-timeout',
      '2s',
      '--max-body',
      String(12 * 1024 * 1024),
    ],
    [`--max-old-space-size=${SERVER_HEAP_MB}`],
  );
  sampler = setInterval(() => (peakRss = Math.max(peakRss, s.rss())), 50);
});
afterAll(async () => {
  clearInterval(sampler);
  console.log(`soak: peak server RSS ${(peakRss / 1024 / 1024).toFixed(0)} MiB (bound ${RSS_BOUND / 1024 / 1024} MiB)`);
  await s?.stop('SIGKILL');
});

const LIST = `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: a
functionConfig:
  apiVersion: v1
  kind: ConfigMap
  metadata:
    name: function-input
  data:
    namespace: prod
`;

const starlarkPackage = (source: string): string =>
  JSON.stringify({
    files: {
      Kptfile:
        'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: x\npipeline:\n  mutators:\n  - image: gcr.io/kpt-fn/starlark:v0.5.0\n    configPath: fn.yaml\n',
      'fn.yaml': `apiVersion: fn.kpt.dev/v1alpha1\nkind: StarlarkRun\nmetadata:\n  name: s\n  annotations:\n    config.kubernetes.io/local-config: "true"\nsource: |\n${source
        .split('\n')
        .map((l) => `  ${l}`)
        .join('\n')}\n`,
      'cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n',
    },
  });

/** A request sent with node:http: resolves with the status (a reset rejects). */
function send(path: string, body: string | Buffer, type: string): Promise<number> {
  const u = new URL(`${s.url}${path}`);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname + u.search,
        method: 'POST',
        headers: { 'content-type': type, 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A POST that sends a few bytes of its body and then nothing: the server must answer 408. */
function slowBody(): Promise<number> {
  const u = new URL(`${s.url}/v1/run?image=set-labels:v0.2.0`);
  return new Promise((resolve, reject) => {
    const req = request({
      host: u.hostname,
      port: u.port,
      path: u.pathname + u.search,
      method: 'POST',
      headers: { 'content-type': 'application/yaml', 'content-length': String(LIST.length) },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.write(LIST.slice(0, 5));
  });
}

function nestedYaml(bytes: number): string {
  const depth = Math.floor(bytes / 4);
  return (
    'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- ' + '['.repeat(depth) + ']'.repeat(depth) + '\n'
  );
}

async function healthy(): Promise<boolean> {
  const res = await fetch(`${s.url}/healthz`);
  return res.status === 200 && (await res.text()) === 'ok\n';
}

describe('krmfn serve soak', () => {
  it('keeps answering /healthz with bounded memory under slow bodies, floods, bombs and runaway scripts', async () => {
    const label = (name: string, p: Promise<number>): Promise<number | string> =>
      p.catch((e: Error) => `${name}: ${e.message}`);
    const slow = Array.from({ length: 16 }, () => label('slow', slowBody()));
    const nested = label(
      'nested',
      send('/v1/run?image=set-labels:v0.2.0', nestedYaml(9 * 1024 * 1024), 'application/yaml'),
    );
    const printFlood = label(
      'print',
      send(
        '/v1/render',
        starlarkPackage('line = "flooding the log " * 6000\nfor i in range(2000000):\n  print(line, i)'),
        'application/json',
      ),
    );
    const looping = label(
      'loop',
      send('/v1/render', starlarkPackage('for i in range(1000000000):\n  pass'), 'application/json'),
    );
    const flood = Array.from({ length: 40 }, () =>
      label('flood', send('/v1/run?image=set-labels:v0.2.0', LIST, 'application/yaml')),
    );

    // While all of that is in flight, the main thread answers.
    for (let i = 0; i < 5; i++) expect(await healthy()).toBe(true);
    const floodStatuses = await Promise.all(flood);
    // Served, refused beyond the limit, or past the deadline while queued behind the runaway jobs.
    expect(floodStatuses.filter((c) => c !== 200 && c !== 429 && c !== 504)).toEqual([]);
    expect(floodStatuses).toContain(429);

    expect(await Promise.all(slow)).toEqual(Array(16).fill(408));
    expect(await nested).toBeGreaterThanOrEqual(400);
    const printStatus = await printFlood;
    console.log(`soak: print flood answered ${printStatus}`);
    // 422: stopped at the output budget; 504: the deadline came first on a busy machine.
    expect([422, 504]).toContain(printStatus);
    expect([422, 504]).toContain(await looping);
    expect(await healthy()).toBe(true);
    // Nothing is left holding a slot or a worker: a normal request is served.
    expect(await send('/v1/run?image=gcr.io/kpt-fn/set-namespace:v0.4.1', LIST, 'application/yaml')).toBe(200);
    expect(peakRss).toBeGreaterThan(0);
    expect(peakRss).toBeLessThan(RSS_BOUND);
    expect(s.proc.exitCode).toBeNull();
  });

  it('survives 9 MB of nested YAML on each endpoint, answering /healthz meanwhile', async () => {
    const bomb = nestedYaml(9 * 1024 * 1024);
    const run = send('/v1/run?image=set-labels:v0.2.0', bomb, 'application/yaml');
    const render = send(
      '/v1/render',
      JSON.stringify({
        files: { Kptfile: 'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: x\n', 'a.yaml': bomb },
      }),
      'application/json',
    );
    expect(await healthy()).toBe(true);
    const statuses = await Promise.all([run, render]);
    for (const st of statuses) expect(st).toBeGreaterThanOrEqual(400);
    expect(await healthy()).toBe(true);
    expect(peakRss).toBeLessThan(RSS_BOUND);
    expect(s.proc.exitCode).toBeNull();
  });
});
