import { describe, expect, it } from 'vitest';
import { runBuiltin } from '../run-builtin.ts';

const IMG = 'gcr.io/kpt-fn/ensure-name-substring';
const PREPEND = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  prepend: prod-\n';

const ITEMS = `apiVersion: v1
kind: ConfigMap
metadata:
  name: the-map
  annotations:
    config.kubernetes.io/path: cm.yaml
    config.kubernetes.io/index: '0'
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  annotations:
    config.kubernetes.io/depends-on: /namespaces/default/ConfigMap/the-map,apps/namespaces/default/Deployment/missing
spec:
  template:
    spec:
      serviceAccountName: runner
      containers:
      - name: app
        env:
        - name: X
          valueFrom:
            configMapKeyRef:
              name: the-map # a reference
              key: x
      volumes:
      - name: v
        configMap:
          name: unrelated
---
apiVersion: v1
kind: ServiceAccount
metadata:
  name: runner
---
apiVersion: v1
kind: Namespace
metadata:
  name: ns
---
apiVersion: v1
kind: Service
metadata:
  name: foo-prod-bar
  annotations:
    config.kubernetes.io/depends-on: /namespaces/default/ConfigMap/the-map
`;

describe('ensure-name-substring', () => {
  it('prefixes names, fixes back-references and depends-on, keeps path and index annotations (files stay in place)', async () => {
    const r = await runBuiltin(`${IMG}:v0.2.0`, ITEMS, PREPEND.replace('prod-', 'prod'));
    expect(r.exitCode).toBe(0);
    const byKind = Object.fromEntries(r.items.map((o) => [o.kind, o]));
    expect(byKind['ConfigMap'].name).toBe('prodthe-map');
    expect(byKind['ConfigMap'].getAnnotation('config.kubernetes.io/path')).toBe('cm.yaml');
    expect(byKind['ConfigMap'].getAnnotation('config.kubernetes.io/index')).toBe('0');
    expect(byKind['Deployment'].name).toBe('prodweb');
    expect(byKind['Deployment'].get('spec.template.spec.containers[0].env[0].valueFrom.configMapKeyRef.name')).toBe(
      'prodthe-map',
    );
    expect(byKind['Deployment'].get('spec.template.spec.volumes[0].configMap.name')).toBe('unrelated');
    expect(byKind['Deployment'].get('spec.template.spec.serviceAccountName')).toBe('prodrunner');
    expect(byKind['Deployment'].getAnnotation('config.kubernetes.io/depends-on')).toBe(
      '/namespaces/default/ConfigMap/prodthe-map,apps/namespaces/default/Deployment/missing',
    );
    expect(byKind['Namespace'].name).toBe('ns');
    expect(r.output).toContain('name: prodthe-map # a reference');
  });

  it('leaves names that already contain the substring, and (upstream bug) their depends-on', async () => {
    const r = await runBuiltin(`${IMG}:v0.2.0`, ITEMS, PREPEND.replace('prod-', 'prod'));
    const svc = r.items.find((o) => o.kind === 'Service')!;
    expect(svc.name).toBe('foo-prod-bar');
    expect(svc.getAnnotation('config.kubernetes.io/depends-on')).toBe('/namespaces/default/ConfigMap/the-map');
  });

  it('appends with EnsureNameSubstring and extra name fields', async () => {
    const cfg = `apiVersion: fn.kpt.dev/v1alpha1
kind: EnsureNameSubstring
metadata:
  name: e
substring: -dev
editMode: append
additionalNameFields:
- kind: Thing
  path: spec/alias
`;
    const r = await runBuiltin(
      `${IMG}:v0.1`,
      'apiVersion: x/v1\nkind: Thing\nmetadata:\n  name: t\nspec:\n  alias: other\n',
      cfg,
    );
    expect(r.output).toBe('apiVersion: x/v1\nkind: Thing\nmetadata:\n  name: t-dev\nspec:\n  alias: other-dev\n');
  });

  it('config errors', async () => {
    const two = await runBuiltin(
      `${IMG}:v0.2.0`,
      ITEMS,
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  prepend: a\n  append: b\n',
    );
    expect(two.exitCode).toBe(1);
    expect(two.results).toEqual([
      {
        message: 'failed to load the `functionConfig`: only 1 entry is allowed in the ConfigMap, but got: 2',
        severity: 'error',
      },
    ]);
    const mode = await runBuiltin(
      `${IMG}:v0.2.0`,
      ITEMS,
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  middle: a\n',
    );
    expect(mode.results[0].message).toBe(
      'failed to load the `functionConfig`: unknown editMode: middle, only prepend and append are allowed',
    );
    const kind = await runBuiltin(`${IMG}:v0.2.0`, ITEMS, 'apiVersion: x.io/v1\nkind: Other\nmetadata:\n  name: c\n');
    expect(kind.results[0].message).toBe(
      'failed to load the `functionConfig`: function config must be either ConfigMap.v1 or EnsureNameSubstring.v1alpha1.fn.kpt.dev, but we got: x.io/v1, Kind=Other',
    );
    const empty = await runBuiltin(
      `${IMG}:v0.2.0`,
      ITEMS,
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  prepend: ""\n',
    );
    expect(empty.results[0].message).toBe('failed to load the `functionConfig`: substring must not be empty');
  });
});

describe('ensure-name-substring depends-on forms', () => {
  it('updates cluster-scoped references (group/Kind/name) to renamed objects only', async () => {
    const r = await runBuiltin(
      `${IMG}:v0.2.0`,
      `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: reader
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: app
  annotations:
    config.kubernetes.io/depends-on: rbac.authorization.k8s.io/ClusterRole/reader,rbac.authorization.k8s.io/ClusterRole/absent
`,
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  append: -x\n',
    );
    expect(r.items[1].getAnnotation('config.kubernetes.io/depends-on')).toBe(
      'rbac.authorization.k8s.io/ClusterRole/reader-x,rbac.authorization.k8s.io/ClusterRole/absent',
    );
  });
});
