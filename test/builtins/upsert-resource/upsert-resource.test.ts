import { describe, expect, it } from 'vitest';
import { runBuiltin } from '../run-builtin.ts';

const IMG = 'gcr.io/kpt-fn/upsert-resource:v0.2.0';
const ITEMS = `apiVersion: v1
kind: Service
metadata:
  name: svc
  annotations:
    config.kubernetes.io/path: svc.yaml
    config.kubernetes.io/index: '0'
spec:
  ports: [{port: 80}]
---
apiVersion: v1
kind: Service
metadata:
  name: svc
  namespace: other
`;

describe('upsert-resource', () => {
  it('replaces the match (literal namespace, any version) keeping its file annotations', async () => {
    const r = await runBuiltin(
      IMG,
      ITEMS,
      'apiVersion: v1\nkind: Service\nmetadata:\n  name: svc\n  annotations:\n    note: new\nspec:\n  ports:\n  - port: 8080\n',
    );
    expect(r.exitCode).toBe(0);
    expect(r.items).toHaveLength(2);
    const first = r.items[0];
    expect(first.get('spec.ports')).toEqual([{ port: 8080 }]);
    expect(first.annotations()).toEqual({
      note: 'new',
      'config.kubernetes.io/path': 'svc.yaml',
      'config.kubernetes.io/index': '0',
    });
    expect(r.items[1].get('spec')).toBeUndefined();
  });
  it('appends a new resource, at its target-path when given; Lists upsert each item', async () => {
    const r = await runBuiltin(
      IMG,
      ITEMS,
      `apiVersion: v1
kind: List
metadata:
  name: l
items:
- apiVersion: v1
  kind: ConfigMap
  metadata:
    name: new
    annotations:
      config.kubernetes.io/target-path: gen/cm.yaml
      config.kubernetes.io/function: 'container: {image: x}'
- apiVersion: v1
  kind: Service
  metadata:
    name: svc
    namespace: other
  spec:
    type: ClusterIP
`,
    );
    expect(r.items.map((o) => `${o.kind}/${o.namespace}/${o.name}`)).toEqual([
      'Service//svc',
      'Service/other/svc',
      'ConfigMap//new',
    ]);
    expect(r.items[2].annotations()).toEqual({ 'config.kubernetes.io/path': 'gen/cm.yaml' });
    expect(r.items[1].get('spec.type')).toBe('ClusterIP');
  });
});

describe('upsert-resource placeholder', () => {
  it("ignores kpt eval's empty function-input ConfigMap", async () => {
    const r = await runBuiltin(
      IMG,
      ITEMS,
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: function-input\ndata: {}\n',
    );
    expect(r.items).toHaveLength(2);
    expect(r.exitCode).toBe(0);
  });
});
