// WASM runtime benchmark: `npm run bench:wasm`.
//
// Bundles the sources it measures (wasm/ and the Node pool) with esbuild into a cache dir, so it
// needs no prior build, then prints, per ResourceList size (1 KB, 10 KB, 100 KB, 1 MB):
//   cold   compile + instantiate + run, with a module V8 has never seen (a unique custom section
//          defeats V8's in-process compiled-module cache),
//   warm   per call with the cached Module: in this thread (the baseline) and in a warm worker,
//   and the worker start cost, the Go js/wasm ABI cold/warm, and the ratio worker / in-thread.
// All figures are medians of the same run; ratios compare against that run's in-thread baseline.
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// Inside node_modules/.cache so the bundles' external packages resolve from the project.
mkdirSync(join(root, 'node_modules/.cache'), { recursive: true });
const out = mkdtempSync(join(root, 'node_modules/.cache/krmfn-wasm-bench-'));
const lib = join(out, 'lib.mjs');
const worker = join(out, 'wasm-worker.js');
writeFileSync(
  join(out, 'entry.ts'),
  `export * from ${JSON.stringify(join(root, 'wasm/index.ts'))};\nexport { createNodeWasmExecutor, nodeWorkerLike, createNodeWasmRuntime } from ${JSON.stringify(join(root, 'src/node/wasm/index.ts'))};\n`,
);
const common = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
};
await build({ ...common, entryPoints: [join(out, 'entry.ts')], outfile: lib });
await build({ ...common, entryPoints: [join(root, 'src/node/wasm/worker-entry.ts')], outfile: worker });
const W = await import(pathToFileURL(lib).href);
const workerScript = pathToFileURL(worker);

const fixture = (name) => new Uint8Array(readFileSync(join(root, 'wasm/testdata', `${name}.wasm`)));
const MiB = 1048576;
const enc = new TextEncoder();

function resourceList(targetBytes) {
  const items = [];
  const one = (i) => ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `cm-${i}`, annotations: { 'config.kubernetes.io/path': `cm-${i}.yaml` } },
    data: { key: `value-${i}`, more: 'x'.repeat(40) },
  });
  let size = 80;
  for (let i = 0; size < targetBytes; i++) {
    const it = one(i);
    items.push(it);
    size += JSON.stringify(it).length + 1;
  }
  return enc.encode(
    JSON.stringify({
      apiVersion: 'config.kubernetes.io/v1',
      kind: 'ResourceList',
      items,
      functionConfig: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fc' }, data: { namespace: 'bench' } },
    }),
  );
}

/** A copy of `bytes` with a custom section V8 has not seen: compiling it is really cold. */
let uniq = 0;
function freshBytes(bytes) {
  const name = enc.encode(`krmfn-bench-${process.pid}-${uniq++}`);
  const payload = [name.length, ...name];
  return new Uint8Array([...bytes.subarray(0, 8), 0, payload.length, ...payload, ...bytes.subarray(8)]);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
async function time(n, fn) {
  const xs = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn(i);
    xs.push(performance.now() - t0);
  }
  return median(xs);
}
const ms = (x) => `${x.toFixed(x < 1 ? 3 : 2)} ms`.padStart(11);
const iterations = (bytes) => (bytes > 500_000 ? 9 : bytes > 50_000 ? 25 : 101);

const sizes = [
  ['1 KB', 1_000],
  ['10 KB', 10_000],
  ['100 KB', 100_000],
  ['1 MB', 1_000_000],
];
const executor = W.createNodeWasmExecutor({ maxWorkers: 1, workerScript });
const call = { timeoutMs: 60_000 };

console.log(`krmfn WASM benchmark — Node ${process.version}, ${process.arch}; medians\n`);
const wasiModules = [
  ['C', 'echo', sizes],
  ['C', 'annotate', sizes],
  ['Go 1.23 wasip1', 'wasip1-setns-go123', sizes.slice(0, 3)],
];
for (const [lang, modName, modSizes] of wasiModules) {
  const bytes = fixture(modName);
  const isGo = lang.startsWith('Go');
  const opts = { maxMemoryBytes: (isGo ? 256 : 64) * MiB };
  const cached = await W.prepareModule(bytes, opts);
  console.log(
    `${lang} ${modName}.wasm (${bytes.byteLength > MiB ? `${(bytes.byteLength / MiB).toFixed(1)} MiB` : `${(bytes.byteLength / 1024).toFixed(0)} KB`})`,
  );
  console.log(
    `  ${'input'.padEnd(7)} ${'compile'.padStart(11)} ${'cold run'.padStart(11)} ${'in-thread'.padStart(11)} ${'worker'.padStart(11)} ${'overhead'.padStart(11)} ${'ratio'.padStart(7)}`,
  );
  for (const [label, size] of modSizes) {
    const stdin = resourceList(size);
    const n = isGo ? Math.min(9, iterations(size)) : iterations(size);
    // Cold: compile a never-seen module, instantiate, run once.
    const coldN = isGo ? 3 : Math.min(n, 15);
    const compile = await time(coldN, async () => W.prepareModule(freshBytes(bytes), opts));
    const cold = await time(coldN, async () => {
      const m = await W.prepareModule(freshBytes(bytes), opts);
      await W.runWasi({ module: m, stdin, limits: { maxOutputBytes: 64 * MiB } });
    });
    // Warm up (V8 tiers hot functions up in the background) before timing warm calls.
    for (let i = 0; i < (isGo ? 5 : 2); i++) {
      await W.runWasi({ module: cached, stdin, limits: { maxOutputBytes: 64 * MiB } });
      await executor.runWasi({ module: cached, stdin, maxOutputBytes: 64 * MiB }, call);
    }
    const inThread = await time(n, async () =>
      W.runWasi({ module: cached, stdin, limits: { maxOutputBytes: 64 * MiB } }),
    );
    const inWorker = await time(n, async () =>
      executor.runWasi({ module: cached, stdin, maxOutputBytes: 64 * MiB }, call),
    );
    console.log(
      `  ${label.padEnd(7)} ${ms(compile)} ${ms(cold)} ${ms(inThread)} ${ms(inWorker)} ${ms(inWorker - inThread)} ${(inWorker / inThread).toFixed(2).padStart(6)}x`,
    );
  }
  console.log('');
}

