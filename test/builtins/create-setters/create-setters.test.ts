import { describe, expect, it } from 'vitest';
import { replaceAllOrdered } from '../../../builtins/create-setters.ts';
import { runBuiltin } from '../run-builtin.ts';

const IMG = 'gcr.io/kpt-fn/create-setters:v0.1';
const cm = (data: string): string => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n${data}`;

describe('create-setters', () => {
  it('Go strings.Replacer order: first listed match wins at each position', () => {
    expect(
      replaceAllOrdered('nginx:1.7.1', [
        { from: '1.7.1', to: '${tag}' },
        { from: 'nginx', to: '${image}' },
      ]),
    ).toBe('${image}:${tag}');
    expect(
      replaceAllOrdered('aaa', [
        { from: 'aa', to: 'X' },
        { from: 'a', to: 'Y' },
      ]),
    ).toBe('XY');
  });

  it('comments scalars (partial values too) and array fields', async () => {
    const r = await runBuiltin(
      IMG,
      `apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx-deployment
spec:
  template:
    spec:
      containers:
      - name: nginx
        image: nginx:1.7.1
        args: [--a, --b]
  replicas: 3
`,
      cm('  image: nginx\n  tag: 1.7.1\n  flags: "[--b, --a]"\n  count: "3"\n'),
    );
    expect(r.exitCode).toBe(0);
    expect(r.output).toBe(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx-deployment # kpt-set: \${image}-deployment
spec:
  template:
    spec:
      containers:
      - name: nginx # kpt-set: \${image}
        image: nginx:1.7.1 # kpt-set: \${image}:\${tag}
        args: # kpt-set: \${flags}
        - --a
        - --b
  replicas: 3 # kpt-set: \${count}
`);
    expect(r.results[2]).toEqual({
      message: 'Added line comment "kpt-set: ${image}:${tag}" for field with value "nginx:1.7.1"',
      field: { path: 'spec.template.spec.containers[0].image' },
    });
  });

  it('errors', async () => {
    const empty = await runBuiltin(
      IMG,
      'apiVersion: v1\nkind: T\nmetadata:\n  name: t\n',
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n',
    );
    expect(empty.results).toEqual([
      { message: 'failed to create setters: config map cannot be empty', severity: 'error' },
    ]);
    const none = await runBuiltin(IMG, 'apiVersion: v1\nkind: T\nmetadata:\n  name: t\n', cm('  x: nothing-here\n'));
    expect(none.exitCode).toBe(1);
    expect(none.results[0].message).toBe('failed to create setters: no matches for the input list of setters');
  });
});
