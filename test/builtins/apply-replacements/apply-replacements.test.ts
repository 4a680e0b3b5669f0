import { describe, expect, it } from 'vitest';
import { matchesLabelSelector } from '../../../builtins/apply-replacements.ts';
import { runBuiltin } from '../run-builtin.ts';

const IMG = 'ghcr.io/kptdev/krm-functions-catalog/apply-replacements';
const cfg = (body: string): string =>
  `apiVersion: fn.kpt.dev/v1alpha1\nkind: ApplyReplacements\nmetadata:\n  name: r\nreplacements:\n${body}`;

const ITEMS = `apiVersion: v1
kind: ConfigMap
metadata:
  name: cfg
data:
  ns: team-a
  image: registry.io/app:1.2
  replicas: 5
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    tier: front
spec:
  replicas: 1 # scale
  template:
    spec:
      containers:
      - name: app
        image: app:old
      - name: sidecar
        image: side:1
`;

describe('apply-replacements', () => {
  it('copies scalars into selected fields, with list selectors and create', async () => {
    const r = await runBuiltin(
      `${IMG}:v0.1.1`,
      ITEMS,
      cfg(`- source: {kind: ConfigMap, name: cfg, fieldPath: data.image}
  targets:
  - select: {kind: Deployment}
    fieldPaths: ['spec.template.spec.containers.[name=app].image']
- source: {kind: ConfigMap, name: cfg, fieldPath: data.ns}
  targets:
  - select: {kind: Deployment}
    fieldPaths: [metadata.namespace]
    options: {create: true}
- source: {kind: ConfigMap, name: cfg, fieldPath: data.replicas}
  targets:
  - select: {kind: Deployment, name: web}
    fieldPaths: [spec.replicas]
`),
    );
    expect(r.exitCode).toBe(0);
    expect(r.results).toEqual([]);
    const d = r.items[1];
    expect(d.get('spec.template.spec.containers[0].image')).toBe('registry.io/app:1.2');
    expect(d.get('spec.template.spec.containers[1].image')).toBe('side:1');
    expect(d.namespace).toBe('team-a');
    expect(d.get('spec.replicas')).toBe(5);
    expect(r.output).toContain('  replicas: 5 # scale\n');
  });

  it('delimiters pick and replace parts', async () => {
    const r = await runBuiltin(
      `${IMG}:v0.1.2`,
      ITEMS,
      cfg(`- source: {kind: ConfigMap, name: cfg, fieldPath: data.image, options: {delimiter: ':', index: 1}}
  targets:
  - select: {kind: Deployment}
    fieldPaths: ['spec.template.spec.containers.[name=sidecar].image']
    options: {delimiter: ':', index: 1}
  - select: {kind: Deployment}
    fieldPaths: ['spec.template.spec.containers.[name=app].image']
    options: {delimiter: ':', index: -1}
`),
    );
    expect(r.items[1].get('spec.template.spec.containers[1].image')).toBe('side:1.2');
    expect(r.items[1].get('spec.template.spec.containers[0].image')).toBe('1.2:app:old');
  });

  it('missing targets: skipped by v0.1.1, an error from v0.1.2; wildcards from v0.1.2', async () => {
    const body = cfg(`- source: {kind: ConfigMap, name: cfg, fieldPath: data.ns}
  targets:
  - select: {kind: Deployment}
    fieldPaths: [spec.missing.field]
`);
    const old = await runBuiltin(`${IMG}:v0.1.1`, ITEMS, body);
    expect(old.exitCode).toBe(0);
    const now = await runBuiltin(`${IMG}:v0.1.2`, ITEMS, body);
    expect(now.exitCode).toBe(1);
    expect(now.results).toEqual([
      { message: 'unable to find field "spec.missing.field" in replacement target', severity: 'error' },
    ]);
    const wild = await runBuiltin(
      `${IMG}:v0.1.2`,
      ITEMS,
      cfg(`- source: {kind: ConfigMap, name: cfg, fieldPath: data.ns}
  targets:
  - select: {kind: Deployment}
    fieldPaths: [spec.template.spec.containers.*.name]
`),
    );
    expect(wild.items[1].get('spec.template.spec.containers')).toEqual([
      { name: 'team-a', image: 'app:old' },
      { name: 'team-a', image: 'side:1' },
    ]);
  });

  it('copies whole sub-trees; reject and label selectors filter targets', async () => {
    const items = `${ITEMS}---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: other\n  labels:\n    tier: back\nspec: {}\n`;
    const r = await runBuiltin(
      `${IMG}:v0.1.2`,
      items,
      cfg(`- source: {kind: Deployment, name: web, fieldPath: spec.template}
  targets:
  - select: {kind: Deployment, labelSelector: 'tier in (back)'}
    reject: [{name: web}]
    fieldPaths: [spec.template]
    options: {create: true}
`),
    );
    expect(r.items[2].get('spec.template.spec.containers[1].name')).toBe('sidecar');
    expect(r.items[1].get('spec.template.spec.containers[1].name')).toBe('sidecar');
  });

  it('source selection and config errors', async () => {
    const none = await runBuiltin(
      `${IMG}:v0.1.2`,
      ITEMS,
      cfg(`- source: {kind: Secret}\n  targets:\n  - select: {kind: Deployment}\n`),
    );
    expect(none.results[0].message).toBe('nothing selected by Secret.[noVer].[noGrp]/[noName].[noNs]');
    const missing = await runBuiltin(
      `${IMG}:v0.1.2`,
      ITEMS,
      cfg(`- source: {kind: ConfigMap, fieldPath: data.nope}\n  targets:\n  - select: {kind: Deployment}\n`),
    );
    expect(missing.results[0].message).toBe(
      'fieldPath `data.nope` is missing for replacement source ConfigMap.[noVer].[noGrp]/[noName].[noNs]',
    );
    const noTargets = await runBuiltin(`${IMG}:v0.1.2`, ITEMS, cfg(`- source: {kind: ConfigMap}\n`));
    expect(noTargets.results[0].message).toBe('replacements must specify a source and at least one target');
    const wrong = await runBuiltin(`${IMG}:v0.1.2`, ITEMS, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n');
    expect(wrong.results[0].message).toBe(
      'received functionConfig of kind ConfigMap and apiVersion v1, only functionConfig of kind ApplyReplacements and apiVersion fn.kpt.dev/v1alpha1 is supported',
    );
    const absent = await runBuiltin(`${IMG}:v0.1.2`, ITEMS);
    expect(absent.results[0].message).toBe('FunctionConfig is missing. Expect `ApplyReplacements`');
  });

  it('label selectors', () => {
    expect(matchesLabelSelector('a=b,c', { a: 'b', c: '' })).toBe(true);
    expect(matchesLabelSelector('a!=b', { a: 'b' })).toBe(false);
    expect(matchesLabelSelector('a notin (x, y)', { a: 'z' })).toBe(true);
    expect(matchesLabelSelector('!a', { a: 'z' })).toBe(false);
  });
});
