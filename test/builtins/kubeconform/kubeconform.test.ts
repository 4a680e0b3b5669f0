import { describe, expect, it } from 'vitest';
import { runBuiltin } from '../run-builtin.ts';

const CONFORM = 'ghcr.io/kptdev/krm-functions-catalog/kubeconform:v0.1';
const KUBEVAL = 'gcr.io/kpt-fn/kubeval:v0.3';

const BAD = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  annotations:
    config.kubernetes.io/path: deploy.yaml
spec:
  replicas: "3"
  template:
    spec:
      containers:
      - name: app
        image: nginx
`;
const GOOD = `apiVersion: v1
kind: Service
metadata:
  name: svc
spec:
  ports:
  - port: 80
    targetPort: http
`;
const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {kind: Widget, plural: widgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [size]
            properties:
              size: {type: integer, minimum: 1}
              color: {type: string, nullable: true}
`;

describe('kubeconform', () => {
  it('reports schema violations of built-in kinds with field paths', async () => {
    const r = await runBuiltin(CONFORM, `${BAD}---\n${GOOD}`);
    expect(r.exitCode).toBe(1);
    expect(r.results).toEqual([
      {
        message: "missing properties: 'selector'",
        severity: 'error',
        resourceRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
        file: { path: 'deploy.yaml' },
        field: { path: 'spec' },
      },
      {
        message: 'expected integer, but got string',
        severity: 'error',
        resourceRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
        file: { path: 'deploy.yaml' },
        field: { path: 'spec.replicas' },
      },
    ]);
  });

  it('validates custom resources against CRDs in the package', async () => {
    const ok = await runBuiltin(
      CONFORM,
      `${CRD}---\napiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: 2\n  color: null\n`,
    );
    expect(ok.exitCode).toBe(0);
    expect(ok.results).toEqual([]);
    const bad = await runBuiltin(
      CONFORM,
      `${CRD}---\napiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: 0\n`,
    );
    expect(bad.results.map((x) => [x.field?.path, x.message])).toEqual([['spec.size', 'must be >= 1']]);
  });

  it('unknown kinds fail unless ignored or skipped', async () => {
    const cr = 'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: p\n';
    const r = await runBuiltin(CONFORM, cr);
    expect(r.exitCode).toBe(1);
    expect(r.results[0].message).toBe(
      'Validating arbitrary CRDs not supported. Consider setting ignore_missing_schemas or skip_kinds in FunctionConfig:\nstdin - Kptfile p failed validation: could not find schema for Kptfile',
    );
    const cfg = (data: string): string => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n${data}`;
    expect((await runBuiltin(CONFORM, cr, cfg('  ignore_missing_schemas: "True"\n'))).exitCode).toBe(0);
    expect((await runBuiltin(CONFORM, `${cr}---\n${BAD}`, cfg('  skip_kinds: Kptfile,Deployment\n'))).exitCode).toBe(0);
    expect(
      (
        await runBuiltin(
          CONFORM,
          cr,
          'apiVersion: fn.kpt.dev/v1alpha1\nkind: KubeconformConfig\nmetadata:\n  name: c\nignore_missing_schemas: 1\n',
        )
      ).exitCode,
    ).toBe(0);
  });

  it('kubeval images use kubeval wording', async () => {
    const r = await runBuiltin(KUBEVAL, BAD);
    expect(r.results.map((x) => [x.field?.path, x.message])).toEqual([
      ['spec', 'selector is required'],
      ['spec.replicas', 'Invalid type. Expected: integer, given: string'],
    ]);
    const missing = await runBuiltin(KUBEVAL, 'apiVersion: x.io/v1\nkind: X\nmetadata:\n  name: x\n');
    expect(
      missing.results[0].message.startsWith('Validating arbitrary CRDs is not supported yet. You can skip them'),
    ).toBe(true);
  });

  it('strict closes CRD objects', async () => {
    const cr = `${CRD}---\napiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: 2\n  extra: 1\n`;
    expect((await runBuiltin(CONFORM, cr)).exitCode).toBe(0);
    const strict = await runBuiltin(
      CONFORM,
      cr,
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  strict: "true"\n',
    );
    expect(strict.results.filter((x) => x.severity === 'error').map((x) => [x.field?.path, x.message])).toEqual([
      ['spec', "additionalProperties 'extra' not allowed"],
    ]);
  });
});
