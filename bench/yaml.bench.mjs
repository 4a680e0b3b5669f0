// YAML layer benchmark: `node bench/yaml.bench.mjs` (bundles src/core/yaml with esbuild first).
// For generated multi-document packages of about 1 MB and 10 MB (ConfigMaps, Deployments and
// Kptfiles with head and line comments, block scalars, flow lists) it prints MB/s for our parse,
// emit and round trip, next to the same run's baselines: the `yaml` package's CST parser alone
// and its parseAllDocuments + Document.toString. Medians of several runs; ratios > 1 mean faster
// than the baseline (issue 17's target: our round trip >= 2x the CST parser alone). Each input is
// also written to node_modules/.cache/krmfn-bench/yaml-<size>.yaml so an outside program can be timed
// on the same bytes: with BENCH_GOYAML=PROGRAM, the bench runs `PROGRAM -bench FILE` after its own
// figures for each size and prints the go-yaml round trip next to ours (the program decodes every
// document into a go-yaml v3 node and encodes it back, once to warm up and three times timed, and
// prints the best time in nanoseconds on stdout; see bench/README.md). Every figure comes in wall
// time and in CPU time (this process's, GNU time's for go-yaml): on a loaded machine only the CPU
// ratios hold. A 50 MB round trip runs once at the end in a child
// process that reports its peak RSS (target: <= 2.5x the input + 100 MB). With `--json` the table
// goes to stderr and stdout gets the ratios as JSON (`{ ratios, raw }`, the shape of
// bench/render.bench.mjs's figures, which merges them into `npm run bench`).
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Parser, parseAllDocuments } from 'yaml';
import { ratio } from './figures.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(repo, 'node_modules', '.cache', 'krmfn-bench');
mkdirSync(outDir, { recursive: true });
const outfile = join(outDir, 'yaml.mjs');
await build({
  entryPoints: [join(repo, 'src/core/yaml/index.ts')],
  outfile,
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  packages: 'external',
  logLevel: 'warning',
});
const { parseYamlFile, emitYamlFile } = await import(pathToFileURL(outfile).href);

const json = process.argv.includes('--json');
const log = (line) => (json ? process.stderr : process.stdout).write(`${line}\n`);
const figures = { ratios: {}, raw: {} };

function resource(i) {
  switch (i % 3) {
    case 0:
      return `# Deployment ${i}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web-${i} # kpt-set: \${name}
  namespace: default
  labels:
    app: web
    tier: "frontend"
spec:
  replicas: 3
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
      - name: nginx
        image: nginx:1.14.2
        args: ["--port", "80", "--verbose"]
        ports:
        - containerPort: 80
          protocol: TCP
        env:
        - name: MODE
          value: 'production'
        # resources are tuned per environment
        resources:
          limits:
            cpu: 500m
            memory: 128Mi
`;
    case 1:
      return `apiVersion: v1
kind: ConfigMap
metadata:
  name: config-${i}
  annotations:
    config.kubernetes.io/local-config: "true"
data:
  key: value
  number: "42"
  script: |
    #!/bin/sh
    echo "starting ${i}"
    exec server --config /etc/app.yaml
  # trailing note
`;
    default:
      return `apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: pkg-${i}
info:
  description: package number ${i}
pipeline:
  mutators:
    - image: gcr.io/kpt-fn/set-namespace:v0.4.1
      configMap:
        namespace: ns-${i}
`;
  }
}

function pkg(bytes) {
  const parts = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const r = resource(i);
    parts.push(r);
    size += r.length + 4;
  }
  return parts.join('---\n');
}

/** Runs of the BENCH_GOYAML program's `-bench` mode: one warm-up round trip and three timed ones. */
const GO_RUNS = 4;

/**
 * go-yaml's round trip of `file` by the BENCH_GOYAML program, or undefined without one: `ms` its
 * best wall time, `cpu` the whole process's user + system CPU (GNU time) divided by its runs.
 */
