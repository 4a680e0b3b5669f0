import { describe, expect, it } from 'vitest';
import { runBuiltin } from '../run-builtin.ts';

const IMG = 'gcr.io/kpt-fn/list-setters:v0.1';
const KPTFILE = `apiVersion: kpt.dev/v1
kind: Kptfile
metadata:
  name: p
  annotations:
    config.kubernetes.io/path: Kptfile
pipeline:
  mutators:
  - image: gcr.io/kpt-fn/set-labels:v0.1
  - image: gcr.io/kpt-fn/apply-setters:v0.2
    configPath: setters.yaml
`;
const SETTERS = `apiVersion: v1
kind: ConfigMap
metadata:
  name: setters
  annotations:
    config.kubernetes.io/path: setters.yaml
data:
  image: nginx
  replicas: "3"
  envs: "[dev, stage]"
  debug: "true"
  unused: x
`;
const DEPLOY = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3 # kpt-set: \${replicas}
  template:
    spec:
      containers:
      - image: nginx:1 # kpt-set: \${image}:\${tag}
        args: # kpt-set: \${envs}
        - dev
      - image: nginx # kpt-set: \${image}
`;

describe('list-setters', () => {
  it('lists each setter with value, type and usage count, changing nothing', async () => {
    const input = `${KPTFILE}---\n${SETTERS}---\n${DEPLOY}`;
    const r = await runBuiltin(IMG, input);
    expect(r.exitCode).toBe(0);
    expect(r.output).toBe(input);
    expect(r.results.map((x) => x.message)).toEqual([
      'Name: debug, Value: true, Type: bool, Count: 0',
      'Name: envs, Value: [dev, stage], Type: array, Count: 1',
      'Name: image, Value: nginx, Type: str, Count: 2',
      'Name: replicas, Value: 3, Type: int, Count: 1',
      'Name: unused, Value: x, Type: str, Count: 0',
    ]);
  });
  it('discovery warnings', async () => {
    expect((await runBuiltin(IMG, DEPLOY)).results[0]).toEqual({
      message: 'unable to find Kptfile, please include --include-meta-resources flag if a Kptfile is present',
      severity: 'warning',
    });
    expect(
      (await runBuiltin(IMG, 'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: p\n')).results[0].message,
    ).toBe('unable to find Pipeline declaration in Kptfile');
    expect((await runBuiltin(IMG, KPTFILE)).results[0].message).toBe(
      'file setters.yaml doesn\'t exist, please ensure the file specified in "configPath" exists and retry',
    );
    const noFn = KPTFILE.replace(/ {2}- image: gcr.io\/kpt-fn\/apply-setters:v0.2\n {4}configPath: setters.yaml\n/, '');
    expect((await runBuiltin(IMG, noFn)).results[0].message).toBe(
      'unable to find apply-setters fn in Kptfile Pipeline.Mutators',
    );
  });
});
