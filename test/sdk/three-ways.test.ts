/**
 * One SDK-written function, three hosts, one behaviour: in-process through the engine (objects
 * runner), as an exec binary built by `krmfn build` and run by `krmfn render --allow-exec`, and
 * through `processResourceList` (compared with the same binary fed the same ResourceList).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from 'krmfn';
import { processResourceList } from 'krmfn/sdk';
import { main } from '../../src/node/cli.ts';
import { NodeFs, toEnginePath } from '../../src/node/fs.ts';
import { createFunctionRuntime } from '../../src/index.ts';
import tiers from './fixtures/tiers/fn.ts';

const FIXTURE = path.join(import.meta.dirname, 'fixtures/tiers/fn.ts');
const IMAGE = 'example.com/fns/tiers:v1';

const RESOURCES = `# Deployments of the shop
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web # front
  labels: {app: web}
spec:
  replicas: 3
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
spec:
  replicas: 2 # already right
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: scratch
  annotations:
    example.com/remove: "true"
data:
  x: 'y'
`;

const FN_CONFIG = `apiVersion: fn.kpt.dev/v1alpha1
kind: SetTier
metadata:
  name: tiers
  annotations:
    config.kubernetes.io/local-config: "true"
tier: gold
replicas: 2
`;

const kptfile = (fn: string): string => `apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: shop
pipeline:
  mutators:
    - ${fn}
      configPath: fn-config.yaml
`;

async function readTree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await fsp.readdir(dir, { withFileTypes: true })) {
    if (e.isFile()) out[e.name] = await fsp.readFile(path.join(dir, e.name), 'utf8');
  }
  return out;
}

let tmp: string;
let binary: string;
beforeAll(async () => {
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'krmfn-3ways-'));
  binary = path.join(tmp, 'tiers.mjs');
  const out = new PassThrough();
  const code = await main({
    argv: ['build', FIXTURE, '--out', binary],
    stdin: Readable.from([]),
    stdout: out,
    stderr: out,
    env: {},
    cwd: tmp,
  });
  expect(code).toBe(0);
});
afterAll(async () => {
  await fsp.rm(tmp, { recursive: true, force: true });
});

async function writePkg(dir: string, fnLine: string): Promise<void> {
  await fsp.mkdir(dir, { recursive: true });
  await fsp.writeFile(path.join(dir, 'Kptfile'), kptfile(fnLine));
  await fsp.writeFile(path.join(dir, 'resources.yaml'), RESOURCES);
  await fsp.writeFile(path.join(dir, 'fn-config.yaml'), FN_CONFIG);
}

const resultsOf = (text: string): string => text.slice(text.indexOf('    results:'));

describe('one SDK function, three hosts', () => {
  it('renders the same package in-process and as `krmfn render --allow-exec` of the built binary', async () => {
    const inProc = path.join(tmp, 'in-process');
    const viaExec = path.join(tmp, 'exec');
    await writePkg(inProc, `image: ${IMAGE}`);
    await writePkg(viaExec, `exec: node ${binary}`);

    const engine = createEngine({ extraRuntimes: [createFunctionRuntime({ [IMAGE]: tiers })] });
    const outcome = await engine.render({
      fs: new NodeFs(),
      root: toEnginePath(inProc),
      resultsDir: toEnginePath(path.join(tmp, 'r1')),
    });
    expect(outcome.ok, JSON.stringify(outcome.failure)).toBe(true);

    const err = new PassThrough();
    const chunks: Buffer[] = [];
    err.on('data', (c: Buffer) => chunks.push(c));
    const code = await main({
      argv: ['render', viaExec, '--allow-exec', '--results-dir', path.join(tmp, 'r2')],
      stdin: Readable.from([]),
      stdout: new PassThrough(),
      stderr: err,
      env: { PATH: process.env.PATH },
      cwd: tmp,
    });
    expect(code, Buffer.concat(chunks).toString()).toBe(0);

    const a = await readTree(inProc);
    const b = await readTree(viaExec);
    delete a['Kptfile'];
    delete b['Kptfile'];
    expect(Object.keys(a).sort()).toEqual(['fn-config.yaml', 'resources.yaml', 'tier-summary.yaml']);
    expect(b).toEqual(a);
    expect(a['resources.yaml']).toContain('  replicas: 2 # set by tiers (gold)');
    expect(a['resources.yaml']).not.toContain('scratch');
    expect(a['tier-summary.yaml']).toContain('on: "yes"');

    const r1 = await fsp.readFile(path.join(tmp, 'r1/results.yaml'), 'utf8');
    const r2 = await fsp.readFile(path.join(tmp, 'r2/results.yaml'), 'utf8');
    expect(resultsOf(r2)).toBe(resultsOf(r1));
    expect(r1).toContain('message: scaled web');
  });

  it('gives the same bytes, exit code and log through processResourceList and the binary', async () => {
    const input = `apiVersion: config.kubernetes.io/v1
kind: ResourceList
items:
- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: web # front
    annotations:
      config.kubernetes.io/path: 'resources.yaml'
      config.kubernetes.io/index: '0'
  spec:
    replicas: 5
functionConfig:
  apiVersion: v1
  kind: ConfigMap
  metadata:
    name: function-input
  data: {tier: silver, replicas: "1"}
`;
    for (const text of [input, input.replace('replicas: "1"', 'replicas: "one"')]) {
      const inProc = await processResourceList(tiers, text);
      const run = spawnSync('node', [binary], { input: text, encoding: 'utf8' });
      expect(run.stdout).toBe(inProc.output);
      expect(run.status).toBe(inProc.exitCode);
      expect(run.stderr).toBe(inProc.log.length ? inProc.log.join('\n') + '\n' : '');
    }
    expect(execFileSync('node', [binary, '--help'], { encoding: 'utf8' })).toContain('tier (required): string');
  });
});
