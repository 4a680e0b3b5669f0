/**
 * Differential cases for the kustomize-based set-namespace tags (v0.1.0 – v0.2.0): one row per
 * behaviour that changes between tags, with the outcome each tag's code gives (catalog
 * functions/go/set-namespace main.go and namespace_transformer.go at set-namespace/v0.1.3,
 * v0.1.4, v0.2.0; kustomize api/filters/namespace/namespace.go at api/v0.7.1 and api/v0.8.11).
 */
import { describe, expect, it } from 'vitest';
import { runBuiltin } from '../run-builtin.ts';

const IMG = 'gcr.io/kpt-fn/set-namespace';

const setNamespace = (body: string): string =>
  `apiVersion: fn.kpt.dev/v1alpha1\nkind: SetNamespace\nmetadata:\n  name: ns\nnamespace: shop\n${body}`;
const legacyConfig = (body = ''): string =>
  `apiVersion: fn.kpt.dev/v1alpha1\nkind: SetNamespaceConfig\nmetadata:\n  name: ns\nnamespace: shop\n${body}`;

const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n';

const BINDING = `apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: deployers
subjects:
- kind: ServiceAccount
  name: builder
- kind: ServiceAccount
  name: default
- kind: User
  name: alice
---
apiVersion: v1
kind: ServiceAccount
metadata:
  name: builder
`;

describe('set-namespace kustomize tags: differential cases', () => {
  it('`SetNamespace` is refused before v0.1.4 and accepted from v0.1.4', async () => {
    const old = await runBuiltin(`${IMG}:v0.1.3`, CM, setNamespace(''));
    expect(old.exitCode).toBe(1);
    expect(old.results.map((r) => r.message)).toEqual([
      'failed to configure function: function config must be a ConfigMap or SetNamespaceConfig',
    ]);
    const v014 = await runBuiltin(`${IMG}:v0.1.4`, CM, setNamespace(''));
    expect(v014.exitCode).toBe(0);
    expect(v014.output).toContain('namespace: shop');
  });

  it('a config is matched by apiVersion and kind (validGVK): a ConfigMap of another apiVersion is refused', async () => {
    const cfg = 'apiVersion: v2\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  namespace: shop\n';
    const v013 = await runBuiltin(`${IMG}:v0.1.3`, CM, cfg);
    expect(v013.results.map((r) => r.message)).toEqual([
      'failed to configure function: function config must be a ConfigMap or SetNamespaceConfig',
    ]);
    const v02 = await runBuiltin(`${IMG}:v0.2.0`, CM, cfg);
    expect(v02.results.map((r) => r.message)).toEqual([
      'failed to configure function: `functionConfig` must be a `ConfigMap` or `SetNamespace`',
    ]);
  });

  it('v0.2.0 also sets the namespace of subjects naming a ServiceAccount of the package; v0.1.4 only `default`', async () => {
    const subjects = (items: { get(p: string): unknown }[]): unknown => items[0].get('subjects');
    const v014 = await runBuiltin(`${IMG}:v0.1.4`, BINDING, legacyConfig());
    expect(v014.exitCode).toBe(0);
    expect(subjects(v014.items)).toEqual([
      { kind: 'ServiceAccount', name: 'builder' },
      { kind: 'ServiceAccount', name: 'default', namespace: 'shop' },
      { kind: 'User', name: 'alice' },
    ]);
    const v02 = await runBuiltin(`${IMG}:v0.2.0`, BINDING, legacyConfig());
    expect(subjects(v02.items)).toEqual([
      { kind: 'ServiceAccount', name: 'builder', namespace: 'shop' },
      { kind: 'ServiceAccount', name: 'default', namespace: 'shop' },
      { kind: 'User', name: 'alice' },
    ]);
  });

  it('a user FieldSpec for metadata/namespace is dropped (removeFieldSpecsForHacks): cluster-scoped kinds stay', async () => {
    const role = 'apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: reader\n';
    const cfg = legacyConfig('fieldSpecs:\n- path: metadata/namespace\n  create: true\n');
    for (const tag of ['v0.1.3', 'v0.2.0']) {
      const r = await runBuiltin(`${IMG}:${tag}`, role, cfg);
      expect(r.exitCode, tag).toBe(0);
      expect(r.output, tag).not.toContain('namespace:');
    }
  });

  it('v0.1.4+ refuses both `fieldSpecs` and `additionalNamespaceFields`, naming the wrong field (upstream bug)', async () => {
    const cfg = setNamespace('fieldSpecs:\n- path: a\nadditionalNamespaceFields:\n- path: b\n');
    const r = await runBuiltin(`${IMG}:v0.2.0`, CM, cfg);
    expect(r.exitCode).toBe(1);
    expect(r.results.map((x) => x.message)).toEqual([
      'failed to configure function: `fieldSpecs` has been deprecated, please rename it to `additionalLabelFields`',
    ]);
  });

  it('the CRD conversion webhook namespace is set from v0.1.4 (kustomize api v0.8.11), never created', async () => {
    const crd = (webhook: string): string =>
      `apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: widgets.example.com\nspec:\n  group: example.com${webhook}\n`;
    const withHook = crd(
      '\n  conversion:\n    webhook:\n      clientConfig:\n        service:\n          name: conv\n          namespace: old',
    );
    const v013 = await runBuiltin(`${IMG}:v0.1.3`, withHook, legacyConfig());
    expect(v013.output).toContain('namespace: old');
    const v014 = await runBuiltin(`${IMG}:v0.1.4`, withHook, legacyConfig());
    expect(v014.output).not.toContain('namespace: old');
    expect(v014.output).toContain('          namespace: shop');
    const noHook = await runBuiltin(`${IMG}:v0.1.4`, crd(''), legacyConfig());
    expect(noHook.output).not.toContain('conversion');
  });

  it('a FieldSpec that meets a scalar fails the function (kustomize filter error)', async () => {
    const svc =
      'apiVersion: apiregistration.k8s.io/v1\nkind: APIService\nmetadata:\n  name: v1.x\nspec:\n  service: none\n';
    const r = await runBuiltin(`${IMG}:v0.1.3`, svc, legacyConfig());
    expect(r.exitCode).toBe(1);
    expect(r.results[0]?.message).toContain('expected sequence or mapping node');
  });
});

