/**
 * Registry answers the client must refuse or survive, with a real registry behind a loopback front
 * (test/oci/proxy.ts) that changes only the answer under test: a blob whose bytes do not match its
 * digest, a manifest lying about a layer's size (smaller and larger), a tag whose manifest does not
 * match the registry's Docker-Content-Digest, an index entry whose size lies, 5xx answers that pass
 * (retried) or persist, and the anonymous bearer-token flow public registries use.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA, MemoryBlobStore, OciClient, parseReference, sha256Digest } from '../../src/core/oci/index.ts';
import { layer, pushPlatformImage } from './fixtures.ts';
import { startProxy, type Intercept, type Proxy } from './proxy.ts';
import { REGISTRY_BINARY, SKIP_MESSAGE, startRegistry, type TestRegistry } from './registry.ts';

if (!REGISTRY_BINARY) console.warn(`test/oci/hostile.test.ts skipped: ${SKIP_MESSAGE}`);

const enc = new TextEncoder();
const noWait = { sleep: () => Promise.resolve() };

describe.skipIf(!REGISTRY_BINARY)('hostile and failing registry answers', () => {
  let reg: TestRegistry;
  const proxies: Proxy[] = [];
  beforeAll(async () => {
    reg = await startRegistry();
  });
  afterAll(async () => {
    for (const p of proxies) await p.stop();
    await reg?.stop();
  });

  async function front(intercept: Intercept): Promise<Proxy> {
    const p = await startProxy(reg.host, intercept);
    proxies.push(p);
    return p;
  }

  /** Pushes a tagged one-layer image straight to the registry; answers the layer's digest. */
  async function seed(repo: string): Promise<{ layerDigest: string; manifestDigest: string }> {
    const d = await pushPlatformImage(
      new OciClient(),
      parseReference(`${reg.host}/${repo}:v1`),
      { os: 'linux', architecture: 'amd64' },
      true,
    );
    const m = await new OciClient().pull(`${reg.host}/${repo}:v1`);
    return { layerDigest: m.manifest.layers[0].digest, manifestDigest: d.digest };
  }

  it('refuses a blob whose bytes do not match its digest, and caches nothing', async () => {
    const { layerDigest } = await seed('h/flip');
    const p = await front(async (req, forward) => {
      if (!req.path.endsWith(`/blobs/${layerDigest}`)) return undefined;
      const real = new Uint8Array(await (await forward(req)).arrayBuffer());
      real[real.length - 1] ^= 0xff;
      return new Response(real, { status: 200 });
    });
    const store = new MemoryBlobStore();
    await expect(new OciClient({ store }).pull(`${p.host}/h/flip:v1`)).rejects.toMatchObject({
      code: 'oci-digest',
      message: expect.stringMatching(
        new RegExp(`^pulling ${p.host}/h/flip:v1: blob has digest sha256:[0-9a-f]{64}, expected ${layerDigest}$`),
      ),
    });
    expect(store.blobs.has(layerDigest)).toBe(false);
  });

  it('refuses a manifest lying about a layer size, smaller or larger', async () => {
    const real = layer({ 'a.txt': 'hello\n' });
    const digest = await sha256Digest(real);
    const client = new OciClient();
    const ref = parseReference(`${reg.host}/h/size:v1`);
    await client.pushBlob(ref, { bytes: real, mediaType: MEDIA.ociLayerGzip });
    const config = enc.encode('{}');
    const configDesc = await client.pushBlob(ref, { bytes: config, mediaType: MEDIA.ociConfig });
    const manifestWith = (size: number) =>
      enc.encode(
        JSON.stringify({
          schemaVersion: 2,
          mediaType: MEDIA.ociManifest,
          config: configDesc,
          layers: [{ mediaType: MEDIA.ociLayerGzip, digest, size }],
        }),
      );
    for (const [tag, size, why] of [
      ['small', real.byteLength - 10, `is larger than the ${real.byteLength - 10} bytes its descriptor says`],
      ['large', real.byteLength + 10, `is ${real.byteLength} bytes, its descriptor says ${real.byteLength + 10}`],
    ] as const) {
      const p = await front(async (req) => {
        if (!req.path.endsWith(`/manifests/${tag}`)) return undefined;
        return new Response(manifestWith(size), { status: 200, headers: { 'content-type': MEDIA.ociManifest } });
      });
      await expect(new OciClient().pull(`${p.host}/h/size:${tag}`)).rejects.toMatchObject({
        code: 'oci-digest',
        message: `pulling ${p.host}/h/size:${tag}: blob ${digest} ${why}`,
      });
    }
  });

  it("refuses a tag's manifest that does not match the registry's Docker-Content-Digest", async () => {
    await seed('h/dcd');
    const p = await front(async (req, forward) => {
      if (!req.path.endsWith('/manifests/v1')) return undefined;
      const res = await forward(req);
      const headers = new Headers(res.headers);
      headers.set('docker-content-digest', `sha256:${'1'.repeat(64)}`);
      return new Response(await res.arrayBuffer(), { status: res.status, headers });
    });
    await expect(new OciClient().pull(`${p.host}/h/dcd:v1`)).rejects.toMatchObject({
      code: 'oci-digest',
      message: expect.stringContaining(`expected sha256:${'1'.repeat(64)}`),
    });
  });

  it('refuses an index entry whose size lies', async () => {
    const { manifestDigest } = await seed('h/idx');
    const real = await new OciClient().manifestFor(parseReference(`${reg.host}/h/idx@${manifestDigest}`));
    const index = enc.encode(
      JSON.stringify({
        schemaVersion: 2,
        mediaType: MEDIA.ociIndex,
        manifests: [
          {
            mediaType: MEDIA.ociManifest,
            digest: manifestDigest,
            size: real.bytes.byteLength + 1,
            platform: { os: 'linux', architecture: 'amd64' },
          },
        ],
      }),
    );
    const p = await front(async (req) =>
      req.path.endsWith('/manifests/lying')
        ? new Response(index, { status: 200, headers: { 'content-type': MEDIA.ociIndex } })
        : undefined,
    );
    await expect(
      new OciClient().pull(`${p.host}/h/idx:lying`, { platform: { os: 'linux', architecture: 'amd64' } }),
    ).rejects.toMatchObject({
      code: 'oci-digest',
      message: expect.stringContaining(`the index says ${real.bytes.byteLength + 1}`),
    });
  });

  it('retries 5xx answers and gives up with a registry error when they persist', async () => {
    await seed('h/flaky');
    let failures = 2;
    const flaky = await front(async (req) => {
      if (req.path.includes('/manifests/') && failures > 0) {
        failures--;
        return new Response('busy', { status: 503 });
      }
      return undefined;
    });
    expect((await new OciClient(noWait).pull(`${flaky.host}/h/flaky:v1`)).layers).toHaveLength(1);
    expect(failures).toBe(0);
    const down = await front(async () => new Response('down', { status: 502 }));
    await expect(new OciClient({ ...noWait, retries: 2 }).pull(`${down.host}/h/flaky:v1`)).rejects.toMatchObject({
      code: 'oci-registry',
      status: 502,
    });
    expect(down.log).toHaveLength(3);
  });

  it('follows the anonymous bearer-token flow (WWW-Authenticate realm, service, scope)', async () => {
    await seed('h/token');
    const scopes: string[] = [];
    const p: Proxy = await front(async (req) => {
      if (req.path.startsWith('/token?')) {
        const q = new URL(`http://x${req.path}`).searchParams;
        scopes.push(`${q.get('service')} ${q.get('scope')}`);
        return Response.json({ token: 'granted' });
      }
      if (req.headers.authorization !== 'Bearer granted') {
        return new Response(
          JSON.stringify({ errors: [{ code: 'UNAUTHORIZED', message: 'authentication required' }] }),
          {
            status: 401,
            headers: {
              'www-authenticate': `Bearer realm="http://${p.host}/token",service="test-registry",scope="repository:h/token:pull"`,
            },
          },
        );
      }
      return undefined;
    });
    const client = new OciClient();
    expect((await client.pull(`${p.host}/h/token:v1`)).layers).toHaveLength(1);
    // One token for the scope, reused for every later request.
    expect(scopes).toEqual(['test-registry repository:h/token:pull']);
  });

  it('follows a blob redirect to another origin without sending it the credentials', async () => {
    const { layerDigest } = await seed('h/redirect');
    const seenByStorage: (string | undefined)[] = [];
    const storage = await front(async (req) => {
      seenByStorage.push(req.headers.authorization);
      return undefined;
    });
    const p = await front(async (req) => {
      if (req.headers.authorization === undefined) {
        return new Response('', { status: 401, headers: { 'www-authenticate': 'Basic realm="test"' } });
      }
      if (req.path.endsWith(`/blobs/${layerDigest}`)) {
        return new Response('', { status: 307, headers: { location: `http://${storage.host}${req.path}` } });
      }
      return undefined;
    });
    const client = new OciClient({ credentials: () => ({ username: 'u', password: 'p' }) });
    const img = await client.pull(`${p.host}/h/redirect:v1`);
    expect(img.layers[0].descriptor.digest).toBe(layerDigest);
    expect(seenByStorage).toEqual([undefined]);
  });
});
