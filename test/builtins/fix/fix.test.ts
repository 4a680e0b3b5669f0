import { describe, expect, it } from 'vitest';
import { runBuiltin } from '../run-builtin.ts';

const IMG = 'gcr.io/kpt-fn/fix:v0.2';

const V1ALPHA1 = `apiVersion: kpt.dev/v1alpha1
kind: Kptfile
metadata:
  name: nginx
  annotations:
    config.kubernetes.io/path: Kptfile
packageMetadata:
  shortDescription: describe this package
upstream:
  type: git
  git:
    commit: 4d2aa98b45ddee4b5fa45fbca16f2ff887de9efb
    repo: https://github.com/GoogleContainerTools/kpt
    directory: package-examples/nginx
    ref: v0.2
openAPI:
  definitions:
    io.k8s.cli.setters.replicas:
      x-k8s-cli:
        setter:
          name: replicas
          value: "4"
    io.k8s.cli.setters.tag:
      x-k8s-cli:
        setter:
          name: tag
          value: "1.14"
    io.k8s.cli.substitutions.image:
      x-k8s-cli:
        substitution:
          name: image
          pattern: nginx:TAG_SETTER
          values:
          - marker: TAG_SETTER
            ref: '#/definitions/io.k8s.cli.setters.tag'
`;
const DEPLOY = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx
  annotations:
    config.kubernetes.io/path: deploy.yaml
spec:
  replicas: 4 # {"$openapi":"replicas"}
  template:
    spec:
      containers:
      - name: nginx
        image: nginx:1.14 # {"$ref":"#/definitions/io.k8s.cli.substitutions.image"}
        args: # {"$kpt-set":"args"}
        - a
`;

describe('fix', () => {
  it('migrates a v1alpha1 Kptfile and the setter comments', async () => {
    const r = await runBuiltin(
      IMG,
      `${V1ALPHA1}---\n${DEPLOY.replace('{"$openapi":"replicas"}', '{"$ref":"#/definitions/io.k8s.cli.setters.replicas"}')}`,
    );
    expect(r.exitCode).toBe(0);
    const kf = r.items[0];
    expect(kf.apiVersion).toBe('kpt.dev/v1');
    expect(kf.get('info')).toEqual({ description: 'describe this package' });
    expect(kf.get('upstream')).toEqual({
      type: 'git',
      git: { repo: 'https://github.com/GoogleContainerTools/kpt', directory: 'package-examples/nginx', ref: 'v0.2' },
      updateStrategy: 'resource-merge',
    });
    expect(kf.get('upstreamLock.git.commit')).toBe('4d2aa98b45ddee4b5fa45fbca16f2ff887de9efb');
    expect(kf.has('openAPI')).toBe(false);
    expect(kf.has('packageMetadata')).toBe(false);
    expect(kf.get('pipeline.mutators')).toEqual([
      { image: 'gcr.io/kpt-fn/apply-setters:v0.2', configMap: { replicas: '4', tag: '1.14' } },
    ]);
    expect(r.output).toContain('replicas: 4 # kpt-set: ${replicas}');
    expect(r.output).toContain('image: nginx:1.14 # kpt-set: nginx:${tag}');
    expect(r.output).toContain('args: # kpt-set: ${args}');
    expect(r.results.map((x) => x.message)).toContain('Updated apiVersion to kpt.dev/v1');
    expect(r.results.map((x) => x.message)).toContain('Transformed "packageMetadata" to "info"');
  });
  it('turns function-annotated configs into mutators', async () => {
    const fnConfig = `apiVersion: v1
kind: ConfigMap
metadata:
  name: labels
  annotations:
    config.kubernetes.io/path: fns/labels.yaml
    config.kubernetes.io/function: |
      container:
        image: gcr.io/kpt-fn/set-labels:v0.1
data:
  app: nginx
`;
    const r = await runBuiltin(
      IMG,
      `apiVersion: kpt.dev/v1alpha2\nkind: Kptfile\nmetadata:\n  name: p\n---\n${fnConfig}`,
    );
    expect(r.items[0].get('pipeline.mutators')).toEqual([
      { image: 'gcr.io/kpt-fn/set-labels:v0.1', configPath: 'fns/labels.yaml' },
    ]);
    expect(r.items[1].getAnnotation('config.kubernetes.io/function')).toBeUndefined();
    expect(r.results.map((x) => x.message)).toContain(
      'Added "gcr.io/kpt-fn/set-labels:v0.1" to mutators list, please move it to validators section if it is a validator function',
    );
  });
  it('reports packages already on v1 and missing Kptfiles', async () => {
    const done = await runBuiltin(IMG, 'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: p\n');
    expect(done.results).toEqual([
      { message: 'This package is already fixed as it is on latest apiVersion kpt.dev/v1', severity: 'info' },
    ]);
    const none = await runBuiltin(IMG, DEPLOY);
    expect(none.exitCode).toBe(1);
    expect(none.results[0].message).toBe(
      "Kptfile not found in directory tree, make sure you specify '--include-meta-resources' flag",
    );
  });
});
