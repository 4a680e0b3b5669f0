import { describe, expect, it } from 'vitest';
import { pathMatch } from '../../../builtins/search-replace.ts';
import { runBuiltin } from '../run-builtin.ts';

const IMG = 'gcr.io/kpt-fn/search-replace';
const cm = (data: Record<string, string>): string =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: sr\ndata:\n${Object.entries(data)
    .map(([k, v]) => `  ${k}: ${JSON.stringify(v)}`)
    .join('\n')}\n`;

const DEPLOY = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: my-nginx
  annotations:
    config.kubernetes.io/path: app/deploy.yaml
spec:
  replicas: 3
  template:
    spec:
      containers:
        - name: nginx
          image: nginx:1.14.2 # old
        - name: sidecar
          image: busybox
`;

describe('search-replace path matching', () => {
  it.each([
    ['spec.replicas', 'spec.replicas', true],
    ['spec.*', 'spec.replicas', true],
    ['spec.*', 'spec.template.spec', false],
    ['**.image', 'spec.template.spec.containers[0].image', true],
    ['spec.**.containers[*].image', 'spec.template.spec.containers[1].image', true],
    ['spec.**.containers[1].image', 'spec.template.spec.containers[0].image', false],
    ['**', 'a', true],
    ['*[1].x', 'list[1].x', true],
  ])('%s ~ %s = %s', (pattern, path, want) => {
    expect(pathMatch(pattern, path)).toBe(want);
  });
});

describe('search-replace', () => {
  it('reports matches by value without changing anything', async () => {
    const r = await runBuiltin(`${IMG}:v0.2.0`, DEPLOY, cm({ 'by-value': 'nginx' }));
    expect(r.exitCode).toBe(0);
    expect(r.output).toBe(DEPLOY);
    expect(r.results).toEqual([
      {
        message: 'Matched field value "nginx"',
        field: { path: 'spec.template.spec.containers[0].name' },
        file: { path: 'app/deploy.yaml' },
      },
    ]);
  });

  it('replaces by unanchored regex with capture groups, keeping comments', async () => {
    const r = await runBuiltin(
      `${IMG}:v0.2.0`,
      DEPLOY,
      cm({ 'by-value-regex': 'nginx:(1)\\.(\\d+)', 'put-value': 'nginx:${1}.${2}.99' }),
    );
    expect(r.output).toContain('image: nginx:1.14.99 # old');
    expect(r.results).toEqual([
      {
        message: 'Mutated field value to "nginx:1.14.99 # old"',
        field: { path: 'spec.template.spec.containers[0].image' },
        file: { path: 'app/deploy.yaml' },
      },
    ]);
  });

  it('selects by path and value together and puts comments', async () => {
    const r = await runBuiltin(
      `${IMG}:v0.2.0`,
      DEPLOY,
      cm({ 'by-path': 'spec.**.image', 'by-value': 'busybox', 'put-comment': 'kpt-set: ${sidecar}' }),
    );
    expect(r.output).toContain('image: busybox # kpt-set: ${sidecar}');
    // Upstream reports the field as YAML text: its quotes and line comment included.
    expect(r.results[0].message).toBe('Mutated field value to "busybox # kpt-set: ${sidecar}"');
  });

  it('creates an absolute path with put-value and infers the type', async () => {
    const r = await runBuiltin(
      `${IMG}:v0.1`,
      'apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n',
      cm({ 'by-path': 'spec.ports.x', 'put-value': '4' }),
    );
    expect(r.output).toBe('apiVersion: v1\nkind: Service\nmetadata:\n  name: s\nspec:\n  ports:\n    x: 4\n');
    expect(r.items[0].get('spec.ports.x')).toBe(4);
  });

  it('by-file-path selects files (v0.2)', async () => {
    const two = `${DEPLOY}---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  annotations:\n    config.kubernetes.io/path: other.yaml\ndata:\n  image: nginx\n`;
    const r = await runBuiltin(
      `${IMG}:v0.2`,
      two,
      cm({ 'by-file-path': 'other.*', 'by-value': 'nginx', 'put-value': 'apache' }),
    );
    expect(r.output).toContain('  image: apache\n');
    expect(r.output).toContain('- name: nginx');
    const v1 = await runBuiltin(`${IMG}:v0.1.1`, two, cm({ 'by-file-path': 'other.*', 'by-value': 'nginx' }));
    expect(v1.exitCode).toBe(1);
    expect(v1.results[0].message).toBe(
      'invalid matcher "by-file-path", must be one of ["by-value" "by-value-regex" "by-path" "put-value" "put-comment"]',
    );
  });

  it('comments a sequence key matched by path and makes it block style', async () => {
    const r = await runBuiltin(
      `${IMG}:v0.2.0`,
      'apiVersion: v1\nkind: T\nmetadata:\n  name: t\nenvs: [a, b]\n',
      cm({ 'by-path': 'envs', 'put-comment': 'kpt-set: ${envs}' }),
    );
    expect(r.output).toContain('envs: # kpt-set: ${envs}\n- a\n- b\n');
    expect(r.results[0]).toEqual({
      message: 'Mutated field value to "[a, b]"',
      field: { path: 'envs # kpt-set: ${envs}' },
    });
  });

  it('empty config values count as absent; items without a file path give no scalar results', async () => {
    const r = await runBuiltin(
      `${IMG}:v0.2.0`,
      'apiVersion: v1\nkind: T\nmetadata:\n  name: t\nv: "x"\n',
      cm({ 'by-value': 'x', 'put-value': '' }),
    );
    expect(r.output).toContain('v: "x"');
    expect(r.results).toEqual([{ message: 'no matches' }]);
    const quoted = await runBuiltin(
      `${IMG}:v0.2.0`,
      DEPLOY.replace('busybox', '"busybox"'),
      cm({ 'by-value': 'busybox' }),
    );
    expect(quoted.results[0].message).toBe('Matched field value "\\"busybox\\""');
  });

  it('config errors and no matches', async () => {
    const both = await runBuiltin(`${IMG}:v0.2.0`, DEPLOY, cm({ 'by-value': 'a', 'by-value-regex': 'b' }));
    expect(both.results).toEqual([
      { message: 'only one of ["by-value", "by-value-regex"] can be provided', severity: 'error' },
    ]);
    const none = await runBuiltin(`${IMG}:v0.1.0`, DEPLOY, cm({ 'put-value': 'x' }));
    expect(none.results[0].message).toBe('at least one of ["by-value", "by-value-regex", "by-path"] must be provided');
    const nomatch = await runBuiltin(`${IMG}:v0.2.0`, DEPLOY, cm({ 'by-value': 'nothing-like-this' }));
    expect(nomatch.exitCode).toBe(0);
    expect(nomatch.results).toEqual([{ message: 'no matches' }]);
    const capture = await runBuiltin(
      `${IMG}:v0.2.0`,
      DEPLOY,
      cm({ 'by-value-regex': 'busy(box)', 'put-value': '${2}' }),
    );
    expect(capture.results).toEqual([
      { message: 'failed to perform search-replace operation: "unable to resolve capture groups"', severity: 'error' },
    ]);
  });
});

