import { describe, expect, it } from 'vitest';
import { runBuiltin } from '../run-builtin.ts';

const IMG = 'gcr.io/kpt-fn/remove-local-config-resources:v0.1.0';

describe('remove-local-config-resources', () => {
  it('removes items annotated local-config "true" in any case, reporting each', async () => {
    const r = await runBuiltin(
      IMG,
      `apiVersion: v1
kind: ConfigMap
metadata:
  name: keep
  annotations:
    config.kubernetes.io/local-config: "false"
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: setters
  annotations:
    config.kubernetes.io/local-config: "TRUE"
    config.kubernetes.io/path: setters.yaml
    internal.config.kubernetes.io/path: setters.yaml
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: yes-but-not-true
  annotations:
    config.kubernetes.io/local-config: "yes"
`,
    );
    expect(r.exitCode).toBe(0);
    expect(r.items.map((o) => o.name)).toEqual(['keep', 'yes-but-not-true']);
    expect(r.results).toEqual([
      { message: 'Number of resources pruned: 1', severity: 'info' },
      { message: 'Resource name: [setters]', severity: 'info', file: { path: 'setters.yaml' } },
    ]);
  });
  it('warns when nothing is removed', async () => {
    const r = await runBuiltin(IMG, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: keep\n');
    expect(r.results).toEqual([
      { message: 'Found no resources to prune with the local config annotation', severity: 'warning' },
    ]);
    expect(r.items).toHaveLength(1);
  });
});
