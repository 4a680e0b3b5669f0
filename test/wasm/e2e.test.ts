/**
 * End to end, in-process: a Kptfile pipeline mixing a built-in and WASI functions renders through
 * the engine with the Node WASM runtime in the chain; runaway modules fail the render and leave
 * the package untouched.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createEngine, defaultRuntimes } from 'krmfn';
import { NodeFs, createExecRuntime } from 'krmfn/node';
import { createNodeWasmRuntime } from '../../src/node/wasm/index.ts';
import { TESTDATA } from './fixtures.ts';

const MiB = 1048576;
const tmp = mkdtempSync(join(tmpdir(), 'krmfn-wasm-e2e-'));
mkdirSync(join(tmp, 'fns'));
for (const f of ['annotate', 'annotate-yaml', 'echo', 'spin', 'hog', 'flood', 'fail'])
  cpSync(`${TESTDATA}${f}.wasm`, join(tmp, 'fns', `${f}.wasm`));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const wasm = createNodeWasmRuntime({ stdinFormat: 'json', maxMemoryBytes: 32 * MiB });
afterAll(() => wasm.close());
const engine = createEngine({
  runtimes: [...defaultRuntimes(), wasm, createExecRuntime({ env: {} })],
  kptVersion: '1.0.0-beta.56',
});
/** The default runtime: kpt's YAML on stdin, 512 MiB cap. */
const yamlWasm = createNodeWasmRuntime();
afterAll(() => yamlWasm.close());
const yamlEngine = createEngine({
  runtimes: [...defaultRuntimes(), yamlWasm, createExecRuntime({ env: {} })],
  kptVersion: '1.0.0-beta.56',
});

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web # the web tier
spec:
  replicas: 2
`;
const CONFIGMAP = `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  mode: fast
`;

function makePackage(name: string, wasmExec: string): string {
  const dir = join(tmp, name);
  mkdirSync(dir);
  writeFileSync(
    join(dir, 'Kptfile'),
    `apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: ${name}
pipeline:
  mutators:
  - image: gcr.io/kpt-fn/set-namespace:v0.4.1
    configMap:
      namespace: prod
  - exec: ${wasmExec}
`,
  );
  writeFileSync(join(dir, 'deployment.yaml'), DEPLOYMENT);
  writeFileSync(join(dir, 'configmap.yaml'), CONFIGMAP);
  return dir;
}

function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const e of readdirSync(d)) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return out;
}

const render = (dir: string, timeoutMs = 20_000) =>
  engine.render({
    fs: new NodeFs(),
    root: dir,
    cwd: tmp,
    allowExec: true,
    allowWasm: true,
    limits: { timeoutMs, maxOutputBytes: 16 * MiB },
  });

describe('render with a WASI function in the pipeline', () => {
  it('runs the built-in and the WASM module in-process and writes the package', async () => {
    const dir = makePackage('mixed', 'fns/annotate.wasm');
    const outcome = await render(dir);
    expect(outcome.failure?.error.message).toBeUndefined();
    expect(outcome.ok).toBe(true);
    // The module answers in JSON, so the items come back in flow style (as kpt writes them);
    // formatting is the engine's business: assert the content and the kept comment.
    const deployment = readFileSync(join(dir, 'deployment.yaml'), 'utf8');
    expect(parse(deployment)).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'prod', annotations: { 'wasm.krmfn.dev/touched': 'true' } },
      spec: { replicas: 2 },
    });
    expect(deployment).toContain('# the web tier');
    expect(parse(readFileSync(join(dir, 'configmap.yaml'), 'utf8')).metadata).toEqual({
      name: 'settings',
      namespace: 'prod',
      annotations: { 'wasm.krmfn.dev/touched': 'true' },
    });
    // Everything in scope is an item, the Kptfile too (docs/kpt-semantics.md, "Calling a function").
    expect(outcome.written.sort()).toEqual([
      join(dir, 'Kptfile'),
      join(dir, 'configmap.yaml'),
      join(dir, 'deployment.yaml'),
    ]);
  });

  it("sends kpt's YAML by default: a module editing it keeps the package in block style and its comments", async () => {
    const dir = makePackage('mixed-yaml', 'fns/annotate-yaml.wasm');
    const outcome = await yamlEngine.render({
      fs: new NodeFs(),
      root: dir,
      cwd: tmp,
      allowExec: true,
      allowWasm: true,
    });
    expect(outcome.failure?.error.message).toBeUndefined();
    // kpt's reader annotations sit before the namespace set-namespace appends, so the surviving
    // annotations map keeps that place (as kpt writes it).
    expect(readFileSync(join(dir, 'deployment.yaml'), 'utf8')).toBe(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: web # the web tier
  annotations:
    wasm.krmfn.dev/touched: "true"
  namespace: prod
spec:
  replicas: 2
`);
    expect(outcome.results.items.map((r) => [r.image ?? r.exec, r.exitCode, r.stderr])).toEqual([
      ['gcr.io/kpt-fn/set-namespace:v0.4.1', 0, undefined],
      ['fns/annotate-yaml.wasm', 0, 'annotated 3 resources\n'],
    ]);
  });

  it('without --allow-alpha-wasm, the .wasm exec is not run as WASM', async () => {
    const dir = makePackage('no-flag', 'fns/echo.wasm');
    const before = snapshot(dir);
    const outcome = await engine.render({
      fs: new NodeFs(),
      root: dir,
      cwd: tmp,
      allowExec: true,
      allowWasm: false,
      limits: { timeoutMs: 5000 },
    });
    expect(outcome.ok).toBe(false);
    expect(snapshot(dir)).toEqual(before);
  });

  it.each([
    ['spin', 'timeout', /function timed out after \d+ ms|did not finish within/],
    ['hog', 'limit-exceeded', /^function exceeded the memory limit of 32 MiB$/],
    ['flood', 'limit-exceeded', /^function output exceeded the limit of 16777216 bytes$/],
    ['fail', 'function-failed', /exited with code 7/],
  ])(
    'a runaway or failing module (%s) fails the render and leaves the package untouched',
    async (fn, code, message) => {
      const dir = makePackage(`runaway-${fn}`, `fns/${fn}.wasm`);
      const before = snapshot(dir);
      const outcome = await render(dir, 800);
      expect(outcome.ok).toBe(false);
      expect(outcome.failure?.error.code).toBe(code);
      expect(outcome.failure?.error.message).toMatch(message);
      expect(snapshot(dir)).toEqual(before);
    },
  );
});
