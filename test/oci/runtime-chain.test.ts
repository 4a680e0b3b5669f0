/**
 * The runtime chain chosen per run: the library's `runtimeOrder` (engine-wide and per call) and
 * `onRuntime`, and the CLI's `--runtimes` with its errors; `--verbose` reporting which runtime ran
 * each function (registry images: pulled or cached, digest) after kpt's unchanged output, with a
 * real registry on loopback.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBuiltinRuntime, createEngine, createStarlarkRuntime, MemoryFs, type RuntimeChoice } from 'krmfn';
import { defineFunction } from 'krmfn/sdk';
import { createFunctionRuntime } from '../../src/index.ts';
import { runCli } from '../harness/golden.ts';
import { TESTDATA } from '../wasm/fixtures.ts';
import { REGISTRY_BINARY, SKIP_MESSAGE, startRegistry, type TestRegistry } from './registry.ts';
import { MEDIA, OciClient, parseReference } from '../../src/core/oci/index.ts';
import { enc, probeLayer } from '../sandbox/helpers.ts';

if (!REGISTRY_BINARY) console.warn(`test/oci/runtime-chain.test.ts: registry cases skipped: ${SKIP_MESSAGE}`);

const SET_NS = 'gcr.io/kpt-fn/set-namespace:v0.4.1';
const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  mode: fast\n';
const kptfile = (images: string[]): string =>
  `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: p\npipeline:\n  mutators:\n${images
    .map((i) => (i === SET_NS ? `  - image: ${i}\n    configMap:\n      namespace: prod\n` : `  - image: ${i}\n`))
    .join('')}`;

/** An SDK function served under the built-in's image name: which of the two runs shows the order. */
const stamp = defineFunction('mutator', {
  name: 'stamp',
  run: (ctx) => {
    for (const o of ctx.items) o.setAnnotation('stamped-by', 'functions');
  },
});

describe('runtimeOrder in the library', () => {
  const fs = (): MemoryFs => new MemoryFs({ '/w/p/Kptfile': kptfile([SET_NS]), '/w/p/cm.yaml': CM });
  const runtimes = [createBuiltinRuntime(), createStarlarkRuntime(), createFunctionRuntime({ [SET_NS]: stamp })];

  it('runs the runtimes named, in the order named, and reports which one took each function', async () => {
    const heard: RuntimeChoice[] = [];
    const engine = createEngine({ runtimes, runtimeOrder: ['functions', 'builtin'], onRuntime: (c) => heard.push(c) });
    const f = fs();
    expect((await engine.render({ fs: f, root: '/w/p' })).ok).toBe(true);
    expect(new TextDecoder().decode(await f.readFile('/w/p/cm.yaml'))).toContain('stamped-by: functions');
    expect(heard).toEqual([{ function: SET_NS, image: SET_NS, runtime: 'functions' }]);
    // Per call, another order: the built-in takes it.
    const g = fs();
    expect((await engine.render({ fs: g, root: '/w/p', runtimeOrder: ['builtin', 'functions'] })).ok).toBe(true);
    expect(new TextDecoder().decode(await g.readFile('/w/p/cm.yaml'))).toContain('namespace: prod');
    expect(heard.at(-1)).toEqual({ function: SET_NS, image: SET_NS, runtime: 'builtin' });
  });

  it('a chain without the runtime that could run a function fails naming what it tried', async () => {
    const out = await createEngine({ runtimes }).render({ fs: fs(), root: '/w/p', runtimeOrder: ['starlark'] });
    expect(out.ok).toBe(false);
    expect(out.failure?.error.message).toContain('(tried: starlark)');
  });

  it('unknown, repeated and empty orders are usage errors naming the runtimes there are', () => {
    expect(() => createEngine({ runtimes, runtimeOrder: ['builtin', 'docker'] })).toThrow(
      expect.objectContaining({
        code: 'usage',
        message: 'unknown runtime "docker" in runtimeOrder (this engine has: builtin, starlark, functions)',
      }),
    );
    expect(() => createEngine({ runtimes, runtimeOrder: ['builtin', 'builtin'] })).toThrow(
      'runtime "builtin" is named twice in runtimeOrder',
    );
    expect(() => createEngine({ runtimes, runtimeOrder: [] })).toThrow('runtimeOrder names no runtime');
  });
});

