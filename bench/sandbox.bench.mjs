// Sandbox container runtime benchmark: `npm run bench:sandbox`.
//
// Bundles the sources it measures (src/node/sandbox/ and the process runner) with esbuild into a
// cache dir, compiles the static C test function (test/sandbox/fixtures/probe-fn.c) with gcc,
// packs it into an image in memory, then prints:
//   cold     first call of a fresh runtime and cache: bubblewrap check + unpack + sandboxed run,
//   warm     median per call through the runtime (image unpacked, bubblewrap checked),
//   direct   median per call running the same binary as a plain subprocess (the baseline),
//   overhead warm - direct in ms, and the ratio warm / direct; target: under 50 ms overhead;
//   limits   cgroup or prlimit on this host (src/node/sandbox/cgroup.ts), with the reason;
//   unpack   a 24 MB layer (the function + generated YAML text) gzip'd and zstd'd (zstd CLI, -3),
//            median time to verify, decompress and write it into a fresh cache;
// and, when Debian's docker-registry is installed, through a real registry on loopback and
// krmfn's OCI client with its disk cache:
//   pull cold      fresh cache: pull manifest, config and layer + unpack + first run,
//   pull cached    a new runtime over the warm cache (IfNotPresent: no registry request) + run.
// With no Docker daemon the comparison is kpt's documented 0.5-12 s per containerised function;
// where a daemon answers it says so, and `docker run` timings are taken by hand.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = fileURLToPath(new URL('..', import.meta.url));
mkdirSync(join(root, 'node_modules/.cache'), { recursive: true });
const out = mkdtempSync(join(root, 'node_modules/.cache/krmfn-sandbox-bench-'));
const lib = join(out, 'lib.mjs');
writeFileSync(
  join(out, 'entry.ts'),
  [
    `export { createSandboxRuntime } from ${JSON.stringify(join(root, 'src/node/sandbox/runtime.ts'))};`,
    `export { parseImageConfig } from ${JSON.stringify(join(root, 'src/node/sandbox/image.ts'))};`,
    `export { writeTar } from ${JSON.stringify(join(root, 'src/core/tar.ts'))};`,
    `export { runProcess } from ${JSON.stringify(join(root, 'src/node/process.ts'))};`,
    `export { withLimits } from ${JSON.stringify(join(root, 'src/core/limits.ts'))};`,
    `export { unpackImage } from ${JSON.stringify(join(root, 'src/node/sandbox/unpack.ts'))};`,
    `export { chooseCgroup, realCgroupHost } from ${JSON.stringify(join(root, 'src/node/sandbox/cgroup.ts'))};`,
    `export { createNodeSandboxRuntime } from ${JSON.stringify(join(root, 'src/node/sandbox/index.ts'))};`,
    `export { OciClient, MEDIA, parseReference } from ${JSON.stringify(join(root, 'src/core/oci/index.ts'))};`,
    `export { REGISTRY_BINARY, startRegistry } from ${JSON.stringify(join(root, 'test/oci/registry.ts'))};`,
  ].join('\n'),
);
await build({
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
  entryPoints: [join(out, 'entry.ts')],
  outfile: lib,
});
const S = await import(pathToFileURL(lib).href);

