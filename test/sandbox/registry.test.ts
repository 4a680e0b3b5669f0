/**
 * `krmfn fn render` / `fn eval` with `--container-runtime sandbox` and no Docker daemon: the probe
 * function's image is pushed by krmfn's own OCI client to a real registry on loopback (Debian's
 * docker-registry, test/oci/registry.ts), pulled into a fresh cache, unpacked and run under
 * bubblewrap, in a pipeline mixing it with a built-in. Also: `@sha256:` pins, the
 * KRMFN_CONTAINER_RUNTIME spelling, a failing image's stderr, `--image-pull-policy Never` on
 * an empty cache, a zstd layer from the zstd CLI, the linux/arm64 choice in a multi-platform index,
 * hostile pulled images (a `..` entry, a symlink out of the root, a manifest lying about a layer's
 * size), and (when the tests run as root, as in CI) the installed CLI run as `nobody`: the
 * unprivileged path through user namespaces.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA, OciClient, parseReference, pushWasmImage } from '../../src/core/oci/index.ts';
import { TESTDATA } from '../wasm/fixtures.ts';
import { runCli } from '../harness/golden.ts';
import { REGISTRY_BINARY, SKIP_MESSAGE, startRegistry, type TestRegistry } from '../oci/registry.ts';
import { enc, probeBinary, PASSWD, probeLayer, withFirstHeader, ZSTD_LAYER, zstdCompress } from './helpers.ts';
import { writeTar } from '../../src/core/tar.ts';
import { chooseCgroup, realCgroupHost } from '../../src/node/sandbox/cgroup.ts';
import { hostArchitecture, ociImageSource } from '../../src/node/sandbox/registry-source.ts';
import { unpackImage } from '../../src/node/sandbox/unpack.ts';
import { gzipSync } from 'node:zlib';

if (!REGISTRY_BINARY) console.warn(`test/sandbox/registry.test.ts skipped: ${SKIP_MESSAGE}`);

const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings # keep me\ndata:\n  mode: fast\n';

describe.skipIf(!REGISTRY_BINARY)('sandbox runtime with a real registry', () => {
  let reg: TestRegistry;
  let work: string;
  let echoDigest: string;
  beforeAll(async () => {
    reg = await startRegistry();
    work = mkdtempSync(join(tmpdir(), 'krmfn-sandbox-reg-'));
    const client = new OciClient();
    const layerBytes = probeLayer().bytes;
    const push = async (mode: string) => {
      const config = enc(
        JSON.stringify({ os: 'linux', architecture: 'amd64', config: { Entrypoint: ['/fn'], Cmd: [mode] } }),
      );
      const d = await client.pushImage(parseReference(`${reg.host}/fns/probe:${mode}`), {
        config: { bytes: config, mediaType: MEDIA.ociConfig },
        layers: [{ bytes: layerBytes, mediaType: MEDIA.ociLayerGzip }],
        mediaType: MEDIA.ociManifest,
        tag: mode,
      });
      return d.digest;
    };
    echoDigest = await push('echo');
    await push('fail');
    await push('probe');
  });
  afterAll(async () => {
    await reg?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  function pkg(name: string, image: string): string {
    const dir = join(work, name);
    mkdirSync(dir);
    writeFileSync(
      join(dir, 'Kptfile'),
      `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: ${name}\npipeline:\n  mutators:\n  - image: gcr.io/kpt-fn/set-namespace:v0.4.1\n    configMap:\n      namespace: prod\n  - image: ${image}\n`,
    );
    writeFileSync(join(dir, 'cm.yaml'), CM);
    return dir;
  }

  it('renders a pipeline mixing a built-in and a pulled, sandboxed container image', async () => {
    const image = `${reg.host}/fns/probe:echo`;
    const dir = pkg('mixed', image);
    const cache = join(work, 'cache-mixed');
    const r = await runCli(['fn', 'render', dir, '--container-runtime', 'sandbox'], {
      cwd: work,
      env: { KRMFN_CACHE_DIR: cache },
    });
    expect(r.stderr).toContain(`[PASS] "${image}"`);
    expect(r.exitCode).toBe(0);
    expect(readFileSync(join(dir, 'cm.yaml'), 'utf8')).toBe(
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings # keep me\n  namespace: prod\ndata:\n  mode: fast\n',
    );
    expect(readdirSync(join(cache, 'sandbox', 'rootfs')).filter((n) => !n.startsWith('.'))).toHaveLength(1);
  });

  it('renders built-in, registry WASM image and sandboxed container image in one pipeline, no daemon', async () => {
    const wasmImage = `${reg.host}/fns/annotate:v1`;
    await pushWasmImage(
      new OciClient(),
      parseReference(wasmImage),
      readFileSync(join(TESTDATA, 'annotate-yaml.wasm')),
      'annotate-yaml.wasm',
    );
    const container = `${reg.host}/fns/probe:echo`;
    const dir = pkg('all-three', container);
    const kptfile = readFileSync(join(dir, 'Kptfile'), 'utf8');
    writeFileSync(
      join(dir, 'Kptfile'),
      kptfile.replace(`  - image: ${container}\n`, `  - image: ${wasmImage}\n  - image: ${container}\n`),
    );
    const r = await runCli(['fn', 'render', dir, '--allow-alpha-wasm', '--container-runtime', 'sandbox', '--json'], {
      cwd: work,
      env: { KRMFN_CACHE_DIR: join(work, 'cache-all-three') },
    });
    expect(r.exitCode).toBe(0);
    expect(readFileSync(join(dir, 'cm.yaml'), 'utf8')).toBe(
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings # keep me\n  annotations:\n    wasm.krmfn.dev/touched: "true"\n  namespace: prod\ndata:\n  mode: fast\n',
    );
    const images = (JSON.parse(r.stdout) as { images: { runtime: string; image: string }[] }).images;
    expect(images.map((i) => [i.runtime, i.image])).toEqual([
      ['wasm', wasmImage],
      ['sandbox', container],
    ]);
  });

  it('lists the pulled image under --json images with runtime sandbox, then cached', async () => {
    const image = `${reg.host}/fns/probe:echo`;
    const env = { KRMFN_CACHE_DIR: join(work, 'cache-json') };
    const render = async (name: string) => {
      const r = await runCli(['fn', 'render', pkg(name, image), '--container-runtime', 'sandbox', '--json'], {
        cwd: work,
        env,
      });
      expect(r.exitCode).toBe(0);
      return (JSON.parse(r.stdout) as { images: unknown[] }).images;
    };
    const mode = chooseCgroup(realCgroupHost(process.env));
    const limits = mode.kind === 'cgroup' ? { limits: 'cgroup' } : { limits: 'prlimit', limitsNote: mode.note };
    const report = { runtime: 'sandbox', image, reference: image, digest: echoDigest, ...limits };
    expect(await render('json-1')).toEqual([{ ...report, source: 'pulled' }]);
    expect(await render('json-2')).toEqual([{ ...report, source: 'cached' }]);
  });

  it('honours an @sha256 pin and KRMFN_CONTAINER_RUNTIME=sandbox', async () => {
    const dir = pkg('pinned', `${reg.host}/fns/probe:echo@${echoDigest}`);
    const r = await runCli(['fn', 'render', dir], {
      cwd: work,
      env: { KRMFN_CACHE_DIR: join(work, 'cache-pinned'), KRMFN_CONTAINER_RUNTIME: 'sandbox' },
    });
    expect(r.exitCode).toBe(0);
    expect(readFileSync(join(dir, 'cm.yaml'), 'utf8')).toContain('namespace: prod');
  });

  it("shows a failing image's stderr as kpt does", async () => {
    const image = `${reg.host}/fns/probe:fail`;
    const dir = pkg('failing', image);
    const r = await runCli(['fn', 'render', dir, '--container-runtime', 'sandbox'], {
      cwd: work,
      env: { KRMFN_CACHE_DIR: join(work, 'cache-fail') },
    });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`[FAIL] "${image}"`);
    expect(r.stderr).toMatch(/Stderr:\n\s+"bad input"/);
    expect(readFileSync(join(dir, 'cm.yaml'), 'utf8')).toBe(CM);
  });

  it('fails with --image-pull-policy Never when the image is not cached', async () => {
    const dir = pkg('never', `${reg.host}/fns/probe:echo`);
    const cache = join(work, 'cache-never');
    const r = await runCli(['fn', 'render', dir, '--container-runtime', 'sandbox', '--image-pull-policy', 'Never'], {
      cwd: work,
      env: { KRMFN_CACHE_DIR: cache },
    });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`image ${reg.host}/fns/probe:echo is not in the cache and the pull policy is Never`);
    expect(existsSync(join(cache, 'sandbox', 'rootfs'))).toBe(false);
  });

  it('runs an image whose layer is zstd, compressed by the zstd CLI', async () => {
    const tar = writeTar([
      { path: 'fn', data: probeBinary(), mode: 0o755 },
      { path: 'etc', kind: 'dir', data: new Uint8Array(0) },
      { path: 'etc/passwd', data: enc(PASSWD) },
    ]);
    const config = enc(JSON.stringify({ os: 'linux', architecture: 'amd64', config: { Entrypoint: ['/fn', 'echo'] } }));
    await new OciClient().pushImage(parseReference(`${reg.host}/fns/probe-zstd:1`), {
      config: { bytes: config, mediaType: MEDIA.ociConfig },
      layers: [{ bytes: zstdCompress(tar, ['-19']), mediaType: ZSTD_LAYER }],
      mediaType: MEDIA.ociManifest,
      tag: '1',
    });
    const image = `${reg.host}/fns/probe-zstd:1`;
    const dir = pkg('zstd', image);
    const r = await runCli(['fn', 'render', dir, '--container-runtime', 'sandbox'], {
      cwd: work,
      env: { KRMFN_CACHE_DIR: join(work, 'cache-zstd') },
    });
    expect(r.stderr).toContain(`[PASS] "${image}"`);
    expect(r.exitCode).toBe(0);
    expect(readFileSync(join(dir, 'cm.yaml'), 'utf8')).toContain('namespace: prod');
  });

  it('selects the linux/arm64 image of a multi-platform index for an arm64 host', async () => {
    // No arm64 machine here: the selection and unpacking are checked, not an arm64 run.
    const client = new OciClient();
    const ref = parseReference(`${reg.host}/fns/multi:1`);
    const push = (os: string, architecture: string, variant?: string) => {
      const platform = { os, architecture, ...(variant ? { variant } : {}) };
      const name = `${os}/${architecture}${variant ? `/${variant}` : ''}`;
      return client.pushImage(ref, {
        config: {
          bytes: enc(JSON.stringify({ os, architecture, config: { Cmd: [name] } })),
          mediaType: MEDIA.ociConfig,
        },
        layers: [
          {
            bytes: new Uint8Array(gzipSync(writeTar([{ path: 'platform', data: enc(name) }]))),
            mediaType: MEDIA.ociLayerGzip,
          },
        ],
        mediaType: MEDIA.ociManifest,
        platform,
      });
    };
    // As buildx publishes them: 32-bit arm first, then arm64/v8, amd64, and an attestation manifest.
    const manifests = [
      await push('linux', 'arm', 'v7'),
      await push('linux', 'arm64', 'v8'),
      await push('linux', 'amd64'),
      await push('unknown', 'unknown'),
    ];
    const indexDigest = await client.pushIndex(ref, manifests, MEDIA.ociIndex);
    expect(hostArchitecture('arm64')).toBe('arm64');
    const image = await ociImageSource(client, hostArchitecture('arm64')).get(`${reg.host}/fns/multi:1`, 'Always');
    expect(image.config.cmd).toEqual(['linux/arm64/v8']);
    expect(image.provenance).toMatchObject({ digest: manifests[1].digest, indexDigest });
    const root = unpackImage(image, join(work, 'cache-arm64'));
    expect(readFileSync(join(root, 'platform'), 'utf8')).toBe('linux/arm64/v8');
    const amd = await ociImageSource(client, hostArchitecture('x64')).get(`${reg.host}/fns/multi:1`, 'Always');
    expect(amd.config.cmd).toEqual(['linux/amd64']);
    await expect(ociImageSource(client, 'riscv64').get(`${reg.host}/fns/multi:1`, 'Always')).rejects.toMatchObject({
      code: 'oci-platform',
    });
  });

  it('refuses a pulled image whose layer escapes its root, writing nothing outside the cache', async () => {
    const client = new OciClient();
    const tar = withFirstHeader(writeTar([{ path: 'placeholder', data: enc('pwned') }]).slice(), '../../escaped');
    const config = enc(JSON.stringify({ os: 'linux', architecture: 'amd64', config: { Entrypoint: ['/fn'] } }));
    await client.pushImage(parseReference(`${reg.host}/fns/escape:1`), {
      config: { bytes: config, mediaType: MEDIA.ociConfig },
      layers: [{ bytes: new Uint8Array(gzipSync(tar)), mediaType: MEDIA.ociLayerGzip }],
      mediaType: MEDIA.ociManifest,
      tag: '1',
    });
    const dir = pkg('escape', `${reg.host}/fns/escape:1`);
    const cache = join(work, 'deep', 'er', 'cache-escape');
    const r = await runCli(['fn', 'render', dir, '--container-runtime', 'sandbox'], {
      cwd: work,
      env: { KRMFN_CACHE_DIR: cache },
    });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('tar entry "../../escaped" escapes the package root');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(readdirSync(join(cache, 'sandbox', 'rootfs'))).toEqual([]);
    expect(existsSync(join(cache, 'escaped')) || existsSync(join(work, 'deep', 'escaped'))).toBe(false);
  });

  it('confines a pulled image whose symlink points out of its root, across layers', async () => {
    const client = new OciClient();
    const target = join(work, 'symlink-target');
    mkdirSync(target);
    const gz = (entries: Parameters<typeof writeTar>[0]) => new Uint8Array(gzipSync(writeTar(entries)));
    const config = enc(JSON.stringify({ os: 'linux', architecture: 'amd64', config: { Entrypoint: ['/fn'] } }));
    await client.pushImage(parseReference(`${reg.host}/fns/symlink:1`), {
      config: { bytes: config, mediaType: MEDIA.ociConfig },
      layers: [
        { bytes: probeLayer().bytes, mediaType: MEDIA.ociLayerGzip },
        {
          bytes: gz([{ path: 'out', kind: 'symlink', linkTarget: target, data: new Uint8Array(0) }]),
          mediaType: MEDIA.ociLayerGzip,
        },
        { bytes: gz([{ path: 'out/pwned', data: enc('written through the link') }]), mediaType: MEDIA.ociLayerGzip },
      ],
      mediaType: MEDIA.ociManifest,
      tag: '1',
    });
    const dir = pkg('symlink', `${reg.host}/fns/symlink:1`);
    const r = await runCli(['fn', 'render', dir, '--container-runtime', 'sandbox'], {
      cwd: work,
      env: { KRMFN_CACHE_DIR: join(work, 'cache-symlink') },
    });
    expect(r.exitCode).toBe(0);
    expect(readdirSync(target)).toEqual([]);
    // The link was followed inside the image's root: the file landed in the cached tree.
    const [id] = readdirSync(join(work, 'cache-symlink', 'sandbox', 'rootfs'));
    const inRoot = join(work, 'cache-symlink', 'sandbox', 'rootfs', id, 'rootfs', target, 'pwned');
    expect(readFileSync(inRoot, 'utf8')).toBe('written through the link');
  });

  it('refuses a pulled image whose manifest lies about a layer size, unpacking nothing', async () => {
    const client = new OciClient();
    const ref = parseReference(`${reg.host}/fns/liar:1`);
    const config = enc(JSON.stringify({ os: 'linux', architecture: 'amd64', config: { Entrypoint: ['/fn'] } }));
    const configDesc = await client.pushBlob(ref, { bytes: config, mediaType: MEDIA.ociConfig });
    const layerDesc = await client.pushBlob(ref, { bytes: probeLayer().bytes, mediaType: MEDIA.ociLayerGzip });
    const manifest = enc(
      JSON.stringify({
        schemaVersion: 2,
        mediaType: MEDIA.ociManifest,
        config: configDesc,
        layers: [{ ...layerDesc, size: layerDesc.size - 1000 }],
      }),
    );
    await client.pushManifest(ref, manifest, MEDIA.ociManifest, '1');
    const dir = pkg('liar', `${reg.host}/fns/liar:1`);
    const cache = join(work, 'cache-liar');
    const r = await runCli(['fn', 'render', dir, '--container-runtime', 'sandbox'], {
      cwd: work,
      env: { KRMFN_CACHE_DIR: cache },
    });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`is larger than the ${layerDesc.size - 1000} bytes its descriptor says`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(existsSync(join(cache, 'sandbox', 'rootfs'))).toBe(false);
    expect(readFileSync(join(dir, 'cm.yaml'), 'utf8')).toBe(CM);
  });

  it.skipIf(process.getuid?.() !== 0)('runs for an unprivileged user through user namespaces', () => {
    const repo = join(import.meta.dirname, '../..');
    if (!existsSync(join(repo, 'dist/cli.js'))) {
      const b = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: repo, encoding: 'utf8' });
      if (b.status !== 0) throw new Error(`build failed: ${b.stderr}`);
    }
    const home = join(work, 'nobody-home');
    chmodSync(work, 0o755);
    mkdirSync(home, { mode: 0o755 });
    chownSync(home, 65534, 65534);
    const input = `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- ${CM.replace(/\n(?=.)/g, '\n  ')}`;
    const r = spawnSync(
      'setpriv',
      [
        '--reuid=65534',
        '--regid=65534',
        '--clear-groups',
        process.execPath,
        join(repo, 'bin/krmfn.mjs'),
        'fn',
        'eval',
        '-',
        '-i',
        `${reg.host}/fns/probe:probe`,
        '--container-runtime',
        'sandbox',
      ],
      { cwd: home, input, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: home } },
    );
    expect(r.stderr).toContain('[PASS]');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('uid: "65534"');
    expect(r.stdout).toContain('root: "no"');
    expect(existsSync(join(home, '.cache', 'krmfn', 'sandbox', 'rootfs'))).toBe(true);
  });
});
