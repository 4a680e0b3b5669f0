// SDK and built-in function cost, against a same-run parse+emit baseline.
// Run: node bench/sdk.bench.mjs [items]   (bundles the sources with esbuild first; no dist needed)
import { build } from 'esbuild';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'krmfn-sdk-bench-'));
const entry = join(dir, 'entry.mjs');
writeFileSync(
  entry,
  `export * from ${JSON.stringify(join(root, 'sdk/index.ts'))};
export { BUILTINS } from ${JSON.stringify(join(root, 'builtins/index.ts'))};
export { parseYamlFile, emitYamlDocument } from ${JSON.stringify(join(root, 'src/core/yaml/index.ts'))};`,
);
await build({
  entryPoints: [entry],
  bundle: true,
  format: 'esm',
  platform: 'node',
  outfile: join(dir, 'b.mjs'),
  logLevel: 'silent',
  banner: { js: "import { createRequire as __c } from 'node:module'; const require = __c(import.meta.url);" },
});
const m = await import(pathToFileURL(join(dir, 'b.mjs')).href);
rmSync(dir, { recursive: true, force: true });

const N = Number(process.argv[2] ?? 2000);
const item = (i) => `- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: app-${i} # the app
    namespace: dev
    labels: {app: app-${i}, tier: 'web'}
    annotations:
      config.kubernetes.io/path: 'apps/app-${i}.yaml'
      config.kubernetes.io/index: '0'
  spec:
    replicas: ${i % 5}
    selector:
      matchLabels:
        app: app-${i}
    template:
      metadata:
        labels:
          app: app-${i}
      spec:
        containers:
        - name: app
          image: nginx:1.${i % 30}
          ports:
          - containerPort: 80
`;
const list = (cfg) =>
  `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n${Array.from({ length: N }, (_, i) => item(i)).join('')}functionConfig:\n  apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: function-input\n  data: {${cfg}}\n`;

const time = async (fn, reps = 5) => {
  await fn();
  const t = [];
  for (let r = 0; r < reps; r++) {
    const s = performance.now();
    await fn();
    t.push(performance.now() - s);
  }
  return Math.min(...t); // the least-disturbed run: the machine is shared
};

const text = list('namespace: prod');
const floor = await time(() => {
  const docs = m.parseYamlFile(text).docs;
  m.emitYamlDocument(docs[0], 'compact');
});
console.log(
  `${N} Deployments, ${(text.length / 1e6).toFixed(2)} MB ResourceList; best of 5 runs (ratios against the parse+emit floor of the same list)`,
);
console.log(`parse + emit floor                 ${floor.toFixed(1).padStart(8)} ms   1.00x`);
const byName = (n) => m.BUILTINS.find((d) => d.name === n).fn;
const cases = [
  ['set-namespace v0.4.1', 'set-namespace', 'v0.4.1', 'namespace: prod'],
  ['set-namespace v0.1.3 (style B)', 'set-namespace', 'v0.1.3', 'namespace: prod'],
  ['set-labels v0.2.1', 'set-labels', 'v0.2.1', 'team: blue, env: prod'],
  ['set-labels v0.1.4 (style B)', 'set-labels', 'v0.1.4', 'team: blue, env: prod'],
];
for (const [label, name, version, cfg] of cases) {
  const input = list(cfg);
  const image = { name, tag: version, version };
  // Function cost alone: parse outside the timed region, run on live objects (the engine's path).
  let parsed;
  const fnOnly = [];
  for (let r = 0; r < 6; r++) {
    parsed = m.parseResourceList(input).list;
    const s = performance.now();
    await m.executeFunction(byName(name), parsed, { image, quoteYaml11: false });
    if (r > 0) fnOnly.push(performance.now() - s);
  }
  const fnMs = Math.min(...fnOnly);
  const whole = await time(() => m.processResourceList(byName(name), input, { image, quoteYaml11: false }));
  console.log(
    `${label.padEnd(34)} ${fnMs.toFixed(1).padStart(8)} ms   ${(fnMs / floor).toFixed(2)}x  (function on live objects)`,
  );
  console.log(
    `${(label + ' + I/O').padEnd(34)} ${whole.toFixed(1).padStart(8)} ms   ${(whole / floor).toFixed(2)}x  (processResourceList: parse, run, emit)`,
  );
}
