/**
 * kpt's WASM images end to end with a real registry (Debian's docker-registry on loopback):
 * `krmfn wasm push` / `pull`, and `krmfn fn render --allow-alpha-wasm` running a pipeline that
 * mixes a built-in with a WASM image pulled from the registry, with the disk cache, pull policies
 * and `@sha256:` pins.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA, OciClient, parseReference } from '../../src/core/oci/index.ts';
import { runCli } from '../harness/golden.ts';
import { TESTDATA } from '../wasm/fixtures.ts';
import { pushPlatformImage } from './fixtures.ts';
import { REGISTRY_BINARY, SKIP_MESSAGE, startRegistry, type TestRegistry } from './registry.ts';

if (!REGISTRY_BINARY) console.warn(`test/oci/wasm-image.test.ts skipped: ${SKIP_MESSAGE}`);

/** The real kpt, when installed: images it pushes must run here, and it must read ours. */
const KPT = (() => {
  try {
    execFileSync('kpt', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings # keep me\ndata:\n  mode: fast\n';
const RENDERED =
  'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings # keep me\n  annotations:\n    wasm.krmfn.dev/touched: "true"\n  namespace: prod\ndata:\n  mode: fast\n';

describe.skipIf(!REGISTRY_BINARY)('kpt WASM images in a registry', () => {
  let reg: TestRegistry;
  let tmp: string;
  let env: Record<string, string>;
  let n = 0;
  beforeAll(async () => {
    reg = await startRegistry();
    tmp = mkdtempSync(join(tmpdir(), 'krmfn-wasm-image-'));
    env = { KRMFN_CACHE_DIR: join(tmp, 'cache'), DOCKER_CONFIG: join(tmp, 'docker') };
  });
  afterAll(async () => {
    await reg?.stop();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  function pkg(image: string): string {
    const dir = join(tmp, `pkg${++n}`);
    mkdirSync(dir);
    writeFileSync(
      join(dir, 'Kptfile'),
      `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: p\npipeline:\n  mutators:\n  - image: gcr.io/kpt-fn/set-namespace:v0.4.1\n    configMap:\n      namespace: prod\n  - image: ${image}\n`,
    );
    writeFileSync(join(dir, 'cm.yaml'), CM);
    return dir;
  }

  async function push(image: string): Promise<{ image: string; index: string }> {
    const r = await runCli(['wasm', 'push', join(TESTDATA, 'annotate-yaml.wasm'), image], { cwd: tmp, env });
    expect(r.stderr).toBe('');
    expect(r.exitCode).toBe(0);
    const m =
      /^digest of the image: (sha256:[0-9a-f]{64})\ndigest of the image index: (sha256:[0-9a-f]{64})\nimage has been pushed to (.*)\n$/.exec(
        r.stdout,
      );
    expect(m?.[3]).toBe(image);
    expect(m).not.toBeNull();
    return { image: m![1], index: m![2] };
  }

  it('pushes in the format kpt writes and pulls the same module back', async () => {
    const image = `${reg.host}/fns/annotate:v1`;
    const d = await push(image);
    const index = await new OciClient().manifestFor(parseReference(image));
    expect(index.mediaType).toBe(MEDIA.dockerList);
    expect(index.digest).toBe(d.index);
    expect(index.document).toMatchObject({
      manifests: [{ mediaType: MEDIA.dockerManifest, digest: d.image, platform: { os: 'js', architecture: 'wasm' } }],
    });
    const img = await new OciClient().pull(image, { platform: { os: 'js', architecture: 'wasm' } });
    expect(img.manifest.layers.map((l) => l.mediaType)).toEqual([MEDIA.dockerLayerGzip]);
    const out = join(tmp, 'pulled.wasm');
    const r = await runCli(['wasm', 'pull', image, out], { cwd: tmp, env });
    expect(r).toMatchObject({ exitCode: 0, stderr: '' });
    expect(readFileSync(out)).toEqual(readFileSync(join(TESTDATA, 'annotate-yaml.wasm')));
    // Pushing the same module again gives the same digests.
    expect(await push(image)).toEqual(d);
  });

  it('keeps the other platforms of an existing index', async () => {
    const image = `${reg.host}/fns/both:v1`;
    const client = new OciClient();
    const linux = await pushPlatformImage(client, parseReference(image), { os: 'linux', architecture: 'amd64' });
    await client.pushIndex(parseReference(image), [linux], MEDIA.ociIndex);
    await push(image);
    const amd = await client.pull(image, { platform: { os: 'linux', architecture: 'amd64' } });
    expect(amd.manifestDigest).toBe(linux.digest);
    const wasm = await client.pull(image, { platform: { os: 'js', architecture: 'wasm' } });
    expect(wasm.manifest.layers).toHaveLength(1);
  });

  it('renders a pipeline mixing a built-in and a registry WASM image, then reuses the cache', async () => {
    const image = `${reg.host}/fns/render:v1`;
    const d = await push(image);
    const dir = pkg(image);
    const r = await runCli(['fn', 'render', dir, '--allow-alpha-wasm', '--json'], { cwd: tmp, env });
    expect(r.stderr).toContain(`[PASS] "${image}"`);
    expect(r.exitCode).toBe(0);
    expect(readFileSync(join(dir, 'cm.yaml'), 'utf8')).toBe(RENDERED);
    const report = { runtime: 'wasm', image, reference: image, digest: d.image, indexDigest: d.index };
    expect((JSON.parse(r.stdout) as { images: unknown }).images).toEqual([{ ...report, source: 'pulled' }]);
    // Policy Never runs from the cache the first render filled.
    const again = pkg(image);
    const r2 = await runCli(['fn', 'render', again, '--allow-alpha-wasm', '--image-pull-policy', 'Never', '--json'], {
      cwd: tmp,
      env,
    });
    expect(r2.exitCode).toBe(0);
    expect(readFileSync(join(again, 'cm.yaml'), 'utf8')).toBe(RENDERED);
    expect((JSON.parse(r2.stdout) as { images: unknown }).images).toEqual([{ ...report, source: 'cached' }]);
  });

  it('with policy Never and an empty cache, fails naming the image and writes nothing', async () => {
    const image = `${reg.host}/fns/never:v1`;
    await push(image);
    const dir = pkg(image);
    // kpt takes the policy in any case.
    const r = await runCli(['fn', 'render', dir, '--allow-alpha-wasm', '--image-pull-policy', 'never'], {
      cwd: tmp,
      env: { ...env, KRMFN_CACHE_DIR: join(tmp, 'empty-cache') },
    });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`image ${image} is not in the cache and the pull policy is Never`);
    expect(readFileSync(join(dir, 'cm.yaml'), 'utf8')).toBe(CM);
  });

  it('honours an @sha256 pin of the index and refuses a pin the registry does not hold', async () => {
    const image = `${reg.host}/fns/pinned`;
    const d = await push(`${image}:v1`);
    const ok = pkg(`${image}@${d.index}`);
    const r = await runCli(['fn', 'render', ok, '--allow-alpha-wasm'], { cwd: tmp, env });
    expect(r.exitCode).toBe(0);
    expect(readFileSync(join(ok, 'cm.yaml'), 'utf8')).toBe(RENDERED);
    const wrong = `sha256:${'0'.repeat(64)}`;
    const bad = pkg(`${image}@${wrong}`);
    const r2 = await runCli(['fn', 'render', bad, '--allow-alpha-wasm'], { cwd: tmp, env });
    expect(r2.exitCode).toBe(1);
    expect(r2.stderr).toContain(`pulling ${image}@${wrong}: not found (HTTP 404)`);
    expect(readFileSync(join(bad, 'cm.yaml'), 'utf8')).toBe(CM);
  });

  it('leaves a container image (no js/wasm entry) to the rest of the chain', async () => {
    const image = `${reg.host}/fns/container:v1`;
    await pushPlatformImage(new OciClient(), parseReference(image), { os: 'linux', architecture: 'amd64' }, true);
    const dir = pkg(image);
    const r = await runCli(['fn', 'render', dir, '--allow-alpha-wasm'], { cwd: tmp, env });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('is not built into krmfn and no runtime can run it');
    expect(readFileSync(join(dir, 'cm.yaml'), 'utf8')).toBe(CM);
  });

  it('does not pull without --allow-alpha-wasm', async () => {
    const image = `${reg.host}/fns/render:v1`;
    const dir = pkg(image);
    const r = await runCli(['fn', 'render', dir], { cwd: tmp, env: { ...env, KRMFN_CACHE_DIR: join(tmp, 'unused') } });
    expect(r.exitCode).toBe(1);
    expect(() => readFileSync(join(tmp, 'unused', 'oci', 'tags', encodeURIComponent(`${image}`)))).toThrow();
  });

  it.skipIf(!KPT)('runs an image `kpt alpha wasm push` wrote, and kpt pulls the module krmfn pushed', async () => {
    const image = `${reg.host}/fns/bykpt:v1`;
    const out = execFileSync('kpt', ['alpha', 'wasm', 'push', join(TESTDATA, 'annotate-yaml.wasm'), image], {
      encoding: 'utf8',
      env: { ...process.env, DOCKER_CONFIG: env.DOCKER_CONFIG },
    });
    const dir = pkg(image);
    const r = await runCli(['fn', 'render', dir, '--allow-alpha-wasm'], { cwd: tmp, env });
    expect(r.exitCode).toBe(0);
    expect(readFileSync(join(dir, 'cm.yaml'), 'utf8')).toBe(RENDERED);
    // krmfn prints what kpt prints, digests aside (kpt stamps the push time into the config).
    const mine = await runCli(['wasm', 'push', join(TESTDATA, 'echo.wasm'), `${reg.host}/fns/bykrmfn:v1`], {
      cwd: tmp,
      env,
    });
    const shape = (s: string) => s.replace(/sha256:[0-9a-f]{64}/g, 'sha256:…').replace(/fns\/by\w+/, 'fns/X');
    expect(shape(mine.stdout)).toBe(shape(out));
    const file = join(tmp, 'kpt-pulled.wasm');
    execFileSync('kpt', ['alpha', 'wasm', 'pull', `${reg.host}/fns/bykrmfn:v1`, file], {
      stdio: 'ignore',
      env: { ...process.env, DOCKER_CONFIG: env.DOCKER_CONFIG },
    });
    expect(readFileSync(file)).toEqual(readFileSync(join(TESTDATA, 'echo.wasm')));
  });
});

describe.skipIf(!REGISTRY_BINARY)('kpt WASM images in a registry with htpasswd auth', () => {
  let reg: TestRegistry;
  let tmp: string;
  beforeAll(async () => {
    reg = await startRegistry({ username: 'fnbot', password: 'pa:ss' });
    tmp = mkdtempSync(join(tmpdir(), 'krmfn-wasm-auth-'));
  });
  afterAll(async () => {
    await reg?.stop();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('pushes, renders and evaluates with credentials from the Docker config file, and names the image when they are missing', async () => {
    const docker = join(tmp, 'docker');
    mkdirSync(docker);
    const auth = Buffer.from('fnbot:pa:ss').toString('base64');
    writeFileSync(join(docker, 'config.json'), JSON.stringify({ auths: { [reg.host]: { auth } } }));
    const env = { KRMFN_CACHE_DIR: join(tmp, 'cache'), DOCKER_CONFIG: docker };
    const image = `${reg.host}/private/annotate:v1`;
    const pushed = await runCli(['wasm', 'push', join(TESTDATA, 'annotate-yaml.wasm'), image], { cwd: tmp, env });
    expect(pushed).toMatchObject({ exitCode: 0, stderr: '' });
    const dir = join(tmp, 'pkg');
    mkdirSync(dir);
    writeFileSync(
      join(dir, 'Kptfile'),
      `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: p\npipeline:\n  mutators:\n  - image: gcr.io/kpt-fn/set-namespace:v0.4.1\n    configMap:\n      namespace: prod\n  - image: ${image}\n`,
    );
    writeFileSync(join(dir, 'cm.yaml'), CM);
    const r = await runCli(['fn', 'render', dir, '--allow-alpha-wasm'], { cwd: tmp, env });
    expect(r.exitCode).toBe(0);
    expect(readFileSync(join(dir, 'cm.yaml'), 'utf8')).toBe(RENDERED);
    const e = await runCli(['fn', 'eval', '-', '--image', image, '--allow-alpha-wasm'], { cwd: tmp, env, stdin: CM });
    expect(e.exitCode).toBe(0);
    expect(e.stdout).toContain('wasm.krmfn.dev/touched: "true"');
    const anon = await runCli(['fn', 'eval', '-', '--image', image, '--allow-alpha-wasm'], {
      cwd: tmp,
      env: { KRMFN_CACHE_DIR: join(tmp, 'cache2'), DOCKER_CONFIG: join(tmp, 'none') },
      stdin: CM,
    });
    expect(anon.exitCode).toBe(1);
    expect(anon.stderr).toContain(`pulling ${image}: unauthorized (HTTP 401)`);
  });
});
