/**
 * Image references as Docker normalises them (distribution/reference's rules), WWW-Authenticate
 * challenges, Docker config credentials read from real files, and the disk store's layout.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  formatReference,
  parseChallenge,
  parsePullPolicy,
  parseReference,
  sha256Digest,
} from '../../src/core/oci/index.ts';
import { runCli } from '../harness/golden.ts';
import { cacheRoot, DiskBlobStore, dockerCredentials } from '../../src/node/oci/index.ts';

const D = `sha256:${'a'.repeat(64)}`;

describe('parseReference', () => {
  it.each([
    ['nginx', 'docker.io/library/nginx:latest'],
    ['nginx:1.25', 'docker.io/library/nginx:1.25'],
    ['docker.io/nginx', 'docker.io/library/nginx:latest'],
    ['index.docker.io/library/nginx', 'docker.io/library/nginx:latest'],
    ['nephio/vlan-fn:v1', 'docker.io/nephio/vlan-fn:v1'],
    ['localhost/fn', 'localhost/fn:latest'],
    ['localhost:5000/team/fn:v2', 'localhost:5000/team/fn:v2'],
    ['127.0.0.1:5000/fn', '127.0.0.1:5000/fn:latest'],
    ['gcr.io/kpt-fn/set-namespace:v0.4.1', 'gcr.io/kpt-fn/set-namespace:v0.4.1'],
    [`ghcr.io/org/fn@${D}`, `ghcr.io/org/fn@${D}`],
    [`ghcr.io/org/fn:v1@${D}`, `ghcr.io/org/fn:v1@${D}`],
    ['my-registry.example.com:443/a/b/c:t_1.2-x', 'my-registry.example.com:443/a/b/c:t_1.2-x'],
  ])('%s is %s', (input, expected) => {
    expect(formatReference(parseReference(input))).toBe(expected);
  });

  it.each([
    ['', 'empty'],
    ['Nginx', 'invalid repository component "Nginx"'],
    ['ghcr.io/org/fn@sha256:abc', 'a digest is sha256: and 64 lower-case hex digits'],
    ['ghcr.io/org/fn:-bad', 'invalid tag "-bad"'],
    ['ghcr.io/org//fn', 'invalid repository component ""'],
  ])('refuses %j (%s)', (input, why) => {
    expect(() => parseReference(input)).toThrow(
      expect.objectContaining({ code: 'oci-reference', message: expect.stringContaining(why) }),
    );
  });
});

describe('parseChallenge', () => {
  it('reads Bearer parameters, quoted (with escapes and commas) or bare', () => {
    expect(
      parseChallenge(
        'Bearer realm="https://auth.example/token",service=registry.example,scope="repository:a/b:pull,push"',
      ),
    ).toEqual({
      scheme: 'bearer',
      params: { realm: 'https://auth.example/token', service: 'registry.example', scope: 'repository:a/b:pull,push' },
    });
    expect(parseChallenge('Basic realm="say \\"hi\\""')).toEqual({ scheme: 'basic', params: { realm: 'say "hi"' } });
  });
});

describe('Node edge: credentials and cache', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'krmfn-oci-unit-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('reads auths from $DOCKER_CONFIG/config.json: auth (base64 user:pass), username/password, Docker Hub keys', async () => {
    const dir = join(tmp, 'docker');
    mkdirSync(dir);
    writeFileSync(
      join(dir, 'config.json'),
      JSON.stringify({
        auths: {
          'https://index.docker.io/v1/': { auth: Buffer.from('hubuser:hub:pass').toString('base64') },
          'localhost:5000': { username: 'alice', password: 'pw' },
          'https://ghcr.io': { auth: Buffer.from('gh:token').toString('base64') },
        },
      }),
    );
    const creds = dockerCredentials({ DOCKER_CONFIG: dir });
    expect(await creds('docker.io')).toEqual({ username: 'hubuser', password: 'hub:pass' });
    expect(await creds('localhost:5000')).toEqual({ username: 'alice', password: 'pw' });
    expect(await creds('ghcr.io')).toEqual({ username: 'gh', password: 'token' });
    expect(await creds('quay.io')).toBeUndefined();
    expect(await dockerCredentials({ DOCKER_CONFIG: join(tmp, 'missing') })('docker.io')).toBeUndefined();
  });

  it('places the cache by KRMFN_CACHE_DIR, XDG_CACHE_HOME or HOME', () => {
    expect(cacheRoot({ KRMFN_CACHE_DIR: '/c', XDG_CACHE_HOME: '/x', HOME: '/h' })).toBe('/c');
    expect(cacheRoot({ XDG_CACHE_HOME: '/x', HOME: '/h' })).toBe('/x/krmfn');
    expect(cacheRoot({ HOME: '/h' })).toBe('/h/.cache/krmfn');
  });

  it('keeps blobs by digest and tags by name on disk, shared between store instances', async () => {
    const root = join(tmp, 'cache');
    const bytes = new TextEncoder().encode('blob');
    const digest = await sha256Digest(bytes);
    await new DiskBlobStore(root).putBlob(digest, bytes);
    await new DiskBlobStore(root).putTag('localhost:5000/a/b:v1', digest);
    const other = new DiskBlobStore(root);
    expect(await other.getBlob(digest)).toEqual(bytes);
    expect(await other.getTag('localhost:5000/a/b:v1')).toBe(digest);
    expect(readFileSync(join(root, 'oci', 'blobs', 'sha256', digest.slice(7)), 'utf8')).toBe('blob');
    expect(await other.getBlob(`sha512:${'0'.repeat(128)}`)).toBeUndefined();
  });
});

describe('--image-pull-policy', () => {
  it('takes the three policies in any case, as kpt does, and refuses others with kpt message', async () => {
    expect(['always', 'IFNOTPRESENT', 'Never', 'nope'].map(parsePullPolicy)).toEqual([
      'Always',
      'IfNotPresent',
      'Never',
      undefined,
    ]);
    const r = await runCli(['fn', 'eval', '-', '--exec', '/bin/cat', '--image-pull-policy', 'bogus'], {
      cwd: tmpdir(),
      stdin: '',
    });
    expect(r).toMatchObject({
      exitCode: 1,
      stderr:
        'error: invalid argument "bogus" for "--image-pull-policy" flag: must be one of: Always, IfNotPresent, Never\n',
    });
  });
});
