import { describe, expect, it } from 'vitest';
import { splitImage } from '../../../builtins/set-image.ts';
import { runBuiltin } from '../run-builtin.ts';

const IMG = 'gcr.io/kpt-fn/set-image';
const cm = (data: Record<string, string>): string =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: img\ndata:\n${Object.entries(data)
    .map(([k, v]) => `  ${k}: ${JSON.stringify(v)}`)
    .join('\n')}\n`;

const POD = `apiVersion: v1
kind: Pod
metadata:
  name: p
  annotations:
    config.kubernetes.io/path: pod.yaml
spec:
  initContainers:
  - name: init
    image: nginx:1.0
  containers:
  - name: a
    image: nginx:1.0 # pinned
  - name: b
    image: nginxy:2.0
  - name: c
    image: my.registry:5000/nginx@sha256:abc
`;

describe('splitImage', () => {
  it.each([
    ['nginx', 'nginx', ''],
    ['nginx:1.2', 'nginx', ':1.2'],
    ['reg:5000/nginx', 'reg:5000/nginx', ''],
    ['reg:5000/nginx:1', 'reg:5000/nginx', ':1'],
    ['nginx@sha256:abc', 'nginx', '@sha256:abc'],
    ['nginx:1@sha256:abc', 'nginx:1', '@sha256:abc'],
  ])('%s', (image, name, tag) => {
    expect(splitImage(image)).toEqual({ name, tag });
  });
});

describe('set-image v0.1.x', () => {
  it('sets the tag on containers and initContainers, with results', async () => {
    const r = await runBuiltin(`${IMG}:v0.1.1`, POD, cm({ name: 'nginx', newTag: '1.1' }));
    expect(r.exitCode).toBe(0);
    expect(r.output).toContain('    image: nginx:1.1 # pinned\n');
    expect(r.output).toContain('  - name: init\n    image: nginx:1.1\n');
    expect(r.output).toContain('image: nginxy:2.0');
    expect(r.results[0]).toEqual({
      message: 'set image from nginx:1.0 to nginx:1.1',
      severity: 'info',
      resourceRef: { apiVersion: 'v1', kind: 'Pod', name: 'p' },
      field: { path: 'spec.containers.image', currentValue: 'nginx:1.0', proposedValue: 'nginx:1.1' },
      file: { path: 'pod.yaml' },
    });
    expect(r.results).toHaveLength(2);
  });

  it('v0.1.x reports every matched image, changed or not, and never edits CustomResourceDefinitions', async () => {
    const input = `apiVersion: v1
kind: Pod
metadata:
  name: settled
  annotations:
    config.kubernetes.io/path: pod.yaml
spec:
  containers:
  - name: a
    image: redis:7
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  containers:
  - image: redis:6
`;
    const r = await runBuiltin(`${IMG}:v0.1.0`, input, cm({ name: 'redis', newTag: '7' }));
    expect(r.exitCode).toBe(0);
    expect(r.output).toContain('image: redis:6');
    expect(r.results).toEqual([
      {
        message: 'set image from redis:7 to redis:7',
        severity: 'info',
        resourceRef: { apiVersion: 'v1', kind: 'Pod', name: 'settled' },
        field: { path: 'spec.containers.image', currentValue: 'redis:7', proposedValue: 'redis:7' },
        file: { path: 'pod.yaml' },
      },
    ]);
  });

  it('v0.1.x matches `@sha256` only before the tag (IsImageMatched), and sorts results by Go text', async () => {
    const input = `apiVersion: v1
kind: Pod
metadata:
  name: p
  annotations:
    config.kubernetes.io/path: pod.yaml
spec:
  containers:
  - image: redis:7@sha256:aa
  - image: redis@sha256:bb
  - image: redis:5
