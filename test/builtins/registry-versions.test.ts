/**
 * Every tag resolves as its registry serves it (builtins/docs/README.md, "Registries: what each
 * one serves"): a table of image references, each with the built-in version it runs or the exact
 * error krmfn gives, and the same table through a real render under both kpt levels' short-name
 * prefixes. Our own cases; the registries' contents are src/core/registry-tags.ts.
 */
import { describe, expect, it } from 'vitest';
import { BUILTINS } from '../../builtins/index.ts';
import { createEngine, MemoryFs } from 'krmfn';
import { registryTags } from '../../src/core/registry-tags.ts';
import { explainNotBuiltin, findBuiltin } from '../../sdk/registry.ts';

const GCR = 'gcr.io/kpt-fn/';
const GHCR = 'ghcr.io/kptdev/krm-functions-catalog/';
const DIGEST = `sha256:${'5e'.repeat(32)}`;
const NS_GCR = 'v0.1.0, v0.1.1, v0.1.2, v0.1.3, v0.1.4, v0.2.0, v0.3.0, v0.3.1, v0.3.2, v0.3.3, v0.3.4, v0.4.0, v0.4.1';

/** Reference → the version it runs. */
const RESOLVES: [string, string][] = [
  // gcr.io/kpt-fn: Google's releases and their floating tags, never a successor release.
  [`${GCR}set-namespace:v0.4`, 'v0.4.1'],
  [`${GCR}set-namespace:v0`, 'v0.4.1'],
  [`${GCR}set-namespace:unstable`, 'v0.4.1'],
  [`${GCR}set-labels:v0.2`, 'v0.2.0'],
  [`${GCR}set-labels:v0`, 'v0.2.0'],
  [`${GCR}apply-setters:v0.2`, 'v0.2.0'],
  [`${GCR}apply-replacements:v0.1`, 'v0.1.1'],
  [`${GCR}set-name-prefix:v0.0`, 'v0.0.3'],
  [`${GCR}set-label:v0.1`, 'v0.1.3'],
  ['set-namespace:v0.4', 'v0.4.1'],
  [`${GCR}set-namespace:v0.4.1@${DIGEST}`, 'v0.4.1'],
  // ghcr.io: everything gcr.io served, the successor's releases, and `latest`.
  [`${GHCR}set-namespace:v0.4`, 'v0.4.5'],
  [`${GHCR}set-namespace:v0.4.1`, 'v0.4.1'],
  [`${GHCR}set-namespace:latest`, 'v0.4.5'],
  [`${GHCR}set-namespace`, 'v0.4.5'],
  [`${GHCR}set-labels:v0.2`, 'v0.2.5'],
  [`${GHCR}set-labels:v0.2.2`, 'v0.2.2'],
  [`${GHCR}set-labels:v0.1.5`, 'v0.1.5'],
  [`${GHCR}apply-setters:v0.2.1`, 'v0.2.1'],
  [`${GHCR}apply-replacements:latest`, 'v0.1.2'],
  [`${GHCR}kubeconform:v0.1`, 'v0.1.0'],
  [`${GHCR}set-image:v0.1`, 'v0.1.1'],
  [`${GHCR}set-labels:v0.2.1@${DIGEST}`, 'v0.2.1'],
  // Hand-pushed WASM builds: their exact tags.
  [`${GHCR}wasm/set-namespace:v0.5.1`, 'v0.5.1'],
  [`${GHCR}wasm/set-labels:v0.2.4`, 'v0.2.4'],
  ['gcr.io/kpt-fn-demo/set-namespace:v0.5.0', 'v0.5.0'],
];

