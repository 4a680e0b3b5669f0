/**
 * `krmfn serve` as the CLI runs it: flags reach the worker processes (--allow-alpha-wasm), and
 * SIGTERM drains: requests already received (running or queued for a worker) are answered, not
 * reset, and the process exits 0.
 */
import { request } from 'node:http';
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { readTar, writeTar } from '../../src/core/tar.ts';
import { startServeProcess, type ServeProcess } from './serve-process.ts';

const running: ServeProcess[] = [];
afterEach(async () => {
  for (const s of running.splice(0)) await s.stop('SIGKILL');
});

async function serve(args: string[]): Promise<ServeProcess> {
  const s = await startServeProcess(args);
  running.push(s);
  return s;
}

const enc = new TextEncoder();
const KPTFILE = (mutator: string): string =>
  `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: x\npipeline:\n  mutators:\n  - ${mutator}\n`;
const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n';
const BUSY = `apiVersion: fn.kpt.dev/v1alpha1
kind: StarlarkRun
metadata:
  name: busy
  annotations:
    config.kubernetes.io/local-config: "true"
source: |
  n = 0
  for i in range(300000):
    n += i
  for r in ctx.resource_list["items"]:
    if r["kind"] == "ConfigMap":
      r["data"] = {"sum": str(n)}
`;

/** POSTs a JSON render with node:http; resolves with the status or rejects on a reset. */
function postRender(url: string, files: Record<string, string>): { sent: Promise<void>; status: Promise<number> } {
  const body = JSON.stringify({ files });
  const u = new URL(`${url}/v1/render`);
  const req = request({
    host: u.hostname,
    port: u.port,
    path: u.pathname,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) },
  });
  const status = new Promise<number>((resolve, reject) => {
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
  });
  const sent = new Promise<void>((r) => req.end(body, () => r()));
  return { sent, status };
}

describe('krmfn serve (process)', () => {
  it('--allow-alpha-wasm reaches the runtimes in the worker processes', async () => {
    const s = await serve(['--allow-alpha-wasm', '--workers', '1']);
    const tar = writeTar([
      { path: 'Kptfile', data: enc.encode(KPTFILE('exec: fns/annotate.wasm')) },
      { path: 'cm.yaml', data: enc.encode(CM) },
      { path: 'fns/annotate.wasm', data: new Uint8Array(readFileSync('wasm/testdata/annotate-yaml.wasm')) },
    ]);
    const res = await fetch(`${s.url}/v1/render`, {
      method: 'POST',
      body: tar as Uint8Array<ArrayBuffer>,
      headers: { 'content-type': 'application/x-tar' },
    });
    expect(res.status).toBe(200);
    const files = new Map(readTar(new Uint8Array(await res.arrayBuffer())).map((e) => [e.path, e.data]));
    expect(new TextDecoder().decode(files.get('cm.yaml'))).toContain('wasm.krmfn.dev/touched: "true"');
  });

  it('drains on SIGTERM: running and queued requests are answered, then it exits 0', async () => {
    const s = await serve(['--workers', '1']);
    const files = {
      Kptfile: KPTFILE('image: gcr.io/kpt-fn/starlark:v0.5.0\n    configPath: fn.yaml'),
      'fn.yaml': BUSY,
      'cm.yaml': CM,
    };
    const first = postRender(s.url, files);
    const second = postRender(s.url, files);
    await Promise.all([first.sent, second.sent]);
    // The server has read both requests once it answers a later one.
    expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
    const code = s.stop('SIGTERM');
    expect(await first.status).toBe(200);
    expect(await second.status).toBe(200);
    expect(await code).toBe(0);
    expect(s.logs.filter((l) => l.path === '/v1/render').map((l) => l.status)).toEqual([200, 200]);
    expect(s.logs.at(-1)).toMatchObject({ msg: 'stopped' });
  });
});
