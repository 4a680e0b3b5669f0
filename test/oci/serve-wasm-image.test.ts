/**
 * `krmfn serve` with its real worker processes renders a posted package whose pipeline names a
 * WASM image in a registry (the real docker-registry on loopback, behind htpasswd auth), when the
 * server has --allow-alpha-wasm: the workers pull through the server's disk cache with the server's
 * Docker credentials, and a second render runs from that cache with pull policy Never.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BUILTINS } from 'krmfn/builtins';
import { OciClient, parseReference, pushWasmImage } from '../../src/core/oci/index.ts';
import type { ServeConfig } from '../../src/node/serve/config.ts';
import { startServer } from '../../src/node/serve/server.ts';
import type { RenderResponseJson as RenderJson } from '../../src/node/serve/service.ts';
import { createWorkerService } from '../../src/node/serve/worker-service.ts';
import { TESTDATA } from '../wasm/fixtures.ts';
import { REGISTRY_BINARY, SKIP_MESSAGE, startRegistry, type TestRegistry } from './registry.ts';

if (!REGISTRY_BINARY) console.warn(`test/oci/serve-wasm-image.test.ts skipped: ${SKIP_MESSAGE}`);

const functions = BUILTINS.map((b) => ({ name: b.name, images: b.images, summary: b.summary }));
const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n';
const USER = 'servebot';
const PASSWORD = 'serve-secret';

describe.skipIf(!REGISTRY_BINARY)('krmfn serve: registry WASM images in the workers', () => {
  let reg: TestRegistry;
  let tmp: string;
  let image: string;
  const open: Array<{ close(): Promise<void> }> = [];

  beforeAll(async () => {
    reg = await startRegistry({ username: USER, password: PASSWORD });
    tmp = mkdtempSync(join(tmpdir(), 'krmfn-serve-wasm-image-'));
    mkdirSync(join(tmp, 'docker'));
    const auth = Buffer.from(`${USER}:${PASSWORD}`).toString('base64');
    writeFileSync(join(tmp, 'docker', 'config.json'), JSON.stringify({ auths: { [reg.host]: { auth } } }));
    image = `${reg.host}/fns/annotate:v1`;
    const client = new OciClient({ credentials: async () => ({ username: USER, password: PASSWORD }) });
    await pushWasmImage(
      client,
      parseReference(image),
      new Uint8Array(readFileSync(join(TESTDATA, 'annotate-yaml.wasm'))),
      'annotate-yaml.wasm',
    );
  });
  afterEach(async () => {
    for (const s of open.splice(0).reverse()) await s.close();
  });
  afterAll(async () => {
    await reg?.stop();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  async function serve(config: Partial<ServeConfig>): Promise<string> {
    const service = createWorkerService({
      config: {
        timeoutMs: 20_000,
        env: { DOCKER_CONFIG: join(tmp, 'docker'), KRMFN_CACHE_DIR: join(tmp, 'cache') },
        cwd: '/',
        allowWasm: false,
        allowExec: false,
        allowNetwork: false,
        truncateOutput: true,
        attribution: true,
        ...config,
      },
      functions,
      workers: 1,
    });
    const s = await startServer({ service, log: () => {}, requestTimeoutMs: 20_000 });
    open.push(service, s);
    return s.url;
  }

  async function render(url: string): Promise<{ status: number; body: RenderJson }> {
    const files = {
      Kptfile: `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: x\npipeline:\n  mutators:\n  - image: gcr.io/kpt-fn/set-namespace:v0.4.1\n    configMap:\n      namespace: prod\n  - image: ${image}\n`,
      'cm.yaml': CM,
    };
    const res = await fetch(`${url}/v1/render`, {
      method: 'POST',
      body: JSON.stringify({ files }),
      headers: { 'content-type': 'application/json' },
    });
    return { status: res.status, body: (await res.json()) as RenderJson };
  }

  it('pulls with the server credentials into its cache, then renders from the cache with policy Never', async () => {
    const first = await render(await serve({ allowWasm: true }));
    expect(first.body.error).toBeUndefined();
    expect(first.status).toBe(200);
    expect(first.body.files['cm.yaml']).toBe(
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  annotations:\n    wasm.krmfn.dev/touched: "true"\n  namespace: prod\n',
    );
    expect(readdirSync(join(tmp, 'cache', 'oci', 'tags'))).toEqual([encodeURIComponent(image)]);
    await reg.stop(); // nothing to ask any more: the cache must answer
    const again = await render(await serve({ allowWasm: true, imagePullPolicy: 'Never' }));
    expect(again.status).toBe(200);
    expect(again.body.files['cm.yaml']).toContain('wasm.krmfn.dev/touched: "true"');
  });

  it('without --allow-alpha-wasm the server pulls nothing and the render fails', async () => {
    rmSync(join(tmp, 'cache'), { recursive: true, force: true });
    const r = await render(await serve({ allowWasm: false }));
    expect(r.status).toBe(422);
    expect(`${r.body.error ?? ''} ${r.body.log ?? ''}`).toContain(image);
    expect(existsSync(join(tmp, 'cache'))).toBe(false);
  });
});
