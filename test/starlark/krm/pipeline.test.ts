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
  // Checked against kpt v1.0.0-beta.56 (docker stand-in calling `krmfn run`): the same Kptfile
  // renders with the short name and prints the tag's failure line.
  it.each([
    // v0.2.x has no kpt dialect flags: the script's top-level `for` is a static error there.
    ['starlark:v0.2.2', '[error] : set-ns:1:1: for loop not within a function'],
    ['starlark:v0.5', 'failed to evaluate function: error: function failure'],
  ])('a short image name %s runs that tag', async (image, line) => {
    const failing = FN_CONFIG.replace('print("done")', 'fail("no way")');
    const kptfile = KPTFILE.replace('gcr.io/kpt-fn/starlark:v0.5.0', image);
    const fs = new MemoryFs({ '/pkg/Kptfile': kptfile, '/pkg/set-ns.yaml': failing, '/pkg/cm.yaml': CM });
    const engine = createEngine({ runtimes: [...defaultRuntimes(), createStarlarkRuntime()] });
    const outcome = await engine.render({ root: '/pkg', fs, now: () => 1_700_000_000_000 });
    expect(outcome.ok).toBe(false);
    expect(outcome.results.items[0]).toMatchObject({ exitCode: 1, stderr: line });
  });
  it('a v0.4 script loads encoding/yaml.star with yaml.v2 resolution', async () => {
    const kptfile = KPTFILE.replace('gcr.io/kpt-fn/starlark:v0.5.0', 'starlark:v0.4');
    const script = `apiVersion: v1
kind: ConfigMap
metadata:
  name: gen
  annotations:
    config.kubernetes.io/local-config: "true"
data:
  source: |
    load("encoding/yaml.star", "yaml")
    ctx.resource_list["items"].append(yaml.loads("apiVersion: v1\\nkind: Namespace\\nmetadata:\\n  name: yes-ns\\n  labels: {enabled: yes}\\n"))
`;
    const fs = new MemoryFs({ '/pkg/Kptfile': kptfile, '/pkg/set-ns.yaml': script, '/pkg/cm.yaml': CM });
    const engine = createEngine({ runtimes: [...defaultRuntimes(), createStarlarkRuntime()] });
    const outcome = await engine.render({ root: '/pkg', fs, now: () => 1_700_000_000_000 });
    expect(outcome.ok).toBe(true);
    expect(new TextDecoder().decode(await fs.readFile('/pkg/namespace_yes-ns.yaml'))).toBe(
      'apiVersion: v1\nkind: Namespace\nmetadata:\n  labels:\n    enabled: true\n  name: yes-ns\n',
    );
  });
});

describe('image resolution', () => {
  it('resolves every released tag through every spelling of a registry that served it', () => {
    for (const v of STARLARK_RELEASED_VERSIONS) {
      for (const prefix of ['', 'gcr.io/kpt-fn/'])
        expect(starlarkImageVersion(`${prefix}starlark:${v}`)).toBe(v === 'v0.5.1' ? undefined : v);
      expect(starlarkImageVersion(`ghcr.io/kptdev/krm-functions-catalog/starlark:${v}`)).toBe(v);
    }
  });
  it.each([
    ['starlark:v0.4', 'v0.4.3'],
    ['starlark:v0.2', 'v0.2.2'],
    ['starlark:v0.1', 'v0.1.2'],
    ['starlark:v0', 'v0.5.0'],
    ['starlark:unstable', 'v0.5.0'],
    ['ghcr.io/kptdev/krm-functions-catalog/starlark:v0', 'v0.5.1'],
    ['ghcr.io/kptdev/krm-functions-catalog/starlark:latest', 'v0.5.1'],
    ['ghcr.io/kptdev/krm-functions-catalog/starlark', 'v0.5.1'],
    ['gcr.io/kpt-fn/starlark:v0.3.0@sha256:0123', 'v0.3.0'],
  ])('%s follows %s', (image, version) => {
    expect(starlarkImageVersion(image)).toBe(version);
  });
  it.each([
    'gcr.io/kpt-fn/starlark:v0.4.3',
    'gcr.io/kpt-fn/starlark:v0.5',
    'ghcr.io/kptdev/krm-functions-catalog/starlark',
    'ghcr.io/kptdev/krm-functions-catalog/starlark:latest',
    'gcr.io/kpt-fn/starlark:v0.4.3@sha256:0123',
    'starlark:v0.4.3',
    'starlark:v0.1.0',
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
    'gcr.io/kpt-fn/starlark:v0.5.1',
    'gcr.io/kpt-fn/starlark:latest',
    'gcr.io/kpt-fn/starlark',
    'starlark',
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