function goYaml(file) {
  const program = process.env.BENCH_GOYAML;
  if (!program) return undefined;
  const r = spawnSync('/usr/bin/time', ['-f', '%U %S', program, '-bench', file], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${program} -bench ${file} failed: ${r.stderr}`);
  const [user, system] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
  return { ms: Number(r.stdout.trim()) / 1e6, cpu: ((user + system) * 1000) / GO_RUNS };
}

/**
 * Runs `f` `runs` times: the median wall time, the median CPU time of this process (user +
 * system, V8's helper threads included: the figure that holds on a shared, loaded machine), and
 * the last result.
 */
function median(f, runs) {
  const times = [];
  const cpus = [];
  let result;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const c = process.cpuUsage();
    result = f();
    const d = process.cpuUsage(c);
    times.push(performance.now() - t);
    cpus.push((d.user + d.system) / 1000);
  }
  times.sort((a, b) => a - b);
  cpus.sort((a, b) => a - b);
  return { ms: times[times.length >> 1], cpu: cpus[cpus.length >> 1], result };
}

const mbps = (bytes, ms) => bytes / 1e6 / (ms / 1000);
const fmt = (x) => x.toFixed(1).padStart(6);

for (const [label, bytes, runs] of [
  ['1 MB', 1e6, 7],
  ['10 MB', 1e7, 3],
]) {
  const text = pkg(bytes);
  const docs = text.split('---\n').length;
  const file = join(outDir, `yaml-${label.replace(' ', '').toLowerCase()}.yaml`);
  writeFileSync(file, text);
  // Warm up the JIT on a slice.
  for (let i = 0; i < 2; i++)
    emitYamlFile(...Object.values(parseYamlFile(text.slice(0, 200_000).replace(/[^\n]*$/, ''))));
  const cst = median(() => {
    let n = 0;
    for (const _ of new Parser().parse(text)) n++;
    return n;
  }, runs);
  const parse = median(() => parseYamlFile(text), runs);
  const emit = median(() => emitYamlFile(parse.result.docs, parse.result.seqIndent), runs);
  const trip = median(() => {
    const f = parseYamlFile(text);
    return emitYamlFile(f.docs, f.seqIndent);
  }, runs);
  const yParse = median(() => parseAllDocuments(text), runs);
  const yEmit = median(() => yParse.result.map((d) => d.toString({ lineWidth: 0 })).join('---\n'), runs);
  const yTrip = yParse.ms + yEmit.ms;
  log(`${label} (${text.length} bytes, ${docs} documents)`);
  log(
    `  ours   parse ${fmt(mbps(text.length, parse.ms))} MB/s   emit ${fmt(mbps(text.length, emit.ms))} MB/s   round trip ${fmt(mbps(text.length, trip.ms))} MB/s`,
  );
  log(
    `  yaml   parseAllDocuments ${fmt(mbps(text.length, yParse.ms))} MB/s   toString ${fmt(mbps(text.length, yEmit.ms))} MB/s   round trip ${fmt(mbps(text.length, yTrip))} MB/s`,
  );
  log(`  yaml   CST Parser only ${fmt(mbps(text.length, cst.ms))} MB/s`);
  log(
    `  ratios parse/parseAllDocuments ${(yParse.ms / parse.ms).toFixed(2)}x   emit/toString ${(yEmit.ms / emit.ms).toFixed(2)}x   ` +
      `round trip ${(yTrip / trip.ms).toFixed(2)}x   our round trip vs the CST parser alone ${(cst.ms / trip.ms).toFixed(2)}x (target >= 2x)`,
  );
  log(`  byte-identical round trip: ${trip.result === text ? 'yes' : 'no (normalised)'}`);
  log(
    `  CPU    ours round trip ${fmt(mbps(text.length, trip.cpu))} MB/s   CST Parser only ${fmt(mbps(text.length, cst.cpu))} MB/s   ` +
      `our round trip vs the CST parser alone ${(cst.cpu / trip.cpu).toFixed(2)}x`,
  );
  const key = label.replace(' ', '').toLowerCase();
  const go = goYaml(file);
  const timing = (t) => ({ ms: t.ms, cpu: t.cpu });
  figures.raw[`yaml_${key}`] = {
    bytes: text.length,
    ours: timing(trip),
    cst: timing(cst),
    ...(go ? { goYaml: go } : {}),
  };
  figures.ratios[`yaml_roundtrip_over_cst_wall_${key}`] = ratio(cst.ms / trip.ms, 2, 'higher');
  figures.ratios[`yaml_roundtrip_over_cst_cpu_${key}`] = ratio(cst.cpu / trip.cpu, 2, 'higher');
  if (go !== undefined) {
    figures.ratios[`yaml_roundtrip_over_goyaml_wall_${key}`] = ratio(go.ms / trip.ms, 1.5, 'higher');
    figures.ratios[`yaml_roundtrip_over_goyaml_cpu_${key}`] = ratio(go.cpu / trip.cpu, 1.5, 'higher');
    log(
      `  go-yaml round trip ${fmt(mbps(text.length, go.ms))} MB/s (best of 3)   ours vs go-yaml ${(go.ms / trip.ms).toFixed(2)}x (target >= 1.5x)`,
    );
    log(
      `  CPU    go-yaml round trip ${fmt(mbps(text.length, go.cpu))} MB/s (process CPU / ${GO_RUNS})   ours vs go-yaml ${(go.cpu / trip.cpu).toFixed(2)}x`,
    );
  }
}

{
  // Peak RSS in a fresh process: generate 50 MB, then parse and emit it.
  const child = `
    const { parseYamlFile, emitYamlFile } = await import(${JSON.stringify(pathToFileURL(outfile).href)});
    ${resource.toString()}
    ${pkg.toString()}
    const text = pkg(5e7);
    const t = performance.now();
    const f = parseYamlFile(text, { limits: { maxDocuments: 1e7 } });
    const out = emitYamlFile(f.docs, f.seqIndent);
    const ms = performance.now() - t;
    console.log(JSON.stringify({ bytes: text.length, docs: f.docs.length, ms, out: out.length, rss: process.resourceUsage().maxRSS * 1024 }));
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', child], {
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(r.stderr);
  const m = JSON.parse(r.stdout.trim().split('\n').pop());
  const limit = 2.5 * m.bytes + 100e6;
  log(
    `50 MB (${m.bytes} bytes, ${m.docs} documents): round trip ${fmt(mbps(m.bytes, m.ms))} MB/s, ${(m.ms / 1000).toFixed(1)} s, ` +
      `peak RSS ${(m.rss / 1e6).toFixed(0)} MB (${(m.rss / m.bytes).toFixed(2)}x the input; target <= ${(limit / 1e6).toFixed(0)} MB)`,
  );
  figures.raw.yaml_50mb = { bytes: m.bytes, ms: m.ms, rssMB: m.rss / 1e6, rssBudgetMB: limit / 1e6 };
  figures.ratios.yaml_rss_over_budget_50mb = ratio(m.rss / limit, 1, 'lower');
}

if (json) console.log(JSON.stringify(figures));
