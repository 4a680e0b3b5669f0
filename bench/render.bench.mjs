// Render benchmark (npm run bench builds dist/ first). For packages of 100, 1,000 and 10,000
// resources and a pipeline of 5 built-in mutators it prints: in-process render time, the
// parse+emit floor of the same files in the same run, their ratio, and peak RSS (each measurement
// in a fresh child process); then the whole-process wall time of `krmfn render` for 1,000 x 5.
// Targets (not asserted): 1,000 x 5 whole process < 400 ms; render <= 1.5x the floor; 10k < 400 MB.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const SIZES = (process.env.BENCH_SIZES ?? '100,1000,10000').split(',').map(Number);
const PER_FILE = 10;

const KPTFILE = `apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: bench
pipeline:
  mutators:
  - image: gcr.io/kpt-fn/set-namespace:v0.4.1
    configMap:
      namespace: bench
  - image: gcr.io/kpt-fn/set-labels:v0.2.0
    configMap:
      app: bench
  - image: gcr.io/kpt-fn/set-annotations:v0.1.4
    configMap:
      owner: perf-team
  - image: gcr.io/kpt-fn/set-labels:v0.2.0
    configMap:
      tier: backend
  - image: gcr.io/kpt-fn/set-namespace:v0.4.1
    configMap:
      namespace: bench-final
`;

function resource(i) {
  if (i % 5 === 0) {
    return `# deployment ${i}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: app-${i}
  labels:
    app: app-${i}
spec:
  replicas: 2 # scaled
  selector:
    matchLabels:
      app: app-${i}
  template:
    metadata:
      labels:
        app: app-${i}
    spec:
      containers:
      - name: main
        image: "registry.example.com/app:${i}"
        ports:
        - containerPort: 8080
`;
  }
  return `apiVersion: v1
kind: ConfigMap
metadata:
  name: config-${i} # generated
data:
  key: 'value-${i}'
  count: "${i}"
  mode: production
`;
}

function generate(n) {
  const dir = mkdtempSync(join(tmpdir(), `krmfn-bench-${n}-`));
  const pkg = join(dir, 'pkg');
  mkdirSync(pkg);
  writeFileSync(join(pkg, 'Kptfile'), KPTFILE);
  for (let f = 0; f * PER_FILE < n; f++) {
    const docs = [];
    for (let i = f * PER_FILE; i < Math.min(n, (f + 1) * PER_FILE); i++) docs.push(resource(i));
    const sub = join(pkg, `group-${Math.floor(f / 50)}`);
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, `res-${f}.yaml`), docs.join('---\n'));
  }
  return { dir, pkg };
}

function files(dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...files(p));
    else out.push(p);
  }
  return out;
}

async function child(mode, pkg) {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const cpuMs = () => {
    const c = process.cpuUsage(cpu0);
    return (c.user + c.system) / 1000;
  };
  if (mode === 'floor') {
    const { parseYamlFile, emitYamlFile } = await import(join(repo, 'dist/index.js'));
    const start = performance.now();
    for (const f of files(pkg)) {
      const parsed = parseYamlFile(readFileSync(f, 'utf8'), { file: f });
      emitYamlFile(parsed.docs, parsed.seqIndent);
    }
    const ms = performance.now() - start;
    return { ms, cpu: cpuMs(), total: performance.now() - t0 };
  }
  const { createEngine } = await import(join(repo, 'dist/index.js'));
  const { NodeFs } = await import(join(repo, 'dist/node.js'));
  const engine = createEngine();
  const start = performance.now();
  const cpuStart = cpuMs();
  const outcome = await engine.render({ fs: new NodeFs(), root: pkg });
  const ms = performance.now() - start;
  if (!outcome.ok) throw new Error(outcome.failure.error.message);
  return { ms, cpu: cpuMs() - cpuStart, functions: outcome.functionsRun };
}

function measure(mode, pkg) {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', mode, pkg], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

if (process.argv[2] === '--generate') {
  // For profiling: node bench/render.bench.mjs --generate 1000 → prints the package path.
  console.log(generate(Number(process.argv[3])).pkg);
} else if (process.argv[2] === '--child') {
  const res = await child(process.argv[3], process.argv[4]);
  res.rssMB = process.resourceUsage().maxRSS / 1024;
  console.log(JSON.stringify(res));
} else {
  console.log(
    'krmfn render benchmark: pipeline of 5 built-in mutators (set-namespace, set-labels, set-annotations, set-labels, set-namespace)',
  );
  console.log('Wall ms are noisy on a shared machine; CPU ms (user+system of the process) are shown beside them.');
  console.log('resources | floor parse+emit ms (cpu) | render ms (cpu) | ratio wall (cpu) | render peak RSS MB');
  let wall;
  let wallCpu;
  for (const n of SIZES) {
    const { dir, pkg } = generate(n);
    try {
      const floor = measure('floor', pkg);
      const render = measure('render', pkg);
      const pair = (a, b) => `${a.toFixed(0)} (${b.toFixed(0)})`;
      console.log(
        `${String(n).padStart(9)} | ${pair(floor.ms, floor.cpu).padStart(25)} | ${pair(render.ms, render.cpu).padStart(15)} | ${`${(render.ms / floor.ms).toFixed(2)} (${(render.cpu / floor.cpu).toFixed(2)})`.padStart(16)} | ${render.rssMB.toFixed(0).padStart(18)}`,
      );
      if (n === 1000) {
        // Whole process on a fresh copy: node start, CLI load, render in place, exit.
        const fresh = generate(n);
        const t0 = performance.now();
        const script = `process.argv = [process.argv[0], 'krmfn', 'render', ${JSON.stringify(fresh.pkg)}];
process.on('exit', () => { const u = process.resourceUsage(); process.stdout.write(JSON.stringify({ cpu: (u.userCPUTime + u.systemCPUTime) / 1000 })); });
await import(${JSON.stringify(join(repo, 'bin/krmfn.mjs'))});`;
        const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
        wall = performance.now() - t0;
        if (r.status !== 0) throw new Error(r.stderr);
        wallCpu = JSON.parse(r.stdout).cpu;
        rmSync(fresh.dir, { recursive: true, force: true });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (wall !== undefined) {
    console.log(
      `whole process \`krmfn render\`, 1,000 resources x 5 functions: ${wall.toFixed(0)} ms wall, ${wallCpu.toFixed(0)} ms CPU (target < 400 ms)`,
    );
  }
}
