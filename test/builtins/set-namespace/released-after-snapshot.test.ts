/**
 * set-namespace tags released after the kptdev snapshot of 2025-06-25 (builtins/docs/set-namespace.md,
 * "Tags after v0.4.1"): v0.4.2–v0.4.5 and the wasm build v0.5.1 run the origin-aware function
 * without the "does not have upstream origin" results; only the 2022 demo build v0.5.0 lists them.
 * Our own data; the expected messages follow kptdev/kpt e2e/testdata/fn-render/basicpipeline-semver
 * and basicpipeline-wasm at HEAD (recorded outputs of the real v0.4.3 and wasm v0.5.1 images).
 */
import { describe, expect, it } from 'vitest';
import { runBuiltin } from '../run-builtin.ts';

const ITEMS = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
---
apiVersion: parts.example.com/v1
kind: Gear
metadata:
  name: loose
`;
const CONFIG = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\ndata:\n  namespace: team\n';
const IMG = 'ghcr.io/kptdev/krm-functions-catalog/set-namespace';

describe('set-namespace tags after v0.4.1', () => {
  const refs = ['v0.4.2', 'v0.4.3', 'v0.4.4', 'v0.4.5', 'latest'].map((tag) => `${IMG}:${tag}`);
  for (const ref of [...refs, 'ghcr.io/kptdev/krm-functions-catalog/wasm/set-namespace:v0.5.1']) {
    it(`${ref}: origin logic, no upstream-origin results, a custom kind without namespace is skipped`, async () => {
      const r = await runBuiltin(ref, ITEMS, CONFIG);
      expect(r.exitCode).toBe(0);
      expect(r.results.map((x) => x.message)).toEqual([
        'namespace [default] updated to "team", 1 value(s) changed',
        'all `depends-on` annotations are up-to-date. no `namespace` changed',
      ]);
      expect(r.items[0].namespace).toBe('team');
      expect(r.items[1].namespace).toBe('');
    });
  }

  it('v0.5.0 (the 2022 demo build) lists every item without an upstream origin first', async () => {
    const r = await runBuiltin(`gcr.io/kpt-fn-demo/set-namespace:v0.5.0`, ITEMS, CONFIG);
    expect(r.results.map((x) => x.message)).toEqual([
      'Resource(apiVersion=apps/v1, kind=Deployment, Namespace=, Name=api) does not have upstream origin.',
      'Resource(apiVersion=parts.example.com/v1, kind=Gear, Namespace=, Name=loose) does not have upstream origin.',
      'namespace [default] updated to "team", 1 value(s) changed',
      'all `depends-on` annotations are up-to-date. no `namespace` changed',
    ]);
  });

  it('v0.4.1 keeps its own function: one summary result', async () => {
    const r = await runBuiltin(`${IMG}:v0.4.1`, ITEMS, CONFIG);
    expect(r.results.map((x) => x.message)).toEqual(['namespace "" updated to "team", 1 value(s) changed']);
  });
});