describe('--runtimes on the command line', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'krmfn-runtimes-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  let n = 0;
  const pkg = (images: string[]): string => {
    const dir = join(tmp, `pkg${++n}`);
    mkdirSync(dir);
    writeFileSync(join(dir, 'Kptfile'), kptfile(images));
    writeFileSync(join(dir, 'cm.yaml'), CM);
    return dir;
  };

  it('a chain without the built-ins cannot run a catalog image; with them it can, and --verbose says so', async () => {
    const without = pkg([SET_NS]);
    const r = await runCli(['fn', 'render', without, '--runtimes', 'starlark,exec'], { cwd: tmp });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('(tried: starlark, exec)');
    expect(readFileSync(join(without, 'cm.yaml'), 'utf8')).toBe(CM);
    const plain = await runCli(['fn', 'render', pkg([SET_NS])], { cwd: tmp });
    const verbose = await runCli(['fn', 'render', pkg([SET_NS]), '--runtimes', 'builtin', '--verbose'], { cwd: tmp });
    expect(verbose.exitCode).toBe(0);
    // kpt's output first, unchanged (timings aside), then the report.
    const untimed = (s: string): string => s.replace(/ in \d+(\.\d+)?m?s/g, ' in T').replace(/pkg\d+/g, 'pkg');
    expect(untimed(verbose.stderr)).toBe(`${untimed(plain.stderr)}[RUNTIME] "${SET_NS}" builtin\n`);
  });

  it.each([
    [
      'builtin,nope',
      'unknown runtime "nope" in --runtimes: known runtimes are builtin, starlark, wasm, exec, remote, sandbox, docker, podman, nerdctl',
    ],
    ['builtin,,starlark', '--runtimes "builtin,,starlark": empty runtime name'],
    ['builtin,starlark,builtin', 'runtime "builtin" is named twice in --runtimes'],
    ['builtin,sandbox,docker', '--runtimes names 2 container runtimes (sandbox, docker): choose one'],
    ['builtin,wasm', '--runtimes names wasm, which runs only with --allow-alpha-wasm'],
    ['remote,builtin', '--runtimes names remote, which needs --remote-config FILE or KRMFN_REMOTE_CONFIG'],
  ])('--runtimes %s is refused before anything runs', async (list, message) => {
    const dir = pkg([SET_NS]);
    const r = await runCli(['fn', 'render', dir, '--runtimes', list], { cwd: tmp });
    expect(r).toMatchObject({ exitCode: 1, stdout: '' });
    expect(r.stderr).toBe(`error: ${message}\n`);
    expect(readFileSync(join(dir, 'cm.yaml'), 'utf8')).toBe(CM);
  });

  it('a container runtime named in --runtimes must agree with --container-runtime', async () => {
    const r = await runCli(
      ['fn', 'eval', '-', '-i', SET_NS, '--runtimes', 'builtin,docker', '--container-runtime', 'sandbox'],
      {
        cwd: tmp,
        stdin: CM,
      },
    );
    expect(r).toMatchObject({
      exitCode: 1,
      stderr: 'error: --runtimes names docker but --container-runtime is sandbox\n',
    });
  });
});

