/**
 * The OCI client against a real registry (Debian's docker-registry on loopback): push and pull of
 * images and multi-platform indexes built here, platform selection, `@sha256:` pins, pull policies
 * over a store, htpasswd (Basic) auth, and the clear errors: not found, unauthorized, wrong platform.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryBlobStore, OciClient, parseReference, sha256Digest } from '../../src/core/oci/index.ts';
import { layerText, pushMultiPlatform, pushPlatformImage } from './fixtures.ts';
import { REGISTRY_BINARY, SKIP_MESSAGE, startRegistry, type TestRegistry } from './registry.ts';

if (!REGISTRY_BINARY) console.warn(`test/oci/client.test.ts skipped: ${SKIP_MESSAGE}`);

describe.skipIf(!REGISTRY_BINARY)('OCI client with a real registry', () => {
  let reg: TestRegistry;
  beforeAll(async () => {
    reg = await startRegistry();
  });
  afterAll(async () => reg?.stop());

  const ref = (s: string) => parseReference(`${reg.host}/${s}`);

  it('pushes a multi-platform index and pulls the image for each platform', async () => {
    const client = new OciClient();
    const indexDigest = await pushMultiPlatform(client, ref('team/fn:v1'));
    const amd = await client.pull(`${reg.host}/team/fn:v1`, { platform: { os: 'linux', architecture: 'amd64' } });
    const arm = await client.pull(`${reg.host}/team/fn:v1`, { platform: { os: 'linux', architecture: 'arm64' } });
    expect(amd.indexDigest).toBe(indexDigest);
    expect(layerText(amd.layers[0].bytes)).toBe('linux/amd64\n');
    expect(layerText(arm.layers[0].bytes)).toBe('linux/arm64\n');
    expect(amd.manifestDigest).not.toBe(arm.manifestDigest);
    expect(JSON.parse(new TextDecoder().decode(amd.config))).toMatchObject({ architecture: 'amd64' });
    expect(amd.source).toBe('pulled');
  });

  it('names the platforms on offer when none matches', async () => {
    const client = new OciClient();
    await pushMultiPlatform(client, ref('team/plat:v1'));
    await expect(
      client.pull(`${reg.host}/team/plat:v1`, { platform: { os: 'linux', architecture: 's390x' } }),
    ).rejects.toMatchObject({
      code: 'oci-platform',
      message: `pulling ${reg.host}/team/plat:v1: no image for platform linux/s390x (the index offers linux/amd64, linux/arm64)`,
    });
  });

  it('honours a digest pin and refuses a digest the registry does not have', async () => {
    const client = new OciClient();
    const d = await pushPlatformImage(client, ref('team/pin:v1'), { os: 'linux', architecture: 'amd64' });
    const pinned = await client.pull(`${reg.host}/team/pin@${d.digest}`);
    expect(pinned.manifestDigest).toBe(d.digest);
    // A tag and a digest: the digest wins.
    expect((await client.pull(`${reg.host}/team/pin:nosuchtag@${d.digest}`)).manifestDigest).toBe(d.digest);
    const other = await sha256Digest(new TextEncoder().encode('nothing'));
    await expect(client.pull(`${reg.host}/team/pin@${other}`)).rejects.toMatchObject({ code: 'oci-not-found' });
  });

  it('reports a missing repository or tag as not found, naming the reference', async () => {
    const client = new OciClient();
    await expect(client.pull(`${reg.host}/nobody/here:v9`)).rejects.toMatchObject({
      code: 'oci-not-found',
      message: expect.stringContaining(`pulling ${reg.host}/nobody/here:v9: not found (HTTP 404)`),
    });
  });

  it('follows the pull policy over a store: IfNotPresent reuses a tag, Always asks again, Never never asks', async () => {
    const store = new MemoryBlobStore();
    let requests = 0;
    const counting = (input: string, init?: RequestInit) => {
      requests++;
      return fetch(input, init);
    };
    const pusher = new OciClient();
    const first = await pushPlatformImage(pusher, ref('team/policy:v1'), { os: 'linux', architecture: 'amd64' }, true);
    const client = new OciClient({ store, fetch: counting });
    const name = `${reg.host}/team/policy:v1`;
    await expect(client.pull(name, { policy: 'Never' })).rejects.toMatchObject({ code: 'oci-not-cached' });
    expect(requests).toBe(0);
    expect((await client.pull(name)).source).toBe('pulled');
    const afterPull = requests;
    const cached = await client.pull(name, { policy: 'IfNotPresent' });
    expect(cached).toMatchObject({ source: 'cached', manifestDigest: first.digest });
    expect(requests).toBe(afterPull);
    expect((await client.pull(name, { policy: 'Never' })).manifestDigest).toBe(first.digest);
    // The tag moves on the registry: IfNotPresent keeps what it has, Always sees the new image.
    const second = await pushPlatformImage(pusher, ref('team/policy:v1'), { os: 'linux', architecture: 'arm64' }, true);
    expect((await client.pull(name)).manifestDigest).toBe(first.digest);
    const always = await client.pull(name, { policy: 'Always' });
    expect(always.manifestDigest).toBe(second.digest);
    expect(always.source).toBe('pulled');
  });
});

describe.skipIf(!REGISTRY_BINARY)('OCI client with htpasswd auth', () => {
  let reg: TestRegistry;
  beforeAll(async () => {
    reg = await startRegistry({ username: 'alice', password: 's3cret:with colon' });
  });
  afterAll(async () => reg?.stop());

  it('pushes and pulls with credentials, refuses anonymous and wrong ones', async () => {
    const good = new OciClient({
      credentials: (r) => (r === reg.host ? { username: 'alice', password: 's3cret:with colon' } : undefined),
    });
    const d = await pushPlatformImage(
      good,
      parseReference(`${reg.host}/private/fn:v1`),
      { os: 'linux', architecture: 'amd64' },
      true,
    );
    expect((await good.pull(`${reg.host}/private/fn:v1`)).manifestDigest).toBe(d.digest);
    await expect(new OciClient().pull(`${reg.host}/private/fn:v1`)).rejects.toMatchObject({
      code: 'oci-unauthorized',
      status: 401,
      message: expect.stringContaining(`pulling ${reg.host}/private/fn:v1: unauthorized (HTTP 401)`),
    });
    const wrong = new OciClient({ credentials: () => ({ username: 'alice', password: 'nope' }) });
    await expect(wrong.pull(`${reg.host}/private/fn:v1`)).rejects.toMatchObject({ code: 'oci-unauthorized' });
  });
});