/**
 * Differential cases from the catalog's functions/go/search-replace at search-replace/v0.2.0
 * (searchreplace/walk.go `acceptImpl`, search_replace.go `visitMapping`, main.go).
 */
describe('search-replace traversal and results (v0.2.0)', () => {
  const DOC = `apiVersion: v1
kind: ConfigMap
metadata:
  name: first
  annotations:
    config.kubernetes.io/path: cm.yaml
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: second
  annotations:
    config.kubernetes.io/path: cm.yaml
    config.kubernetes.io/index: '1'
data:
  mode: fast
  hosts:
  - a
  - b
  none: []
`;

  it("a mapping's list fields are commented before its scalar fields are visited; empty lists are skipped", async () => {
    const r = await runBuiltin(`${IMG}:v0.2.0`, DOC, cm({ 'by-path': 'data.*', 'put-comment': 'owned' }));
    expect(r.exitCode).toBe(0);
    // The list result comes first although `mode` precedes `hosts` in the document.
    expect(r.results[0]).toMatchObject({
      message: 'Mutated field value to "[a, b]"',
      field: { path: 'data.* # owned' },
    });
    expect(r.results.map((x) => x.field?.path)).toContain('data.mode');
    expect(r.output).toContain('  hosts: # owned\n');
    expect(r.output).toContain('  none: []\n');
  });

  it('results carry the file path only, never the index', async () => {
    const r = await runBuiltin(`${IMG}:v0.2.0`, DOC, cm({ 'by-value': 'fast' }));
    expect(r.results).toEqual([
      { message: 'Matched field value "fast"', field: { path: 'data.mode' }, file: { path: 'cm.yaml' } },
    ]);
  });
});
