/**
 * Differential cases for the kustomize-based set-labels tags: one row per behaviour that changes
 * between v0.1.3, v0.1.4 and v0.1.5, with the outcome each tag's code gives (catalog
 * functions/go/set-labels main.go and label_transformer.go at set-labels/v0.1.3 – v0.1.5;
 * kustomize api/filters/labels, api/filters/fieldspec and api/k8sdeps/kunstruct at api/v0.7.1 and
 * api/v0.8.11).
 */
import { describe, expect, it } from 'vitest';
import { runBuiltin } from '../run-builtin.ts';

const IMG = 'ghcr.io/kptdev/krm-functions-catalog/set-labels';
const CONFIG_MAP = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: labels\ndata:\n  team: core\n';

const ITEMS = `apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  ports:
  - port: 80
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: local-settings
  annotations:
    config.kubernetes.io/local-config: "false"
`;

describe('set-labels kustomize tags: differential cases', () => {
  it('v0.1.3 and v0.1.4 drop every item with the local-config annotation (any value); v0.1.5 labels it', async () => {
    for (const tag of ['v0.1.3', 'v0.1.4']) {
      const r = await runBuiltin(`${IMG}:${tag}`, ITEMS, CONFIG_MAP);
      expect(r.exitCode, tag).toBe(0);
      expect(
        r.items.map((o) => o.name),
        tag,
      ).toEqual(['web']);
    }
    const v015 = await runBuiltin(`${IMG}:v0.1.5`, ITEMS, CONFIG_MAP);
    expect(v015.items.map((o) => [o.name, o.getLabel('team')])).toEqual([
      ['web', 'core'],
      ['local-settings', 'core'],
    ]);
  });

  it('`SetLabels` is a config from v0.1.5; configs must match apiVersion and kind', async () => {
    const setLabels = 'apiVersion: fn.kpt.dev/v1alpha1\nkind: SetLabels\nmetadata:\n  name: l\nlabels:\n  team: core\n';
    const v014 = await runBuiltin(`${IMG}:v0.1.4`, ITEMS, setLabels);
    expect(v014.results.map((x) => x.message)).toEqual([
      'failed to configure function: function config must be a ConfigMap or SetLabelConfig',
    ]);
    const v015 = await runBuiltin(`${IMG}:v0.1.5`, ITEMS, setLabels);
    expect(v015.exitCode).toBe(0);
    const otherVersion = setLabels.replace('fn.kpt.dev/v1alpha1', 'fn.kpt.dev/v1');
    const refused = await runBuiltin(`${IMG}:v0.1.5`, ITEMS, otherVersion);
    expect(refused.results.map((x) => x.message)).toEqual([
      'failed to configure function: `functionConfig` must be either a `ConfigMap` or `SetLabels`',
    ]);
  });

  it('user FieldSpecs use kustomize paths: `[]` never creates, `\\/` escapes, a scalar on the path fails', async () => {
    const cfg = (path: string, create = true): string =>
      `apiVersion: fn.kpt.dev/v1alpha1\nkind: SetLabelConfig\nmetadata:\n  name: l\nlabels:\n  team: core\nfieldSpecs:\n- kind: Service\n  path: ${path}\n  create: ${create}\n`;
    const noList = await runBuiltin(`${IMG}:v0.1.4`, ITEMS, cfg('spec/extra[]/labels'));
    expect(noList.items[0].has('spec.extra')).toBe(false);
    const escaped = await runBuiltin(`${IMG}:v0.1.4`, ITEMS, cfg('spec/a\\/b/labels'));
    expect(escaped.items[0].get(['spec', 'a/b', 'labels'])).toEqual({ team: 'core' });
    const scalar = await runBuiltin(`${IMG}:v0.1.4`, ITEMS, cfg('spec/ports/port/labels'));
    expect(scalar.exitCode).toBe(1);
    expect(scalar.results[0]?.message).toContain('expected sequence or mapping node');
  });

  it('v0.1.3 reads a typed config through a Go map: `yes` and `on` stay strings; v0.1.4 makes them booleans', async () => {
    const typed =
      'apiVersion: fn.kpt.dev/v1alpha1\nkind: SetLabelConfig\nmetadata:\n  name: l\nlabels:\n  a: yes\n  b: on\n  c: 2001-12-14\n';
    const v013 = await runBuiltin(`${IMG}:v0.1.3`, ITEMS, typed);
    expect([v013.items[0].getLabel('a'), v013.items[0].getLabel('b'), v013.items[0].getLabel('c')]).toEqual([
      'yes',
      'on',
      '2001-12-14T00:00:00Z',
    ]);
    const v014 = await runBuiltin(`${IMG}:v0.1.4`, ITEMS, typed);
    expect([v014.items[0].getLabel('a'), v014.items[0].getLabel('b'), v014.items[0].getLabel('c')]).toEqual([
      'true',
      'true',
      '2001-12-14',
    ]);
  });
});
