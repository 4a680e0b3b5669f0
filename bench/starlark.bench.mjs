// Starlark interpreter benchmark: `npm run bench:starlark`.
//
// Bundles src/starlark with esbuild into a temp dir (no prior build needed), then runs each
// workload several times and prints the median: time, time per operation, native starlark-go's
// figure from docs/starlark.md, "Performance" (2-core x86-64, Go 1.19) and the ratio to it, and the same
// workload written in plain JavaScript in this run (the same-run baseline: what V8 itself costs).
// Lower ratios are better; the target is <= 1.5x starlark-go.
import { build } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = mkdtempSync(join(tmpdir(), 'krmfn-starlark-bench-'));
const lib = join(out, 'starlark.mjs');
const krm = join(out, 'krm.mjs');
writeFileSync(
  join(out, 'krm.ts'),
  [
    `export { runStarlarkFunction } from ${JSON.stringify(join(root, 'src/runtimes/starlark.ts'))};`,
    `export { KubeObject } from ${JSON.stringify(join(root, 'src/core/kube-object.ts'))};`,
    `export { DEFAULT_LIMITS } from ${JSON.stringify(join(root, 'src/core/limits.ts'))};`,
  ].join('\n'),
);
const common = { bundle: true, format: 'esm', platform: 'neutral', target: 'es2022', logLevel: 'warning' };
await build({ ...common, entryPoints: [join(root, 'src/starlark/index.ts')], outfile: lib });
await build({ ...common, entryPoints: [join(out, 'krm.ts')], outfile: krm });
const S = await import(pathToFileURL(lib).href);
const K = await import(pathToFileURL(krm).href);
rmSync(out, { recursive: true, force: true });

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const KRM = { set: true, while: true, topLevelControl: true, globalReassign: true, recursion: true };

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Times `f` RUNS times (after one warm-up), returns the median in ms. */
function time(f) {
  f();
  const ts = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    f();
    ts.push(performance.now() - t0);
  }
  return median(ts);
}

function star(source, predeclared = {}) {
  return () => S.execFile({ filename: 'bench.star', source, dialect: KRM, predeclared });
}

// A JSON list of 1,000 Deployment-like resources, decoded inside Starlark like KRM input.
const resources = [];
for (let i = 0; i < 1000; i++) {
  resources.push({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: `app-${i}`,
      labels: { app: `app-${i}`, tier: i % 2 ? 'web' : 'db' },
      annotations: { 'config.kubernetes.io/path': `app-${i}.yaml` },
    },
    spec: {
      replicas: 1,
      template: {
        spec: { containers: [{ name: 'main', image: `registry.example/app:${i}`, ports: [{ containerPort: 8080 }] }] },
      },
    },
  });
}
const resourcesJson = JSON.stringify(resources);

