// Generated kpt packages for the render benchmarks (bench/render.bench.mjs): `n` resources (every
// fifth a commented Deployment, the rest ConfigMaps), ten to a file, fifty files to a directory,
// under a Kptfile whose pipeline is five built-in mutators, or (`kptfile: CAT_KPTFILE`) five
// `/bin/cat` exec functions: kpt's own floor, a function that does nothing but be executed.
import { mkdtempSync, mkdirSync, writeFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PER_FILE = 10;

export const MUTATORS_KPTFILE = `apiVersion: kpt.dev/v1
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

export const CAT_KPTFILE = `apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: bench
pipeline:
  mutators:
${'  - exec: /bin/cat\n'.repeat(5)}`;

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

/** A fresh package of `n` resources in a new temporary directory: { dir (remove it), pkg, bytes }. */
export function generate(n, { kptfile = MUTATORS_KPTFILE } = {}) {
  const dir = mkdtempSync(join(tmpdir(), `krmfn-bench-${n}-`));
  const pkg = join(dir, 'pkg');
  mkdirSync(pkg);
  writeFileSync(join(pkg, 'Kptfile'), kptfile);
  let bytes = kptfile.length;
  for (let f = 0; f * PER_FILE < n; f++) {
    const docs = [];
    for (let i = f * PER_FILE; i < Math.min(n, (f + 1) * PER_FILE); i++) docs.push(resource(i));
    const sub = join(pkg, `group-${Math.floor(f / 50)}`);
    mkdirSync(sub, { recursive: true });
    const text = docs.join('---\n');
    bytes += text.length;
    writeFileSync(join(sub, `res-${f}.yaml`), text);
  }
  return { dir, pkg, bytes };
}

/** Every file under `dir`, depth first. */
export function files(dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...files(p));
    else out.push(p);
  }
  return out;
}

/** Resources needed for about `megabytes` MB of package (measured on a small sample). */
export function resourcesForMegabytes(megabytes) {
  let bytes = 0;
  for (let i = 0; i < 100; i++) bytes += resource(i).length + 4;
  return Math.ceil((megabytes * 1024 * 1024) / (bytes / 100));
}
