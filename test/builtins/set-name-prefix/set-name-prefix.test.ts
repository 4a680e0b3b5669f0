/**
 * set-name-prefix's reference walk, case by case, as upstream's bind/pkg/meta code at
 * `set-name-prefix/v0.0.3` behaves (builtins/docs/set-name-prefix.md): which references follow a
 * rename, which inputs make it fail and how.
 */
import { describe, expect, it } from 'vitest';
import { runBuiltin } from '../run-builtin.ts';

const IMG = 'gcr.io/kpt-fn/set-name-prefix:v0.0.3';
const CONTEXT = `apiVersion: v1
kind: ConfigMap
metadata:
  name: kptfile.kpt.dev
  annotations:
    config.kubernetes.io/local-config: "true"
data:
  name: acme
`;
const run = (items: string, config?: string) => runBuiltin(IMG, `${CONTEXT}---\n${items}`, config);
const byName = <T extends { name: string }>(items: T[], name: string): T | undefined =>
  items.find((o) => o.name === name);

describe('set-name-prefix', () => {
  it('renames `packagename` and `packagename-*`, nothing else', async () => {
    const r = await run(`apiVersion: v1
kind: ConfigMap
metadata:
  name: packagename-a
  namespace: x
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: my-packagename-b
  namespace: x
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: packagename-local
  namespace: x
  annotations:
    config.kubernetes.io/local-config: "true"
---
apiVersion: kpt.dev/v1alpha1
kind: ResourceGroup
metadata:
  name: packagename
  namespace: x
`);
    expect(r.exitCode).toBe(0);
    expect(r.items.map((o) => o.name)).toEqual([
      'kptfile.kpt.dev',
      'acme-a',
      'my-packagename-b',
      'packagename-local',
      'packagename',
    ]);
  });

  it('follows CNRM references and skips `external` ones', async () => {
    const r = await run(`apiVersion: resourcemanager.cnrm.cloud.google.com/v1beta1
kind: Folder
metadata:
  name: packagename-folder
  namespace: config
spec:
  organizationRef:
    external: "123"
---
apiVersion: resourcemanager.cnrm.cloud.google.com/v1beta1
kind: Project
metadata:
  name: p1
  namespace: config
spec:
  folderRef:
    name: packagename-folder
---
apiVersion: resourcemanager.cnrm.cloud.google.com/v1beta1
kind: Project
metadata:
  name: p2
  namespace: config
spec:
  folderRef:
    external: folders/123
`);
    expect(r.exitCode).toBe(0);
    expect(r.results).toEqual([]);
    expect(byName(r.items, 'p1')!.get('spec.folderRef.name')).toBe('acme-folder');
    expect(byName(r.items, 'p2')!.get('spec.folderRef')).toEqual({ external: 'folders/123' });
  });

  it('fails with an error result (exit 0) on a RoleBinding subject of a kind it cannot scope', async () => {
    const r = await run(`apiVersion: v1
kind: ServiceAccount
metadata:
  name: packagename-sa
  namespace: x
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: rb
  namespace: x
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: view
subjects:
  - apiGroup: rbac.authorization.k8s.io
    kind: User
    name: jane
`);
    expect(r.exitCode).toBe(0);
    expect(r.results).toEqual([
      { message: 'kind rbac.authorization.k8s.io/v1, Kind=User not known', severity: 'error' },
    ]);
    expect(byName(r.items, 'acme-sa')).toBeDefined();
  });

  it('reports two objects with the renamed identity, naming the new name', async () => {
    const cm = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: packagename-x\n  namespace: n\n';
    const r = await run(`${cm}---\n${cm}`);
    expect(r.results).toEqual([
      { message: 'multiple objects found matching v1/ConfigMap:n/acme-x', severity: 'error' },
    ]);
  });

  it('crashes as upstream does when a reference path crosses a missing field', async () => {
    const r = await run(`apiVersion: iam.cnrm.cloud.google.com/v1beta1
kind: IAMServiceAccount
metadata:
  name: packagename-gsa
  namespace: config
---
apiVersion: iam.cnrm.cloud.google.com/v1beta1
kind: IAMPolicyMember
metadata:
  name: binding
  namespace: config
spec:
  member: user:jane@example.com
  role: roles/viewer
  resourceRef:
    apiVersion: iam.cnrm.cloud.google.com/v1beta1
    kind: IAMServiceAccount
    name: packagename-gsa
`);
    expect(r.exitCode).toBe(2);
    expect(r.log.join('\n')).toMatch(/^panic: runtime error: invalid memory address or nil pointer dereference/);
  });

  it('fails without a prefix', async () => {
    const r = await run(
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: packagename\n',
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  prefix: ""\n',
    );
    expect(r.exitCode).toBe(1);
    expect(r.log).toEqual(['failed to evaluate function: `data.prefix` should not be empty']);
  });
});