describe('set-namespace kustomize tags: config values (sigs.k8s.io/yaml, GetDataMap)', () => {
  const svc = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: api\n';
  const typed = (value: string, kind = 'SetNamespaceConfig'): string =>
    `apiVersion: fn.kpt.dev/v1alpha1\nkind: ${kind}\nmetadata:\n  name: ns\nnamespace: ${value}\n`;

  it('a typed `namespace: yes` is "true" from v0.1.3 (YAML 1.1) and "yes" through v0.1.2\'s Go map', async () => {
    const v013 = await runBuiltin('gcr.io/kpt-fn/set-namespace:v0.1.3', svc, typed('yes'));
    expect(v013.items[0].namespace).toBe('true');
    const v012 = await runBuiltin('gcr.io/kpt-fn/set-namespace:v0.1.2', svc, typed('yes'));
    expect(v012.items[0].namespace).toBe('yes');
    const octal = await runBuiltin('gcr.io/kpt-fn/set-namespace:v0.2.0', svc, typed('0755', 'SetNamespace'));
    expect(octal.items[0].namespace).toBe('493');
  });

  it('a nested typed namespace fails with the unmarshal error; a nested ConfigMap value is empty', async () => {
    const config = typed('{a: b}', 'SetNamespace');
    const r = await runBuiltin('gcr.io/kpt-fn/set-namespace:v0.1.4', svc, config);
    const message =
      `failed to configure function: failed to unmarshal config ${JSON.stringify(config)}: ` +
      'error unmarshaling JSON: json: cannot unmarshal object into Go struct field plugin.namespace of type string';
    expect([r.exitCode, r.results[0].message]).toEqual([1, message]);
    const cm = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  namespace: [a]\n';
    const empty = await runBuiltin('gcr.io/kpt-fn/set-namespace:v0.2.0', svc, cm);
    expect([empty.exitCode, empty.results[0].message]).toEqual([
      1,
      'failed to configure function: input namespace cannot be empty',
    ]);
  });
});
