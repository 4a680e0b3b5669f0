import { describe, expect, it } from 'vitest';
import { runBuiltin } from '../run-builtin.ts';

const IMG = 'gcr.io/kpt-fn/set-annotations';
const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  team: db\n  color: "true"\n';
const ITEMS = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  annotations:
    color: red # existing keys are updated in place
    zz: keep
spec:
  template:
    spec:
      containers: [{name: app, image: 'nginx'}]
---
apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: pkg
  annotations:
    config.kubernetes.io/local-config: "true"
`;

describe('set-annotations', () => {
  it('v0.1.4 edits nodes: metadata and pod template, sorted new keys, styles kept', async () => {
    const r = await runBuiltin(`${IMG}:v0.1.4`, ITEMS, CM);
    expect(r.exitCode).toBe(0);
    expect(r.results).toEqual([]);
    expect(r.output).toBe(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  annotations:
    color: "true" # existing keys are updated in place
    zz: keep
    team: db
spec:
  template:
    spec:
      containers: [{name: app, image: 'nginx'}]
    metadata:
      annotations:
        color: "true"
        team: db
---
apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: pkg
  annotations:
    config.kubernetes.io/local-config: "true"
    color: "true"
    team: db
`);
  });

  it('v0.1.3 re-encodes the items (style B): flow becomes block, needless quotes go', async () => {
    const r = await runBuiltin(`${IMG}:v0.1.3`, ITEMS, CM);
    expect(r.output).toContain('      containers:\n      - name: app\n        image: nginx\n');
  });

  it('custom kinds per version, with extra field specs', async () => {
    const cfg = `apiVersion: fn.kpt.dev/v1alpha1
kind: SetAnnotations
metadata:
  name: s
annotations:
  a: b
additionalAnnotationFields:
  - kind: MyThing
    path: spec/extra/annotations
    create: true
`;
    const r = await runBuiltin(`${IMG}:v0.1.4`, 'apiVersion: x/v1\nkind: MyThing\nmetadata:\n  name: m\n', cfg);
    expect(r.output).toBe(
      'apiVersion: x/v1\nkind: MyThing\nmetadata:\n  name: m\n  annotations:\n    a: b\nspec:\n  extra:\n    annotations:\n      a: b\n',
    );
    const old = await runBuiltin(`${IMG}:v0.1.3`, 'apiVersion: x/v1\nkind: MyThing\nmetadata:\n  name: m\n', cfg);
    expect(old.exitCode).toBe(1);
    expect(old.results).toEqual([
      {
        message: 'failed to configure function: function config must be a ConfigMap or SetAnnotationConfig',
        severity: 'error',
      },
    ]);
  });

  it('config errors', async () => {
    const empty = await runBuiltin(`${IMG}:v0.1.4`, ITEMS, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n');
    expect(empty.results[0].message).toBe('failed to configure function: input annotation list cannot be empty');
    const none = await runBuiltin(`${IMG}:v0.1.4`, ITEMS);
    expect(none.results[0].message).toBe(
      'failed to configure function: `functionConfig` must be a `ConfigMap` or `SetAnnotations`',
    );
    const both = await runBuiltin(
      `${IMG}:v0.1.4`,
      ITEMS,
      'apiVersion: fn.kpt.dev/v1alpha1\nkind: SetAnnotations\nmetadata:\n  name: s\nannotations:\n  a: b\nfieldSpecs: []\nadditionalAnnotationFields: []\n',
    );
    expect(both.results[0].message).toBe(
      'failed to configure function: `fieldSpecs` has been deprecated, please rename it to `additionalAnnotationFields`',
    );
  });

  it('the old image name answers as v0.1.3', async () => {
    const r = await runBuiltin('gcr.io/kpt-fn/set-annotation:v0.1', ITEMS, CM);
    expect(r.output).toContain('        image: nginx\n');
  });

  it('the unstable (master) build reports per-field results, sorted by file', async () => {
    const items = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  annotations:
    config.kubernetes.io/path: b.yaml
spec:
  template: {}
---
apiVersion: v1
kind: Service
metadata:
  name: svc
  annotations:
    config.kubernetes.io/path: a.yaml
`;
    const r = await runBuiltin(`${IMG}:unstable`, items, CM);
    const msg = 'set annotations: {"color":"true","team":"db"}';
    expect(r.results).toEqual([
      { message: msg, field: { path: 'metadata.annotations' }, file: { path: 'a.yaml' } },
      { message: msg, field: { path: 'metadata.annotations' }, file: { path: 'b.yaml' } },
      { message: msg, field: { path: 'spec.template.metadata.annotations' }, file: { path: 'b.yaml' } },
    ]);
  });
});