const N = 3_000_000;
const workloads = [
  {
    name: 'empty for loop over range',
    ops: N,
    unit: 'iteration',
    go: 19e-6,
    star: star(`def f():\n  for i in range(${N}):\n    pass\nf()\n`),
    js: () => {
      let n = 0;
      for (let i = 0; i < N; i++) n++;
      return n;
    },
  },
  {
    name: 'a += 1 loop',
    ops: N,
    unit: 'step',
    go: 40e-6,
    star: star(`def f():\n  a = 0\n  for i in range(${N}):\n    a += 1\n  return a\nf()\n`),
    js: () => {
      let a = 0;
      for (let i = 0; i < N; i++) a += 1;
      return a;
    },
  },
  {
    name: 'x = (x + i) % 1000 loop',
    ops: N,
    unit: 'iteration',
    go: 0.17e3 / N,
    star: star(`def f():\n  x = 0\n  for i in range(${N}):\n    x = (x + i) % 1000\n  return x\nf()\n`),
    js: () => {
      let x = 0;
      for (let i = 0; i < N; i++) x = (x + i) % 1000;
      return x;
    },
  },
  {
    name: 'recursive fib(27)',
    ops: 635_621,
    unit: 'call',
    go: 0.11e3 / 635_621,
    star: star('def fib(n):\n  return n if n < 2 else fib(n - 1) + fib(n - 2)\nfib(27)\n'),
    js: () => {
      const fib = (n) => (n < 2 ? n : fib(n - 1) + fib(n - 2));
      return fib(27);
    },
  },
  {
    name: 'builtin method call {}.get(None)',
    ops: 1_000_000,
    unit: 'call',
    go: 210e-6,
    star: star('def f():\n  d = {}\n  for i in range(1000000):\n    d.get(None)\nf()\n'),
    js: () => {
      const d = new Map();
      let v;
      for (let i = 0; i < 1e6; i++) v = d.get(null);
      return v;
    },
  },
  {
    name: 'string building (+= and join)',
    ops: 200_000,
    unit: 'append',
    go: undefined,
    star: star(
      'def f():\n  s = ""\n  for i in range(100000):\n    s += "x"\n  parts = []\n  for i in range(100000):\n    parts.append(str(i))\n  return len(s) + len(",".join(parts))\nf()\n',
    ),
    js: () => {
      let s = '';
      for (let i = 0; i < 1e5; i++) s += 'x';
      const p = [];
      for (let i = 0; i < 1e5; i++) p.push(String(i));
      return s.length + p.join(',').length;
    },
  },
  {
    name: 'dict: 300k inserts + 300k get',
    ops: 600_000,
    unit: 'op',
    go: 0.54e3 / 600_000,
    star: star(
      'def f():\n  d = {}\n  for i in range(300000):\n    d[i] = i\n  n = 0\n  for i in range(300000):\n    n += d.get(i)\n  return n\nf()\n',
    ),
    js: () => {
      const d = new Map();
      for (let i = 0; i < 3e5; i++) d.set(i, i);
      let n = 0;
      for (let i = 0; i < 3e5; i++) n += d.get(i);
      return n;
    },
  },
  {
    name: 'list-heavy: build, sort, comprehend 100k',
    ops: 100_000,
    unit: 'element',
    go: undefined,
    star: star(
      'def f():\n  xs = [(i * 7919) % 100003 for i in range(100000)]\n  ys = sorted(xs)\n  zs = [y * 2 for y in ys if y % 3]\n  return len(zs)\nf()\n',
    ),
    js: () => {
      const xs = [];
      for (let i = 0; i < 1e5; i++) xs.push((i * 7919) % 100003);
      const ys = [...xs].sort((a, b) => a - b);
      return ys.filter((y) => y % 3).map((y) => y * 2).length;
    },
  },
  {
    name: `json.decode + encode of 1,000 resources (${(resourcesJson.length / 1000).toFixed(0)} KB)`,
    ops: 1000,
    unit: 'resource',
    go: undefined,
    star: star('items = json.decode(SRC)\nout = json.encode(items)\n', {
      json: S.JSON_MODULE,
      SRC: S.fromHostString(resourcesJson),
    }),
    js: () => JSON.stringify(JSON.parse(resourcesJson)),
  },
  {
    name: 'KRM transform of 1,000 resource dicts',
    ops: 1000,
    unit: 'resource',
    go: undefined,
    star: star(
      'items = json.decode(SRC)\n' +
        'for obj in items:\n' +
        '  if obj["kind"] != "Deployment":\n    continue\n' +
        '  obj["metadata"]["namespace"] = "staging"\n' +
        '  obj["metadata"]["labels"]["team"] = "payments"\n' +
        '  pods = obj["spec"]["template"]["spec"]["containers"]\n' +
        '  if not [c for c in pods if c["name"] == "log-shipper"]:\n' +
        '    pods.append({"name": "log-shipper", "image": "registry.example/shipper:1.0"})\n' +
        'out = json.encode(items)\n',
      { json: S.JSON_MODULE, SRC: S.fromHostString(resourcesJson) },
    ),
    js: () => {
      const items = JSON.parse(resourcesJson);
      for (const obj of items) {
        if (obj.kind !== 'Deployment') continue;
        obj.metadata.namespace = 'staging';
        obj.metadata.labels.team = 'payments';
        const pods = obj.spec.template.spec.containers;
        if (!pods.some((c) => c.name === 'log-shipper'))
          pods.push({ name: 'log-shipper', image: 'registry.example/shipper:1.0' });
      }
      return JSON.stringify(items);
    },
  },
];

