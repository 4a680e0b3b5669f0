// The starlark runtime inside the engine: a Kptfile pipeline with a StarlarkRun function renders
// in-process, keeps comments and key order, and the runtime resolves only kpt's starlark images.
import { describe, expect, it } from 'vitest';
import { createEngine, defaultRuntimes, MemoryFs } from '../../../src/index.ts';
import { createStarlarkRuntime, isStarlarkImage, starlarkImageVersion } from '../../../src/runtimes/starlark.ts';
import { STARLARK_RELEASED_VERSIONS } from '../../../src/runtimes/starlark/versions.ts';
import { naturalCompare } from '../../../src/runtimes/starlark/convert.ts';
import { isNotFoundError } from '../../../src/core/errors.ts';
import { DEFAULT_LIMITS } from '../../../src/core/limits.ts';

const KPTFILE = `apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: app
pipeline:
  mutators:
  - image: gcr.io/kpt-fn/starlark:v0.5.0
    configPath: set-ns.yaml
`;

const FN_CONFIG = `apiVersion: fn.kpt.dev/v1alpha1
kind: StarlarkRun
metadata:
  name: set-ns
  annotations:
    config.kubernetes.io/local-config: "true"
source: |
  for obj in ctx.resource_list["items"]:
    if obj["kind"] == "ConfigMap":
      obj["metadata"]["namespace"] = "staging"
      obj["data"]["replicas"] = int(obj["data"]["replicas"]) + 1
  print("done")
`;

const CM = `# Application settings.
apiVersion: v1
kind: ConfigMap
metadata: # kpt-merge: /my-cm
  name: my-cm
data:
  # how many
  replicas: "2" # as a string
  zeta: last
  alpha: first
`;

describe('the starlark runtime in a render pipeline', () => {
  it('renders in-process and preserves comments and key order', async () => {
    const fs = new MemoryFs({ '/pkg/Kptfile': KPTFILE, '/pkg/set-ns.yaml': FN_CONFIG, '/pkg/cm.yaml': CM });
    const engine = createEngine({ runtimes: [...defaultRuntimes(), createStarlarkRuntime()] });
    const outcome = await engine.render({ root: '/pkg', fs, now: () => 1_700_000_000_000 });
    expect(outcome.failure?.error.message).toBeUndefined();
    expect(outcome.ok).toBe(true);
    expect(outcome.results.items[0]).toMatchObject({
      image: 'gcr.io/kpt-fn/starlark:v0.5.0',
      exitCode: 0,
      stderr: 'done',
    });
    expect(new TextDecoder().decode(await fs.readFile('/pkg/cm.yaml'))).toBe(`# Application settings.
apiVersion: v1
kind: ConfigMap
metadata: # kpt-merge: /my-cm
  name: my-cm
  namespace: staging
data:
  # how many
  replicas: 3 # as a string
  zeta: last
  alpha: first
`);
  });
  it('reports fail() as an error result and leaves the package unchanged', async () => {
    const failing = FN_CONFIG.replace('print("done")', 'fail("no way")');
    const fs = new MemoryFs({ '/pkg/Kptfile': KPTFILE, '/pkg/set-ns.yaml': failing, '/pkg/cm.yaml': CM });
    const engine = createEngine({ runtimes: [...defaultRuntimes(), createStarlarkRuntime()] });
    const outcome = await engine.render({ root: '/pkg', fs, now: () => 1_700_000_000_000 });
    expect(outcome.ok).toBe(false);
    expect(outcome.results.items[0]).toMatchObject({
      exitCode: 1,
      results: [{ message: 'fail: no way', severity: 'error' }],
    });
    expect(new TextDecoder().decode(await fs.readFile('/pkg/cm.yaml'))).toBe(CM);
  });
});

describe('image resolution', () => {
  it('resolves every released tag through every spelling', () => {
    for (const v of STARLARK_RELEASED_VERSIONS) {
      for (const prefix of ['', 'gcr.io/kpt-fn/', 'ghcr.io/kptdev/krm-functions-catalog/'])
        expect(starlarkImageVersion(`${prefix}starlark:${v}`)).toBe(v);
    }
  });
  it.each([
    ['starlark:v0.4', 'v0.4.3'],
    ['starlark:v0.2', 'v0.2.2'],
    ['starlark:v0.1', 'v0.1.2'],
    ['starlark:v0', 'v0.5.1'],
    ['starlark:latest', 'v0.5.1'],
    ['starlark:unstable', 'v0.5.1'],
    ['starlark', 'v0.5.1'],
    ['gcr.io/kpt-fn/starlark:v0.3.0@sha256:0123', 'v0.3.0'],
  ])('%s follows %s', (image, version) => {
    expect(starlarkImageVersion(image)).toBe(version);
  });
  it.each([
    'gcr.io/kpt-fn/starlark:v0.4.3',
    'gcr.io/kpt-fn/starlark:v0.5',
    'gcr.io/kpt-fn/starlark',
    'ghcr.io/kptdev/krm-functions-catalog/starlark:latest',
    'gcr.io/kpt-fn/starlark:v0.4.3@sha256:0123',
    'starlark:v0.4.3',
    'starlark:v0.1.0',
    'starlark',
    'ghcr.io/kptdev/krm-functions-catalog/starlark:v0.5.1',
  ])('handles %s', async (image) => {
    expect(isStarlarkImage(image)).toBe(true);
    const runner = await createStarlarkRuntime().resolve({ image }, ctxFor());
    expect(runner.kind).toBe('objects');
  });
  it.each([
    'gcr.io/kpt-fn/set-namespace:v0.4',
    'example.com/starlark:v1',
    'starlark:v0.6.0',
    'starlark:v9',
    'gcr.io/kpt-fn/starlark@sha256:0123',
    'gcr.io/kpt-fn-contrib/starlark:v0.4.3',
    'gcr.io/kpt-fn/starlark-extra:v1',
  ])('falls through on %s', async (image) => {
    await expect(createStarlarkRuntime().resolve({ image }, ctxFor())).rejects.toSatisfy(isNotFoundError);
  });
});

describe('key order of new keys (go-yaml sorter)', () => {
  it('sorts like go-yaml', () => {
    const keys = ['b', 'a10', 'a2', 'A', '_x', '9-x', '10-x', 'a', 'ab', 'a-b', 'z1b', 'z1a', 'x01', 'x1'];
    expect([...keys].sort(naturalCompare)).toEqual([
      '_x',
      '9-x',
      '10-x',
      'A',
      'a',
      'a-b',
      'a2',
      'a10',
      'ab',
      'b',
      'x1',
      'x01',
      'z1a',
      'z1b',
    ]);
  });
});

function ctxFor() {
  return {
    displayName: '',
    packagePath: '',
    cwd: '/',
    allowExec: false,
    allowWasm: false,
    allowNetwork: false,
    limits: { ...DEFAULT_LIMITS },
  };
}