describe.skipIf(!REGISTRY_BINARY)('--runtimes and --verbose with registry WASM images', () => {
  let reg: TestRegistry;
  let tmp: string;
  let env: Record<string, string>;
  let image: string;
  let n = 0;
  const pkg = (images: string[]): string => {
    const dir = join(tmp, `pkg${++n}`);
    mkdirSync(dir);
    writeFileSync(join(dir, 'Kptfile'), kptfile(images));
    writeFileSync(join(dir, 'cm.yaml'), CM);
    return dir;
  };

  beforeAll(async () => {
    reg = await startRegistry();
    tmp = mkdtempSync(join(tmpdir(), 'krmfn-runtimes-registry-'));
    env = { KRMFN_CACHE_DIR: join(tmp, 'cache'), DOCKER_CONFIG: join(tmp, 'docker') };
    image = `${reg.host}/fns/annotate:v1`;
    const pushed = await runCli(['wasm', 'push', join(TESTDATA, 'annotate-yaml.wasm'), image], { cwd: tmp, env });
    expect(pushed.exitCode).toBe(0);
  });
  afterAll(async () => {
    await reg?.stop();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('reports the built-in, then the WASM image pulled and then cached, with its digests', async () => {
    const index = await fetch(`http://${reg.host}/v2/fns/annotate/manifests/v1`, {
      headers: { accept: 'application/vnd.docker.distribution.manifest.list.v2+json' },
    });
    const indexDigest = index.headers.get('docker-content-digest')!;
    const list = (await index.json()) as { manifests: { digest: string }[] };
    const digest = list.manifests[0].digest;
    const args = (dir: string): string[] => [
      'fn',
      'render',
      dir,
      '--allow-alpha-wasm',
      '--runtimes',
      'builtin,wasm',
      '--verbose',
    ];
    const first = await runCli(args(pkg([SET_NS, image])), { cwd: tmp, env });
    expect(first.exitCode).toBe(0);
    const tail = (source: string): string =>
      `[RUNTIME] "${SET_NS}" builtin\n[RUNTIME] "${image}" wasm, ${source} ${image}, digest ${digest}, index ${indexDigest}\n`;
    expect(first.stderr.endsWith(`Successfully executed 2 function(s) in 1 package(s).\n${tail('pulled')}`)).toBe(true);
    const second = await runCli(args(pkg([SET_NS, image])), { cwd: tmp, env });
    expect(second.stderr.endsWith(tail('cached'))).toBe(true);
    // --json says the same per function.
    const json = await runCli([...args(pkg([SET_NS, image])), '--json'], { cwd: tmp, env });
    expect(JSON.parse(json.stdout)).toMatchObject({
      runtimes: [
        { function: SET_NS, image: SET_NS, runtime: 'builtin' },
        { function: image, image, runtime: 'wasm' },
      ],
      images: [{ runtime: 'wasm', image, digest, indexDigest, source: 'cached' }],
    });
  });

  it('builtin,wasm,sandbox: each function on its runtime, the container image pulled and sandboxed', async () => {
    const container = `${reg.host}/fns/probe:echo`;
    const config = enc(
      JSON.stringify({ os: 'linux', architecture: 'amd64', config: { Entrypoint: ['/fn'], Cmd: ['echo'] } }),
    );
    const pushed = await new OciClient().pushImage(parseReference(container), {
      config: { bytes: config, mediaType: MEDIA.ociConfig },
      layers: [{ bytes: probeLayer().bytes, mediaType: MEDIA.ociLayerGzip }],
      mediaType: MEDIA.ociManifest,
      tag: 'echo',
    });
    const dir = pkg([SET_NS, image, container]);
    const r = await runCli(
      ['fn', 'render', dir, '--allow-alpha-wasm', '--runtimes', 'builtin,wasm,sandbox', '--verbose'],
      { cwd: tmp, env: { ...env, KRMFN_CACHE_DIR: join(tmp, 'cache-sandbox') } },
    );
    expect(r.exitCode).toBe(0);
    expect(readFileSync(join(dir, 'cm.yaml'), 'utf8')).toContain('wasm.krmfn.dev/touched: "true"');
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('[RUNTIME]'));
    expect(lines.map((l) => l.replace(/, (pulled|cached) .*/, ', $1'))).toEqual([
      `[RUNTIME] "${SET_NS}" builtin`,
      `[RUNTIME] "${image}" wasm, pulled`,
      `[RUNTIME] "${container}" sandbox, pulled`,
    ]);
    expect(lines[2]).toBe(`[RUNTIME] "${container}" sandbox, pulled ${container}, digest ${pushed.digest}`);
  });

  it('a chain without wasm leaves the registry alone, even with --allow-alpha-wasm', async () => {
    const cache = join(tmp, 'untouched');
    const r = await runCli(['fn', 'render', pkg([image]), '--allow-alpha-wasm', '--runtimes', 'builtin,starlark'], {
      cwd: tmp,
      env: { ...env, KRMFN_CACHE_DIR: cache },
    });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('(tried: builtin, starlark)');
    expect(existsSync(cache)).toBe(false);
  });
});
