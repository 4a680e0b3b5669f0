// YAML layer benchmark: `node bench/yaml.bench.mjs` (bundles src/core/yaml with esbuild first).
// For generated multi-document packages of about 1 MB and 10 MB (ConfigMaps, Deployments and
// Kptfiles with head and line comments, block scalars, flow lists) it prints MB/s for our parse,
// emit and round trip, next to the same run's baselines: the `yaml` package's CST parser alone
// (the floor our parser stands on) and its parseAllDocuments + Document.toString. Medians of
// several runs; ratios > 1 mean faster than the baseline. A 50 MB parse is measured once at the end.
import { build } from 'esbuild';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Parser, parseAllDocuments } from 'yaml';

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

function median(f, runs) {
  const times = [];
  let result;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    result = f();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { ms: times[times.length >> 1], result };
}

const mbps = (bytes, ms) => bytes / 1e6 / (ms / 1000);
const fmt = (x) => x.toFixed(1).padStart(6);

for (const [label, bytes, runs] of [
  ['1 MB', 1e6, 7],
  ['10 MB', 1e7, 3],
]) {
  const text = pkg(bytes);
  const docs = text.split('---\n').length;
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
  console.log(`${label} (${text.length} bytes, ${docs} documents)`);
  console.log(
    `  ours   parse ${fmt(mbps(text.length, parse.ms))} MB/s   emit ${fmt(mbps(text.length, emit.ms))} MB/s   round trip ${fmt(mbps(text.length, trip.ms))} MB/s`,
  );
  console.log(
    `  yaml   parseAllDocuments ${fmt(mbps(text.length, yParse.ms))} MB/s   toString ${fmt(mbps(text.length, yEmit.ms))} MB/s   round trip ${fmt(mbps(text.length, yTrip))} MB/s`,
  );
  console.log(`  yaml   CST Parser only ${fmt(mbps(text.length, cst.ms))} MB/s (the floor under our parse)`);
  console.log(
    `  ratios parse/parseAllDocuments ${(yParse.ms / parse.ms).toFixed(2)}x   emit/toString ${(yEmit.ms / emit.ms).toFixed(2)}x   ` +
      `round trip ${(yTrip / trip.ms).toFixed(2)}x   our parse costs ${(parse.ms / cst.ms).toFixed(2)}x the CST alone`,
  );
  console.log(`  byte-identical round trip: ${trip.result === text ? 'yes' : 'no (normalised)'}`);
}

{
  const text = pkg(5e7);
  const t = performance.now();
  const f = parseYamlFile(text);
  const ms = performance.now() - t;
  console.log(
    `50 MB (${text.length} bytes, ${f.docs.length} documents): parse ${fmt(mbps(text.length, ms))} MB/s, ${(ms / 1000).toFixed(1)} s, heap ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB`,
  );
}