/** Reference → the exact unknown-version message. */
const FAILS: [string, string][] = [
  [
    `${GCR}set-namespace:v0.4.5`,
    `set-namespace has no version "v0.4.5"; krmfn has ${NS_GCR} for gcr.io/kpt-fn (also vX.Y, vX, unstable); v0.4.5 was published on ghcr.io/kptdev/krm-functions-catalog, not on gcr.io/kpt-fn; nearest: set-namespace:v0.4.1`,
  ],
  [
    `${GCR}set-labels:v0.2.1`,
    'set-labels has no version "v0.2.1"; krmfn has v0.1.3, v0.1.4, v0.1.5, v0.2.0 for gcr.io/kpt-fn (also vX.Y, vX, unstable); v0.2.1 was published on ghcr.io/kptdev/krm-functions-catalog, not on gcr.io/kpt-fn; nearest: set-labels:v0.2.0',
  ],
  [
    'apply-setters:v0.2.1',
    'apply-setters has no version "v0.2.1"; krmfn has v0.1.0, v0.1.1, v0.2.0 for gcr.io/kpt-fn (also vX.Y, vX, unstable); v0.2.1 was published on ghcr.io/kptdev/krm-functions-catalog, not on gcr.io/kpt-fn; nearest: apply-setters:v0.2.0',
  ],
  [
    `${GCR}set-namespace`,
    `set-namespace has no version "latest"; krmfn has ${NS_GCR} for gcr.io/kpt-fn (also vX.Y, vX, unstable); gcr.io/kpt-fn publishes no "latest" tag (an image without tag pulls "latest"); nearest: set-namespace:v0.4.1`,
  ],
  [
    `${GCR}set-annotations:latest`,
    'set-annotations has no version "latest"; krmfn has v0.1.3, v0.1.4 for gcr.io/kpt-fn (also vX.Y, vX, unstable); gcr.io/kpt-fn publishes no "latest" tag (an image without tag pulls "latest"); nearest: set-annotations:v0.1.4',
  ],
  [
    `${GHCR}set-image:v0.1.2`,
    'set-image has no version "v0.1.2"; krmfn has v0.1.0, v0.1.1 for ghcr.io/kptdev/krm-functions-catalog (also vX.Y, vX, latest, unstable); ghcr.io/kptdev/krm-functions-catalog serves v0.1.2, a release krmfn does not implement; nearest: set-image:v0.1.1',
  ],
  [
    `${GHCR}set-namespace:v0.5.1`,
    `set-namespace has no version "v0.5.1"; krmfn has ${NS_GCR}, v0.4.2, v0.4.3, v0.4.4, v0.4.5 for ghcr.io/kptdev/krm-functions-catalog (also vX.Y, vX, latest, unstable); v0.5.1 was never published on ghcr.io/kptdev/krm-functions-catalog; nearest: set-namespace:v0.4.5`,
  ],
  [
    `${GCR}kubeconform:v0.1`,
    'kubeconform has no version "v0.1"; krmfn has no version for gcr.io/kpt-fn (also vX.Y, vX, unstable); nearest: ghcr.io/kptdev/krm-functions-catalog/kubeconform:v0.1.0',
  ],
  [
    `${GCR}set-annotation:v0.1.3`,
    'set-annotation has no version "v0.1.3"; krmfn has v0.1.0, v0.1.1, v0.1.2 for gcr.io/kpt-fn (also vX.Y, vX, unstable); v0.1.3 was never published on gcr.io/kpt-fn; nearest: set-annotation:v0.1.2',
  ],
  [
    `${GHCR}wasm/set-namespace:v0.5`,
    'set-namespace has no version "v0.5"; krmfn has v0.5.1 for ghcr.io/kptdev/krm-functions-catalog/wasm; ghcr.io/kptdev/krm-functions-catalog/wasm publishes no "v0.5" tag; nearest: set-namespace:v0.5.1',
  ],
  [
    'gcr.io/kpt-fn-contrib/set-labels:v0.2.0',
    'set-labels has no version "v0.2.0"; krmfn has no version for gcr.io/kpt-fn-contrib; v0.2.0 was published on gcr.io/kpt-fn and ghcr.io/kptdev/krm-functions-catalog, not on gcr.io/kpt-fn-contrib; nearest: ghcr.io/kptdev/krm-functions-catalog/set-labels:v0.2.0',
  ],
  [
    `${GCR}set-namespace:v0.6.0`,
    `set-namespace has no version "v0.6.0"; krmfn has ${NS_GCR} for gcr.io/kpt-fn (also vX.Y, vX, unstable); nearest: set-namespace:v0.4.1`,
  ],
];

