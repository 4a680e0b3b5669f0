import { describe, expect, it } from 'vitest';
import {
  byKind,
  defineMutator,
  defineValidator,
  processResourceList,
  processResourceListSync,
  toWasmGlobal,
} from 'krmfn/sdk';
import { runFunction, resourceListBuilder } from 'krmfn/sdk/testing';

const setTeam = defineMutator<{ team: string }>({
  name: 'set-team',
  config: { kind: 'SetTeam', schema: { type: 'object', required: ['team'], properties: { team: { type: 'string' } } } },
  run(ctx) {
    for (const o of ctx.items.where(byKind('Deployment'))) o.setLabel('team', ctx.config.team);
  },
});

const INPUT = `apiVersion: config.kubernetes.io/v1beta1
kind: ResourceList
items:
- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: web # the web app
    annotations:
      config.kubernetes.io/path: 'app.yaml'
      internal.config.kubernetes.io/path: 'app.yaml'
  spec:
    replicas: 3 # three
    flow: {a: 1, b: [x, y]}
functionConfig:
  apiVersion: v1
  kind: ConfigMap
  metadata:
    name: function-input
  data: {team: blue}
results:
- message: earlier
  severity: warn
`;

describe('processResourceList', () => {
  it('edits in place, keeps comments and styles, echoes wrapper, config and earlier results', async () => {
    const out = await processResourceList(setTeam, INPUT);
    expect(out.exitCode).toBe(0);
    expect(out.output).toBe(`apiVersion: config.kubernetes.io/v1beta1
kind: ResourceList
items:
- apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: web # the web app
    annotations:
      config.kubernetes.io/path: 'app.yaml'
      internal.config.kubernetes.io/path: 'app.yaml'
    labels:
      team: blue
  spec:
    replicas: 3 # three
    flow: {a: 1, b: [x, y]}
functionConfig:
  apiVersion: v1
  kind: ConfigMap
  metadata:
    name: function-input
  data: {team: blue}
results:
- message: earlier
  severity: warning
`);
  });

  it('accepts bytes, reports config errors with exit 1 and still prints the list', async () => {
    const out = await processResourceList(
      setTeam,
      new TextEncoder().encode('apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\n'),
    );
    expect(out.exitCode).toBe(1);
    expect(out.output).toContain('kind: ResourceList');
    expect(out.output).toContain('functionConfig is required');
  });

  it('turns unparsable input into an error result', async () => {
    const out = await processResourceList(setTeam, 'items: [\n');
    expect(out.exitCode).toBe(1);
    expect(out.results[0].message).toMatch(/^cannot parse the input ResourceList/);
    expect(out.output).toMatch(/^apiVersion: config.kubernetes.io\/v1\nkind: ResourceList\nitems: \[\]\n/);
  });

  it('reconciles a path changed in only one annotation form', async () => {
    const mover = defineMutator({
      name: 'mover',
      run: (ctx) => ctx.items.all[0].setAnnotation('internal.config.kubernetes.io/path', 'moved.yaml'),
    });
    const out = await processResourceList(mover, INPUT);
    expect(out.resourceList.items[0].getAnnotation('config.kubernetes.io/path')).toBe('moved.yaml');
  });
});

describe('runFunction and resourceListBuilder', () => {
  it('runs on YAML items and a string-map config', async () => {
    const out = await runFunction(setTeam, {
      items: 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: a\n',
      config: { team: 'red' },
    });
    expect(out.exitCode).toBe(0);
    expect(out.items[0].getLabel('team')).toBe('red');
  });

  it('builds inputs in code', async () => {
    const input = resourceListBuilder()
      .item({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } })
      .config({ team: 'a' })
      .build();
    const v = defineValidator({ name: 'count', run: (ctx) => void ctx.results.info(`${ctx.items.length} items`) });
    const out = await runFunction(v, { input });
    expect(out.results.map((r) => r.message)).toEqual(['1 items']);
  });
});

describe('toWasmGlobal and processResourceListSync', () => {
  it('installs the JS-global ABI for synchronous functions and removes it again', () => {
    const host: Record<string, unknown> = {};
    const remove = toWasmGlobal(setTeam, host);
    const prl = host['processResourceList'] as (s: string) => string;
    const errs = host['processResourceListErrors'] as (s: string) => string;
    expect(prl(INPUT)).toContain('      team: blue\n');
    const noConfig = 'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\n';
    expect(errs(noConfig)).toBe(
      'functionConfig is required: provide a `ConfigMap` (v1) or `SetTeam` (fn.kpt.dev/v1alpha1)',
    );
    remove();
    expect(host['processResourceList']).toBeUndefined();
  });

  it('refuses async functions with a clear message', () => {
    const slow = defineMutator({ name: 'slow', run: async () => {} });
    expect(() => processResourceListSync(slow, INPUT)).toThrow(
      'slow: run() returned a Promise; only synchronous functions can run synchronously',
    );
    const host: Record<string, unknown> = {};
    toWasmGlobal(slow, host);
    expect((host['processResourceList'] as (s: string) => string)(INPUT)).toMatch(
      /^unable to process resource list: slow: run\(\) returned a Promise/,
    );
  });
});
