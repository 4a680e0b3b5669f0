import { describe, expect, it } from 'vitest';
import { runBuiltin } from '../run-builtin.ts';

const IMG = 'gcr.io/kpt-fn/set-project-id:v0.2.0';
const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  project-id: my-proj\n';
const kptfile = (pipeline: string, path = 'Kptfile'): string =>
  `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: p\n  annotations:\n    config.kubernetes.io/path: ${path}\n${pipeline}`;

describe('set-project-id', () => {
  it('fills an inline apply-setters configMap and annotates KCC resources lacking the annotation', async () => {
    const r = await runBuiltin(
      IMG,
      `${kptfile('pipeline:\n  mutators:\n  - image: gcr.io/kpt-fn/apply-setters:v0.2\n    configMap:\n      other: x\n')}---
apiVersion: storage.cnrm.cloud.google.com/v1beta1
kind: StorageBucket
metadata:
  name: b
---
apiVersion: storage.cnrm.cloud.google.com/v1beta1
kind: StorageBucket
metadata:
  name: empty
  annotations:
    cnrm.cloud.google.com/project-id: ""
---
apiVersion: core.cnrm.cloud.google.com/v1alpha1
kind: ConfigConnector
metadata:
  name: c
`,
      CM,
    );
    expect(r.exitCode).toBe(0);
    expect(r.items[0].get('pipeline.mutators[0].configMap')).toEqual({ other: 'x', 'project-id': 'my-proj' });
    expect(r.items[1].getAnnotation('cnrm.cloud.google.com/project-id')).toBe('my-proj');
    expect(r.items[2].getAnnotation('cnrm.cloud.google.com/project-id')).toBe('');
    expect(r.items[3].getAnnotation('cnrm.cloud.google.com/project-id')).toBeUndefined();
  });
  it('fills the configPath file of a subpackage, or appends an apply-setters mutator', async () => {
    const r = await runBuiltin(
      IMG,
      `${kptfile('pipeline:\n  mutators:\n  - image: apply-setters:v0.2\n    configPath: setters.yaml\n', 'sub/Kptfile')}---
apiVersion: v1
kind: ConfigMap
metadata:
  name: setters
  annotations:
    config.kubernetes.io/path: sub/setters.yaml
data:
  project-id: ""
---
${kptfile('info:\n  description: root\n')}`,
      CM,
    );
    expect(r.items[1].get('data')).toEqual({ 'project-id': 'my-proj' });
    expect(r.items[2].get('pipeline')).toEqual({
      mutators: [{ image: 'gcr.io/kpt-fn/apply-setters:v0.2', configMap: { 'project-id': 'my-proj' } }],
    });
  });
  it('errors', async () => {
    const none = await runBuiltin(IMG, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n', CM);
    expect(none.results[0].message).toBe(
      'unable to find Kptfile, please include --include-meta-resources flag if a Kptfile is present',
    );
    const missing = await runBuiltin(
      IMG,
      kptfile('pipeline:\n  mutators:\n  - image: apply-setters:v0.2\n    configPath: nope.yaml\n'),
      CM,
    );
    expect(missing.results[0].message).toBe(
      'file nope.yaml doesn\'t exist, please ensure the file specified in "configPath" exists and retry',
    );
    const neither = await runBuiltin(IMG, kptfile('pipeline:\n  mutators:\n  - image: apply-setters:v0.2\n'), CM);
    expect(neither.results[0].message).toBe(
      'unable to find `ConfigMap` or `configPath` as the `functionConfig` for apply-setters',
    );
  });
});
