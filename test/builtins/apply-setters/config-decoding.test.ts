/**
 * How apply-setters and search-replace read their ConfigMap `data`, tag by tag: every tag calls
 * kyaml `RNode.GetDataMap` (a nested or null value is the empty string); v0.1.0 of both first
 * decodes the config into a Go map and rebuilds it (`kyaml.FromMap`), so plain scalars arrive as
 * go-yaml v3 re-encodes them (functions/go/apply-setters main.go and applysetters/apply_setters.go
 * `Decode`, functions/go/search-replace main.go and searchreplace/search_replace.go `Decode`, at
 * each tag; builtins/lib/config.ts `kyamlDataMap`).
 */
import { describe, expect, it } from 'vitest';
import { runBuiltin } from '../run-builtin.ts';

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web # kpt-set: \${name}
spec:
  replicas: 1 # kpt-set: \${replicas}
`;
const cm = (data: string): string => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: s\ndata:\n${data}`;

describe('apply-setters: setter values per tag', () => {
  it('v0.1.0 re-encodes plain numbers (0x10 → 16, 1.50 → 1.5); later tags take the text as written', async () => {
    const config = cm('  replicas: 0x10\n  name: 1.50\n');
    const v010 = await runBuiltin('gcr.io/kpt-fn/apply-setters:v0.1.0', DEPLOYMENT, config);
    expect([v010.exitCode, v010.items[0].get('spec.replicas'), v010.items[0].name]).toEqual([0, 16, '1.5']);
    for (const tag of ['v0.1.1', 'v0.2.0', 'v0.2.1']) {
      const r = await runBuiltin(`ghcr.io/kptdev/krm-functions-catalog/apply-setters:${tag}`, DEPLOYMENT, config);
      expect(
        r.results.map((x) => x.message),
        tag,
      ).toEqual(['set field value to "1.50"', 'set field value to "0x10"']);
    }
  });

  it('a nested or null setter value is the empty string at every tag', async () => {
    for (const tag of ['v0.1.0', 'v0.1.1', 'v0.2.1']) {
      const r = await runBuiltin(
        `ghcr.io/kptdev/krm-functions-catalog/apply-setters:${tag}`,
        DEPLOYMENT,
        cm('  name: {a: b}\n  replicas: ~\n'),
      );
      expect(r.exitCode, tag).toBe(0);
      expect(r.items[0].name, tag).toBe('');
      expect(r.items[0].get('spec.replicas'), tag).toBe('');
    }
  });
});

describe('search-replace: matcher values per tag', () => {
  const items = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  size: "16"\n  raw: 0x10\n';

  it('v0.1.0 matches `by-value: 0x10` as 16; v0.1.1 and v0.2.0 as the text 0x10', async () => {
    const config = cm('  by-value: 0x10\n  put-value: changed\n');
    const v010 = await runBuiltin('gcr.io/kpt-fn/search-replace:v0.1.0', items, config);
    expect([v010.items[0].get('data.size'), v010.items[0].get('data.raw')]).toEqual(['changed', 16]);
    for (const tag of ['v0.1.1', 'v0.2.0']) {
      const r = await runBuiltin(`gcr.io/kpt-fn/search-replace:${tag}`, items, config);
      expect([r.items[0].get('data.size'), r.items[0].get('data.raw')], tag).toEqual(['16', 'changed']);
    }
  });

  it('an unknown matcher with a nested value is still refused (GetDataMap keeps the key)', async () => {
    const r = await runBuiltin('gcr.io/kpt-fn/search-replace:v0.2.0', items, cm('  by-value: x\n  bogus: [1]\n'));
    expect(r.exitCode).toBe(1);
    expect(r.results[0].message).toMatch(/^invalid matcher "bogus", must be one of /);
  });
});
