/**
 * The catalog built-ins are registered and reachable by the image names users write, with the
 * version their tag selects, and every descriptor documents itself (docs page present).
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BUILTINS } from '../../builtins/index.ts';
import { findBuiltin } from '../../sdk/index.ts';

const CASES: [string, string, string][] = [
  ['gcr.io/kpt-fn/apply-setters:v0.1', 'apply-setters', 'v0.1.1'],
  ['ghcr.io/kptdev/krm-functions-catalog/apply-setters:latest', 'apply-setters', 'v0.2.1'],
  ['search-replace:v0.1', 'search-replace', 'v0.1.1'],
  ['gcr.io/kpt-fn/set-annotation:v0.1.2', 'set-annotations', 'v0.1.3'],
  ['ghcr.io/kptdev/krm-functions-catalog/set-annotations', 'set-annotations', 'v0.1.4'],
  ['gcr.io/kpt-fn/apply-replacements:v0.1', 'apply-replacements', 'v0.1.1'],
  ['ghcr.io/kptdev/krm-functions-catalog/apply-replacements:v0.1', 'apply-replacements', 'v0.1.2'],
  ['gcr.io/kpt-fn/ensure-name-substring:v0.1', 'ensure-name-substring', 'v0.1.1'],
  ['gcr.io/kpt-fn/set-image:v0.1', 'set-image', 'v0.1.1'],
  ['gcr.io/kpt-fn/kubeval:v0.1', 'kubeval', 'v0.1.2'],
  ['ghcr.io/kptdev/krm-functions-catalog/kubeconform:v0.1', 'kubeconform', 'v0.1.0'],
  ['gcr.io/kpt-fn/upsert-resource:v0.2.0', 'upsert-resource', 'v0.2.0'],
  ['gcr.io/kpt-fn/fix:v0.2', 'fix', 'v0.2.1'],
];

describe('catalog registry', () => {
  it.each(CASES)('%s → %s %s', (image, name, version) => {
    const m = findBuiltin(BUILTINS, image);
    expect(m?.descriptor.name).toBe(name);
    expect(m?.image.version).toBe(version);
  });
  it('unknown versions are not built-ins', () => {
    expect(findBuiltin(BUILTINS, 'gcr.io/kpt-fn/apply-setters:v0.3.0')).toBeUndefined();
    expect(findBuiltin(BUILTINS, 'gcr.io/kpt-fn/search-replace:v9')).toBeUndefined();
  });
  it('every built-in has a docs page, a summary and a kind', () => {
    for (const d of BUILTINS) {
      expect(existsSync(d.docs!), d.name).toBe(true);
      expect(d.summary.length).toBeGreaterThan(10);
      expect(['mutator', 'validator', 'generator']).toContain(d.fn.kind);
    }
    expect(BUILTINS.map((d) => d.name)).toEqual([...BUILTINS.map((d) => d.name)].sort());
  });
});