// Worker start: a fresh worker per call (reuse: false) minus the warm-worker call, and the raw
// cost of starting one worker until its first reply.
{
  const echo = await W.prepareModule(fixture('echo'), { maxMemoryBytes: 64 * MiB });
  const stdin = resourceList(10_000);
  const fresh = W.createNodeWasmExecutor({ reuse: false, workerScript });
  const perCallFresh = await time(15, async () => fresh.runWasi({ module: echo, stdin, maxOutputBytes: MiB }, call));
  await fresh.close();
  const warm = await time(101, async () => executor.runWasi({ module: echo, stdin, maxOutputBytes: MiB }, call));
  const inThread = await time(101, async () => W.runWasi({ module: echo, stdin }));
  console.log('Worker start (echo, 10 KB)');
  console.log(`  fresh worker per call ${ms(perCallFresh)}   warm worker ${ms(warm)}   in-thread ${ms(inThread)}`);
  console.log(
    `  worker start cost     ${ms(perCallFresh - warm)}   (reuse saves ${(perCallFresh / warm).toFixed(1)}x per call)\n`,
  );
}

// Go js/wasm (kpt's alpha ABI): start-up once, then warm calls on the same program.
{
  const bytes = fixture('gojs-setns-go123');
  const goOpts = { maxMemoryBytes: 256 * MiB };
  console.log(`Go 1.23 js/wasm set-namespace (${(bytes.byteLength / MiB).toFixed(1)} MiB)`);
  console.log(
    `  ${'input'.padEnd(7)} ${'compile'.padStart(11)} ${'start'.padStart(11)} ${'1st call'.padStart(11)} ${'warm'.padStart(11)} ${'worker warm'.padStart(12)}`,
  );
  const cached = await W.prepareModule(bytes, goOpts);
  for (const [label, size] of sizes.slice(0, 3)) {
    const input = new TextDecoder().decode(resourceList(size));
    const t0 = performance.now();
    const m = await W.prepareModule(freshBytes(bytes), goOpts);
    const t1 = performance.now();
    const inst = new W.GoJsInstance(m, { maxOutputBytes: 64 * MiB });
    await inst.start();
    const t2 = performance.now();
    W.callProcessResourceList(inst, input);
    const t3 = performance.now();
    const warm = await time(iterations(size) > 50 ? 31 : 9, async () => W.callProcessResourceList(inst, input));
    inst.kill();
    await executor.callGoJs({ module: cached, input, maxOutputBytes: 64 * MiB }, call);
    const inWorker = await time(iterations(size) > 50 ? 31 : 9, async () =>
      executor.callGoJs({ module: cached, input, maxOutputBytes: 64 * MiB }, call),
    );
    console.log(
      `  ${label.padEnd(7)} ${ms(t1 - t0)} ${ms(t2 - t1)} ${ms(t3 - t2)} ${ms(warm)} ${ms(inWorker).padStart(12)}`,
    );
  }
}

// The KRM runner as the engine calls it: resolve (read + hash + compile + worker prewarm), then
// one run per call with kpt's YAML on stdin, in a worker under a deadline.
{
  const rt = W.createNodeWasmRuntime({ workerScript });
  const ctx = {
    displayName: 'echo.wasm',
    packagePath: '',
    cwd: join(root, 'wasm/testdata'),
    allowExec: true,
    allowWasm: true,
    allowNetwork: false,
    limits: {},
  };
  const limits = { timeoutMs: 60_000, maxOutputBytes: 64 * MiB, maxAliases: 10_000 };
  const runCtx = () => ({
    limits,
    signal: new AbortController().signal,
    deadline: Date.now() + 60_000,
    now: Date.now,
    env: {},
    validator: false,
  });
  const yaml = (n) =>
    enc.encode(
      `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n${Array.from({ length: n }, (_, i) => `- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: cm-${i}\n  data:\n    key: value-${i}\n`).join('')}`,
    );
  const t0 = performance.now();
  const runner = await rt.resolve({ exec: 'echo.wasm' }, ctx);
  const t1 = performance.now();
  const first = yaml(120);
  await runner.run(first, runCtx());
  const t2 = performance.now();
  const perCall = await time(101, async () => runner.run(first, runCtx()));
  console.log(`\nKRM runner (createNodeWasmRuntime, C echo, ${(first.byteLength / 1024).toFixed(1)} KB YAML)`);
  console.log(`  resolve ${ms(t1 - t0)}   first run (worker start) ${ms(t2 - t1)}   warm run ${ms(perCall)}`);
  await rt.close();
  // With prewarm, the worker starts while the host reads the package (here: 50 ms of other work).
  const pre = W.createNodeWasmRuntime({ workerScript, prewarm: true });
  await new Promise((r) => setTimeout(r, 50));
  const t3 = performance.now();
  const r2 = await pre.resolve({ exec: 'echo.wasm' }, ctx);
  await r2.run(first, runCtx());
  console.log(`  with prewarm: resolve + first run ${ms(performance.now() - t3)}`);
  await pre.close();
}

await executor.close();
rmSync(out, { recursive: true, force: true });
