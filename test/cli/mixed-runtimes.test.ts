/**
 * One Kptfile pipeline mixing every runtime krmfn has: a built-in, a Starlark script, a WASI
 * module, an exec process, a function on a remote krmfn server, and a container image (through a
 * stand-in docker CLI: no container engine runs on this machine). Rendered by the real CLI.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createEngine } from 'krmfn';
import { BUILTINS } from 'krmfn/builtins';
import { runCli } from '../harness/golden.ts';
import { createEngineService } from '../../src/node/serve/engine-service.ts';
import { startServer, type RunningServer } from '../../src/node/serve/server.ts';

let server: RunningServer;
const served: string[] = [];
let dir: string;
let bin: string;

beforeAll(async () => {
  server = await startServer({
    service: createEngineService({
      engine: createEngine(),
      functions: BUILTINS.map((b) => ({ name: b.name, images: b.images, summary: b.summary })),
    }),
    log: (e) => void (typeof e.image === 'string' && served.push(e.image)),
  });
  dir = mkdtempSync(join(tmpdir(), 'krmfn-mixed-'));
  bin = join(dir, 'bin');
  mkdirSync(bin);
  symlinkSync(resolve('test/serve/fixtures/fake-docker'), join(bin, 'docker'));
  const pkg = join(dir, 'pkg');
  mkdirSync(join(pkg, 'fns'), { recursive: true });
  copyFileSync('wasm/testdata/annotate-yaml.wasm', join(pkg, 'fns', 'annotate.wasm'));
  writeFileSync(
    join(pkg, 'fns', 'stamp.sh'),
    // An exec function: adds a line to the ConfigMap's data by text substitution.
    '#!/bin/sh\nsed -e "s/^    mode: fast$/    mode: fast\\n    stamped: by-exec/"\n',
  );
  chmodSync(join(pkg, 'fns', 'stamp.sh'), 0o755);
  writeFileSync(
    join(pkg, 'Kptfile'),
    `apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: mixed
pipeline:
  mutators:
    - image: gcr.io/kpt-fn/set-namespace:v0.4.1   # built-in
      configMap:
        namespace: mixed
    - image: gcr.io/kpt-fn/starlark:v0.5.0        # Starlark
      configPath: fns/starlark.yaml
    - exec: fns/annotate.wasm                      # WASI module
    - exec: fns/stamp.sh                           # process
    - image: gcr.io/kpt-fn/set-annotations:v0.1.4  # remote krmfn server
      configMap:
        served-by: remote
    - image: example.com/fns/echo:v1               # container
`,
  );
  writeFileSync(
    join(pkg, 'fns', 'starlark.yaml'),
    `apiVersion: fn.kpt.dev/v1alpha1
kind: StarlarkRun
metadata:
  name: tier
  annotations:
    config.kubernetes.io/local-config: "true"
source: |
  for r in ctx.resource_list["items"]:
    if r["kind"] == "ConfigMap":
      r["data"]["tier"] = "starlark"
`,
  );
  writeFileSync(
    join(pkg, 'cm.yaml'),
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app # the app\ndata:\n  mode: fast\n',
  );
  writeFileSync(
    join(dir, 'remote.yaml'),
    `apiVersion: krmfn.dev/v1alpha1\nkind: RemoteFunctions\nendpoints:\n- image: gcr.io/kpt-fn/set-annotations\n  url: ${server.url}/v1/run\n`,
  );
});

afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('a pipeline mixing built-in, Starlark, WASM, exec, remote and container functions', () => {
  it('renders in one run, each function on its own runtime', async () => {
    const pkg = join(dir, 'pkg');
    const r = await runCli(
      [
        'render',
        pkg,
        '--allow-exec',
        '--allow-alpha-wasm',
        '--remote-config',
        join(dir, 'remote.yaml'),
        '--container-runtime',
        'docker',
      ],
      { cwd: pkg, env: { PATH: `${bin}:${process.env.PATH}` } },
    );
    expect(r.stderr).toContain('Successfully executed 6 function(s) in 1 package(s).');
    expect(r.exitCode).toBe(0);
    const cm = readFileSync(join(pkg, 'cm.yaml'), 'utf8');
    expect(cm).toContain('namespace: mixed'); // built-in
    expect(cm).toContain('tier: starlark'); // Starlark
    expect(cm).toContain('wasm.krmfn.dev/touched: "true"'); // WASM
    expect(cm).toContain('stamped: by-exec'); // exec
    expect(cm).toContain('served-by: remote'); // remote
    expect(cm).toContain('name: app # the app'); // comments survive every boundary
    expect(served).toContain('gcr.io/kpt-fn/set-annotations:v0.1.4');
    expect(r.stderr).toContain('[PASS] "example.com/fns/echo:v1"'); // container (stand-in docker)
  });

  it('fails clearly for an image nothing runs when containers are off', async () => {
    const pkg = join(dir, 'pkg');
    const before = readFileSync(join(pkg, 'cm.yaml'), 'utf8');
    const r = await runCli(
      ['render', pkg, '--allow-exec', '--allow-alpha-wasm', '--remote-config', join(dir, 'remote.yaml')],
      { cwd: pkg },
    );
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('example.com/fns/echo:v1');
    expect(readFileSync(join(pkg, 'cm.yaml'), 'utf8')).toBe(before);
  });
});