`;
    const r = await runBuiltin(`${IMG}:v0.1.1`, input, cm({ name: 'redis', newName: 'cache' }));
    expect(r.output).toContain('image: redis:7@sha256:aa');
    expect(r.output).toContain('image: cache@sha256:bb');
    expect(r.output).toContain('image: cache:5');
    // Same file and field path: ordered by current value ("redis:5" < "redis@sha256:bb").
    expect(r.results.map((x) => x.message)).toEqual([
      'set image from redis:5 to cache:5',
      'set image from redis@sha256:bb to cache@sha256:bb',
    ]);
  });

  it('does not escape the name: a dot matches any character (upstream bug, kept)', async () => {
    const r = await runBuiltin(
      `${IMG}:v0.1`,
      'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - image: nginxXio:1\n',
      cm({ name: 'nginx.io', newName: 'other' }),
    );
    expect(r.output).toContain('image: other:1');
  });

  it('digest replaces the tag; newName keeps it; nothing changed is reported', async () => {
    const d = await runBuiltin(`${IMG}:v0.1.1`, POD, cm({ name: 'my.registry:5000/nginx', newName: 'gcr.io/x/nginx' }));
    expect(d.output).toContain('image: gcr.io/x/nginx@sha256:abc');
    const dig = await runBuiltin(`${IMG}:v0.1.1`, POD, cm({ name: 'nginxy', digest: 'sha256:fff' }));
    expect(dig.output).toContain('image: nginxy@sha256:fff');
    const none = await runBuiltin(`${IMG}:v0.1.1`, POD, cm({ name: 'absent', newTag: '1' }));
    expect(none.results).toEqual([{ message: 'no images changed', severity: 'info' }]);
  });

  it('SetImage with additionalImageFields; config errors', async () => {
    const cfg = `apiVersion: fn.kpt.dev/v1alpha1
kind: SetImage
metadata:
  name: s
image:
  name: app
  newTag: v2
additionalImageFields:
- kind: MyKind
  path: spec/manifest/images[]/image
`;
    const r = await runBuiltin(
      `${IMG}:v0.1.1`,
      'apiVersion: x/v1\nkind: MyKind\nmetadata:\n  name: m\nspec:\n  manifest:\n    images:\n    - image: app:v1\n',
      cfg,
    );
    expect(r.output).toContain('    - image: app:v2\n');
    expect((await runBuiltin(`${IMG}:v0.1.1`, POD, cm({ newTag: '1' }))).results).toEqual([
      { message: 'missing image name', severity: 'error' },
    ]);
    expect((await runBuiltin(`${IMG}:v0.1.1`, POD, cm({ name: 'a' }))).results[0].message).toBe(
      'missing image newName, newTag, or digest',
    );
    expect(
      (await runBuiltin(`${IMG}:v0.1.1`, POD, cm({ name: 'a', newTag: '1', digest: 'sha256:1' }))).results[0].message,
    ).toBe('image newTag and digest both set');
    const kind = await runBuiltin(`${IMG}:v0.1.1`, POD, 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n');
    expect(kind.exitCode).toBe(1);
    expect(kind.results[0].message).toBe('`functionConfig` must be a `ConfigMap` or `SetImage`');
  });
});

describe('set-image master (unstable tag)', () => {
  it('skips initContainers (upstream typo, kept) and summarises', async () => {
    const r = await runBuiltin(`${IMG}:unstable`, POD, cm({ name: 'nginx', newTag: '9' }));
    expect(r.output).toContain('  - name: init\n    image: nginx:1.0\n');
    expect(r.output).toContain('    image: nginx:9 # pinned\n');
    expect(r.results).toEqual([{ message: 'summary: updated a total of 1 image(s)', severity: 'info' }]);
  });
  it('rejects unknown ConfigMap keys with a termination result', async () => {
    const r = await runBuiltin(`${IMG}:unstable`, POD, cm({ name: 'nginx', tag: '9' }));
    expect(r.exitCode).toBe(1);
    expect(r.results.map((x) => x.message)).toEqual([
      'ConfigMap has wrong field name tag',
      'function is terminated: ConfigMap has wrong field name tag',
    ]);
  });
});