describe('each registry resolves only the tags it serves', () => {
  it.each(RESOLVES)('%s runs %s', (image, version) => {
    expect(findBuiltin(BUILTINS, image)?.image.version).toBe(version);
    expect(explainNotBuiltin(BUILTINS, image)).toBeUndefined();
  });

  it.each(FAILS)('%s fails', (image, message) => {
    expect(findBuiltin(BUILTINS, image)).toBeUndefined();
    expect(explainNotBuiltin(BUILTINS, image)).toBe(message);
  });

  it('every version a registry serves of a built-in resolves there, exactly', () => {
    let checked = 0;
    for (const d of BUILTINS)
      for (const registry of [GCR, GHCR])
        for (const v of registryTags(registry, d.name).versions.filter((x) => d.versions.includes(x))) {
          expect(findBuiltin(BUILTINS, `${registry}${d.name}:${v}`)?.image.version, `${registry}${d.name}:${v}`).toBe(
            v,
          );
          checked++;
        }
    expect(checked).toBeGreaterThan(100);
  });

  it('no floating tag on gcr.io/kpt-fn picks a release gcr.io/kpt-fn never served', () => {
    for (const d of BUILTINS) {
      const served = registryTags(GCR, d.name).versions;
      for (const v of d.versions) {
        const line = v.split('.').slice(0, 2).join('.');
        const got = findBuiltin(BUILTINS, `${GCR}${d.name}:${line}`)?.image.version;
        if (got !== undefined) expect(served, `${d.name}:${line} → ${got}`).toContain(got);
      }
    }
  });
});

describe('short names follow the kpt level’s default registry in a render', () => {
  const render = async (level: '56' | '67', image: string, tag?: string) => {
    const tagLine = tag === undefined ? '' : `\n      tag: "${tag}"`;
    const fs = new MemoryFs({
      '/p/Kptfile': `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: p\npipeline:\n  mutators:\n    - image: ${image}${tagLine}\n      configMap:\n        namespace: team\n`,
      '/p/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n',
    });
    return createEngine({ kptVersion: `1.0.0-beta.${level}` }).render({ fs, root: '/p' });
  };

  it('beta.56: set-namespace:v0.4 is gcr.io/kpt-fn’s v0.4.1 (one summary result)', async () => {
    const out = await render('56', 'set-namespace:v0.4');
    expect(out.ok).toBe(true);
    expect(out.results.items.map((r) => r.image)).toEqual(['gcr.io/kpt-fn/set-namespace:v0.4']);
    expect(out.results.items[0].results?.map((r) => r.message)).toEqual([
      'namespace "" updated to "team", 1 value(s) changed',
    ]);
  });

  it('beta.67: set-namespace:v0.4 is ghcr.io’s v0.4.5 (summary and depends-on results)', async () => {
    const out = await render('67', 'set-namespace:v0.4');
    expect(out.ok).toBe(true);
    expect(out.results.items.map((r) => r.image)).toEqual([`${GHCR}set-namespace:v0.4`]);
    expect(out.results.items[0].results?.map((r) => r.message)).toEqual([
      'namespace [default] updated to "team", 1 value(s) changed',
      'all `depends-on` annotations are up-to-date. no `namespace` changed',
    ]);
  });

  it('beta.56: an untagged short name pulls gcr.io/kpt-fn’s missing latest and fails', async () => {
    const out = await render('56', 'set-namespace');
    expect(out.ok).toBe(false);
  });

  it('beta.67: an untagged short name is ghcr.io’s latest', async () => {
    const out = await render('67', 'set-namespace');
    expect(out.ok).toBe(true);
    expect(out.results.items.map((r) => r.image)).toEqual([`${GHCR}set-namespace:latest`]);
  });

  it('beta.67 `tag:` constraints choose among the registry’s tags, as kpt lists them', async () => {
    const ns = await render('67', 'set-namespace', '>=0.4.1, <0.4.3');
    expect(ns.results.items.map((r) => r.image)).toEqual([`${GHCR}set-namespace:v0.4.2`]);
    const image = await render('67', 'set-image', '~0.1');
    expect(image.ok).toBe(false);
    expect(image.failure?.error).toMatchObject({
      code: 'function-not-found',
      function: `${GHCR}set-image:v0.1.2`,
      hint: expect.stringContaining('serves v0.1.2, a release krmfn does not implement'),
    });
  });
});