const fn = join(out, 'probe-fn');
execFileSync('gcc', ['-static', '-O2', '-o', fn, join(root, 'test/sandbox/fixtures/probe-fn.c')]);
const enc = new TextEncoder();
const sha256 = (b) => `sha256:${createHash('sha256').update(b).digest('hex')}`;
const tar = S.writeTar([
  { path: 'fn', data: readFileSync(fn), mode: 0o755 },
  { path: 'etc/passwd', data: enc.encode('nobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin\n') },
]);
const blob = new Uint8Array(gzipSync(tar));
const configJson = enc.encode(
  JSON.stringify({ os: 'linux', architecture: 'amd64', config: { Entrypoint: ['/fn'], Cmd: ['echo'] } }),
);
const image = {
  reference: 'bench.test/echo:1',
  id: sha256(configJson),
  config: S.parseImageConfig(configJson),
  layers: [
    { mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', digest: sha256(blob), size: blob.length, bytes: blob },
  ],
};

let items = '';
for (let i = 0; items.length < 10_000; i++)
  items += `- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: cm-${i}\n  data:\n    k: v${i}\n`;
const input = enc.encode(`apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n${items}`);
const limits = S.withLimits({});
const ctx = {
  displayName: image.reference,
  packagePath: '',
  cwd: out,
  allowExec: false,
  allowWasm: false,
  allowNetwork: false,
  limits,
};
const runCtx = () => ({
  limits,
  signal: new AbortController().signal,
  deadline: Date.now() + 60_000,
  now: Date.now,
  env: {},
  validator: false,
});

const runtime = () =>
  S.createSandboxRuntime({
    source: { get: async () => image },
    cacheDir: mkdtempSync(join(out, 'cache-')),
    hostEnv: { PATH: process.env.PATH },
    cwd: out,
  });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const N = Number(process.env.BENCH_N ?? 40);

const cold = [];
for (let i = 0; i < 5; i++) {
  const t = performance.now();
  const r = await (await runtime().resolve({ image: image.reference }, ctx)).run(input, runCtx());
  cold.push(performance.now() - t);
  if (r.exitCode !== 0) throw new Error(`sandboxed run failed: ${r.stderr}`);
}
const runner = await runtime().resolve({ image: image.reference }, ctx);
await runner.run(input, runCtx());
const warm = [];
const direct = [];
for (let i = 0; i < N; i++) {
  let t = performance.now();
  await runner.run(input, runCtx());
  warm.push(performance.now() - t);
  t = performance.now();
  await S.runProcess({ program: fn, args: ['echo'], stdin: input, env: {}, deadline: Date.now() + 60_000 });
  direct.push(performance.now() - t);
}
const w = median(warm);
const d = median(direct);
const f = (x) => x.toFixed(1).padStart(7);
console.log(`sandbox runtime, static C function, ${(input.length / 1024).toFixed(0)} KB ResourceList, median of ${N}`);
console.log(`  cold (check + unpack + run) ${f(median(cold))} ms`);
console.log(`  warm sandboxed call         ${f(w)} ms`);
console.log(`  direct subprocess           ${f(d)} ms`);
console.log(
  `  overhead                    ${f(w - d)} ms   ratio ${(w / d).toFixed(2)}x   target < 50 ms: ${w - d < 50 ? 'met' : 'MISSED'}`,
);
const limitsMode = S.chooseCgroup(S.realCgroupHost(process.env));
console.log(`  limits: ${limitsMode.kind === 'cgroup' ? `cgroup under ${limitsMode.parent}` : limitsMode.note}`);

{
  let text = '';
  for (let i = 0; text.length < 24 * 1024 * 1024; i++)
    text += `- name: item-${i}\n  value: ${(i * 2654435761) % 1000003}\n  labels: {app: demo-${i % 97}}\n`;
  const bigTar = S.writeTar([
    { path: 'fn', data: readFileSync(fn), mode: 0o755 },
    { path: 'data/items.yaml', data: enc.encode(text) },
  ]);
  const layers = { gzip: new Uint8Array(gzipSync(bigTar)) };
  try {
    layers.zstd = new Uint8Array(execFileSync('zstd', ['-q', '-c', '-3'], { input: bigTar, maxBuffer: 1 << 30 }));
  } catch {
    console.log('  zstd CLI not installed: zstd unpack figure skipped');
  }
  for (const [kind, bytes] of Object.entries(layers)) {
    const times = [];
    for (let i = 0; i < 5; i++) {
      const img = {
        ...image,
        reference: `bench.test/${kind}:1`,
        id: sha256(`${kind}-${i}`),
        layers: [
          {
            mediaType: `application/vnd.oci.image.layer.v1.tar+${kind}`,
            digest: sha256(bytes),
            size: bytes.length,
            bytes,
          },
        ],
      };
      const t = performance.now();
      S.unpackImage(img, mkdtempSync(join(out, 'unpack-')));
      times.push(performance.now() - t);
    }
    console.log(
      `  unpack ${kind.padEnd(4)} ${(bigTar.length / 1e6).toFixed(0)} MB tar from ${(bytes.length / 1e6).toFixed(1)} MB   ${f(median(times))} ms`,
    );
  }
}

if (S.REGISTRY_BINARY) {
  const reg = await S.startRegistry();
  try {
    const ref = `${reg.host}/bench/echo:1`;
    await new S.OciClient().pushImage(S.parseReference(ref), {
      config: { bytes: configJson, mediaType: S.MEDIA.ociConfig },
      layers: [{ bytes: blob, mediaType: S.MEDIA.ociLayerGzip }],
      mediaType: S.MEDIA.ociManifest,
      tag: '1',
    });
    const pulled = [];
    const cached = [];
    for (let i = 0; i < 5; i++) {
      const env = { PATH: process.env.PATH, KRMFN_CACHE_DIR: mkdtempSync(join(out, 'pull-cache-')) };
      const once = async () => {
        const t = performance.now();
        const rt = S.createNodeSandboxRuntime({ env, cwd: out });
        const r = await (await rt.resolve({ image: ref }, { ...ctx, displayName: ref })).run(input, runCtx());
        if (r.exitCode !== 0) throw new Error(`pulled run failed: ${r.stderr}`);
        return performance.now() - t;
      };
      pulled.push(await once());
      cached.push(await once());
    }
    console.log(
      `  pull cold (pull + unpack + run) ${f(median(pulled))} ms   (loopback docker-registry, ${(blob.length / 1024).toFixed(0)} KB layer)`,
    );
    console.log(`  pull cached (new runtime + run) ${f(median(cached))} ms`);
  } finally {
    await reg.stop();
  }
} else {
  console.log('  docker-registry not installed: registry figures skipped');
}
let docker = 'no Docker daemon here: kpt documents 0.5-12 s per containerised function';
try {
  execFileSync('docker', ['version'], { stdio: 'pipe', timeout: 5000 });
  docker = 'a Docker daemon answers: compare with `time docker run --rm -i <image>`';
} catch {
  // no daemon
}
console.log(`  ${docker}`);
rmSync(out, { recursive: true, force: true });