// Parsing: a ~40 KB file of functions (parse + resolve + compile, nothing executed).
const fnText = (i) =>
  `def f${i}(a, b = ${i}, *args, **kwargs):\n  x = [a + b * ${i} for a in range(10) if a % 2]\n  d = {"k${i}": x, "s": "str ${i}"}\n  if len(x) > ${i}:\n    return d\n  return {k: v for k, v in d.items()}\n\n`;
let parseSrc = '';
for (let i = 0; parseSrc.length < 40_000; i++) parseSrc += fnText(i);

const fmt = (ms) =>
  ms >= 100 ? `${ms.toFixed(0)} ms` : ms >= 1 ? `${ms.toFixed(1)} ms` : `${(ms * 1000).toFixed(0)} µs`;
const ns = (ms) => (ms >= 0.01 ? `${(ms * 1e3).toFixed(1)} µs` : `${(ms * 1e6).toFixed(0)} ns`);

console.log(
  `Starlark benchmark (median of ${RUNS} runs, Node ${process.version}); reference: native starlark-go (docs/starlark.md, "Performance")\n`,
);
const header = ['workload', 'krmfn', 'per op', 'starlark-go/op', 'vs Go', 'plain JS', 'vs JS'];
const rows = [header];
for (const w of workloads) {
  const t = time(w.star);
  const j = time(w.js);
  const per = t / w.ops;
  rows.push([
    w.name,
    fmt(t),
    `${ns(per)}/${w.unit}`,
    w.go ? ns(w.go) : '-',
    w.go ? `${(per / w.go).toFixed(2)}x` : '-',
    fmt(j),
    `${(t / j).toFixed(1)}x`,
  ]);
}
{
  const t = time(() => S.checkFile({ filename: 'parse.star', source: parseSrc, dialect: KRM }));
  const mbps = parseSrc.length / 1e6 / (t / 1e3);
  const goMs = (parseSrc.length / 47e6) * 1e3;
  rows.push([
    `parse + resolve ${(parseSrc.length / 1000).toFixed(0)} KB`,
    fmt(t),
    `${mbps.toFixed(1)} MB/s`,
    '47 MB/s',
    `${(t / goMs).toFixed(2)}x`,
    '-',
    '-',
  ]);
}
{
  // The whole KRM function call on live objects: YAML nodes -> dicts, script, dicts -> nodes with
  // comment and key-order restoration. Baseline: the script alone on pre-built dicts (above).
  const source = 'for obj in ctx.resource_list["items"]:\n  obj["metadata"]["namespace"] = "staging"\n';
  const call = () => {
    const items = resources.map((r) => K.KubeObject.fromJS(r));
    const fc = K.KubeObject.fromJS({
      apiVersion: 'fn.kpt.dev/v1alpha1',
      kind: 'StarlarkRun',
      metadata: { name: 'ns' },
      source,
    });
    return K.runStarlarkFunction(
      { items, functionConfig: fc, results: [] },
      {
        limits: { ...K.DEFAULT_LIMITS },
        signal: new AbortController().signal,
        deadline: Infinity,
        now: Date.now,
        env: {},
        validator: false,
      },
    );
  };
  const build = () => resources.map((r) => K.KubeObject.fromJS(r));
  const t = time(call);
  const base = time(build);
  rows.push([
    'KRM function call, 1,000 Deployments (set namespace)',
    fmt(t),
    ns(t / 1000) + '/resource',
    '-',
    '-',
    fmt(base),
    `${(t / base).toFixed(1)}x`,
  ]);
}
{
  const t = time(() => S.execFile({ filename: 'tiny.star', source: 'x = 1\n', dialect: KRM }));
  rows.push(['start-up: run a 1-line script', fmt(t), '-', '-', '-', '-', '-']);
}
const widths = header.map((_, i) => Math.max(...rows.map((r) => r[i].length)));
for (const r of rows) console.log(r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  '));
