/**
 * Nested values in the label / annotation maps of the kustomize-based tags (set-labels v0.1.3 –
 * v0.1.5, set-annotations v0.1.3 – v0.1.4), tag by tag. Expected outcomes come from each tag's
 * main.go and plugin `Config` (functions/go/set-labels, functions/go/set-annotations), kyaml
 * `FromMap`, `RNode.String` and `GetDataMap` at the kyaml version the tag pins, and
 * sigs.k8s.io/yaml v1.2.0 `Unmarshal` (builtins/docs/set-labels.md, "Nested values").
 */
import { describe, expect, it } from 'vitest';
import { runBuiltin } from '../run-builtin.ts';

const ITEMS = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n';

const jsonError = (field: string, kind = 'object'): string =>
  `error unmarshaling JSON: json: cannot unmarshal ${kind} into Go struct field plugin.${field} of type string`;

describe('set-labels v0.1.x: a nested value in a typed config fails the call', () => {
  const typed = [
    'apiVersion: fn.kpt.dev/v1alpha1',
    'kind: SetLabelConfig',
    'metadata:',
    '  name: l # the labels',
    'labels:',
    '  tier: {level: 1}',
    '  app: web',
    'fieldSpecs:',
    '- kind: Service',
    '  path: spec/selector',
    '',
  ].join('\n');

  it('v0.1.3 prints the config rebuilt from a Go map (sorted keys, no comments, indented lists)', async () => {
    const r = await runBuiltin('gcr.io/kpt-fn/set-labels:v0.1.3', ITEMS, typed);
    const text =
      'apiVersion: fn.kpt.dev/v1alpha1\nfieldSpecs:\n  - kind: Service\n    path: spec/selector\nkind: SetLabelConfig\n' +
      'labels:\n  app: web\n  tier:\n    level: 1\nmetadata:\n  name: l\n';
    const message = `failed to configure function: failed to unmarshal config ${JSON.stringify(text)}: ${jsonError('labels')}`;
    expect(r.exitCode).toBe(1);
    expect(r.results).toEqual([{ message, severity: 'error' }]);
    expect(r.log).toEqual([`[error] : ${message}`]);
    expect(r.items[0].getLabel('app')).toBeUndefined();
  });

  it('v0.1.4 prints the config node as it is (order, comments and flow style kept)', async () => {
    const r = await runBuiltin('gcr.io/kpt-fn/set-labels:v0.1.4', ITEMS, typed);
    const text =
      'apiVersion: fn.kpt.dev/v1alpha1\nkind: SetLabelConfig\nmetadata:\n  name: l # the labels\n' +
      'labels:\n  tier: {level: 1}\n  app: web\nfieldSpecs:\n  - kind: Service\n    path: spec/selector\n';
    expect(r.exitCode).toBe(1);
    expect(r.results[0].message).toBe(
      `failed to configure function: failed to unmarshal config ${JSON.stringify(text)}: ${jsonError('labels')}`,
    );
  });

  it('v0.1.5 `SetLabels` with a list value: `array`, the first bad value in key order decides', async () => {
    const config =
      'apiVersion: fn.kpt.dev/v1alpha1\nkind: SetLabels\nmetadata:\n  name: l\nlabels:\n  zone: {a: b}\n  app: [web]\n';
    const r = await runBuiltin('gcr.io/kpt-fn/set-labels:v0.1.5', ITEMS, config);
    expect(r.exitCode).toBe(1);
    expect(r.results[0].message).toBe(
      `failed to configure function: failed to unmarshal config ${JSON.stringify(config)}: ${jsonError('labels', 'array')}`,
    );
  });

  it('a ConfigMap `data` entry with a nested value becomes an empty label (kyaml GetDataMap)', async () => {
    for (const tag of ['v0.1.3', 'v0.1.4', 'v0.1.5']) {
      const cm = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: l\ndata:\n  tier: {level: 1}\n  app: web\n';
      const r = await runBuiltin(`ghcr.io/kptdev/krm-functions-catalog/set-labels:${tag}`, ITEMS, cm);
      expect(r.exitCode, tag).toBe(0);
      expect(r.items[0].labels(), tag).toEqual({ app: 'web', tier: '' });
    }
  });
});

describe('set-annotations v0.1.x: nested values', () => {
  it('v0.1.3 (Go map) and v0.1.4 (node) fail on a nested annotation value', async () => {
    const v013 =
      'apiVersion: fn.kpt.dev/v1alpha1\nkind: SetAnnotationConfig\nmetadata:\n  name: a\nannotations:\n  owner:\n    team: core\n';
    const r13 = await runBuiltin('gcr.io/kpt-fn/set-annotations:v0.1.3', ITEMS, v013);
    const text13 =
      'annotations:\n  owner:\n    team: core\napiVersion: fn.kpt.dev/v1alpha1\nkind: SetAnnotationConfig\nmetadata:\n  name: a\n';
    expect(r13.exitCode).toBe(1);
    expect(r13.results[0].message).toBe(
      `failed to configure function: failed to unmarshal config ${JSON.stringify(text13)}: ${jsonError('annotations')}`,
    );
    const v014 = v013.replace('SetAnnotationConfig', 'SetAnnotations');
    const r14 = await runBuiltin('gcr.io/kpt-fn/set-annotations:v0.1.4', ITEMS, v014);
    expect(r14.exitCode).toBe(1);
    expect(r14.results[0].message).toBe(
      `failed to configure function: failed to unmarshal config ${JSON.stringify(v014)}: ${jsonError('annotations')}`,
    );
  });

  it('a ConfigMap with a nested or null value sets an empty annotation', async () => {
    const cm =
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  owner: [core]\n  note: ~\n  team: core\n';
    const r = await runBuiltin('gcr.io/kpt-fn/set-annotations:v0.1.4', ITEMS, cm);
    expect(r.exitCode).toBe(0);
    expect(r.items[0].annotations()).toEqual({ owner: '', note: '', team: 'core' });
  });

  it('v0.1.3 reads scalar values through its Go map (`yes` stays), v0.1.4 as YAML 1.1 (`yes` → "true")', async () => {
    const config = (kind: string): string =>
      `apiVersion: fn.kpt.dev/v1alpha1\nkind: ${kind}\nmetadata:\n  name: a\nannotations:\n  reviewed: yes\n`;
    const v013 = await runBuiltin('gcr.io/kpt-fn/set-annotations:v0.1.3', ITEMS, config('SetAnnotationConfig'));
    expect(v013.items[0].getAnnotation('reviewed')).toBe('yes');
    const v014 = await runBuiltin('gcr.io/kpt-fn/set-annotations:v0.1.4', ITEMS, config('SetAnnotations'));
    expect(v014.items[0].getAnnotation('reviewed')).toBe('true');
  });
});
