import { describe, expect, it } from 'vitest';
import {
  byKind,
  ConfigError,
  defineGenerator,
  defineMutator,
  defineValidator,
  executeFunction,
  KubeObject,
  parseObject,
  ResultsError,
  bySelector,
  sortResults,
  versionedApi,
  type ResourceList,
} from 'krmfn/sdk';

const list = (): ResourceList => ({
  items: [
    KubeObject.fromJS({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', annotations: { 'config.kubernetes.io/path': 'web.yaml' } },
    }),
    KubeObject.fromJS({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cfg', labels: { tier: 'db' } },
      data: { a: '1' },
    }),
  ],
  results: [{ message: 'from an earlier step', severity: 'info' }],
});

const setTeam = defineMutator<{ team: string }>({
  name: 'set-team',
  config: { kind: 'SetTeam', schema: { type: 'object', required: ['team'], properties: { team: { type: 'string' } } } },
  run(ctx) {
    for (const o of ctx.items.where(byKind('Deployment'))) {
      o.setLabel('team', ctx.config.team);
      ctx.results.info(`labelled ${o.name}`, { object: o, field: 'metadata.labels.team' });
    }
  },
});

const cm = (data: Record<string, string>): KubeObject =>
  KubeObject.fromJS({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'function-input' }, data });

describe('executeFunction', () => {
  it('runs a mutator with typed config and fills results from the object', async () => {
    const l = { ...list(), functionConfig: cm({ team: 'blue' }) };
    const out = await executeFunction(setTeam, l);
    expect(out.exitCode).toBe(0);
    expect(l.items[0].getLabel('team')).toBe('blue');
    expect(out.results).toEqual([
      {
        message: 'labelled web',
        severity: 'info',
        resourceRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
        field: { path: 'metadata.labels.team', currentValue: 'blue' },
        file: { path: 'web.yaml', index: 0 },
      },
    ]);
    expect(l.results.map((r) => r.message)).toEqual(['from an earlier step', 'labelled web']);
    expect(l.items.every((o) => o.access === 'full')).toBe(true);
  });

  it('turns a config error into an error result and exit 1 without running', async () => {
    const l = list();
    const out = await executeFunction(setTeam, l);
    expect(out.exitCode).toBe(1);
    expect(out.results.map((r) => r.message)).toEqual([
      'functionConfig is required: provide a `ConfigMap` (v1) or `SetTeam` (fn.kpt.dev/v1alpha1)',
    ]);
    expect(l.items[0].getLabel('team')).toBeUndefined();
  });

  it('makes validators read-only and exits 1 on error results', async () => {
    const v = defineValidator({
      name: 'no-cm',
      run(ctx) {
        for (const o of ctx.items.where(bySelector({ kinds: ['ConfigMap'] })))
          ctx.results.error('ConfigMaps are not allowed', { object: o });
        ctx.items.all[0].set('spec.x', 1);
      },
    });
    const l = list();
    const out = await executeFunction(v, l);
    expect(out.exitCode).toBe(2);
    expect(out.results.map((r) => r.message)).toEqual([
      'ConfigMaps are not allowed',
      'cannot change spec.x: the object is read-only (validators may not edit items)',
    ]);
    expect(l.items[0].has('spec.x')).toBe(false);
  });

  it('lets mutators add, upsert and remove items; generators only add', async () => {
    const m = defineMutator({
      name: 'm',
      run(ctx) {
        ctx.items.add({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } });
        ctx.items.upsert({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg' }, data: { b: '2' } });
        ctx.items.remove(byKind('Deployment'));
      },
    });
    const l = list();
    await executeFunction(m, l);
    expect(l.items.map((o) => `${o.kind}/${o.name}`)).toEqual(['ConfigMap/cfg', 'Secret/s']);
    expect(l.items[0].get('data')).toEqual({ b: '2' });

    const g = defineGenerator({ name: 'g', run: (ctx) => void ctx.items.remove(byKind('ConfigMap')) });
    const out = await executeFunction(g, list());
    expect(out.exitCode).toBe(2);
    expect(out.results[0].message).toMatch(/read-only/);
  });

  it('appends ResultsError results, reports ConfigError, and maps uncaught errors to exit 2', async () => {
    const thrower = (e: unknown) =>
      defineMutator({
        name: 't',
        run: () => {
          throw e;
        },
      });
    const r1 = await executeFunction(thrower(new ResultsError([{ message: 'bad', severity: 'error' }])), list());
    expect([r1.exitCode, r1.results.map((r) => r.message)]).toEqual([1, ['bad']]);
    const r2 = await executeFunction(thrower(new ConfigError('need x', 'data.x')), list());
    expect([r2.exitCode, r2.results[0].field]).toEqual([1, { path: 'data.x' }]);
    const r3 = await executeFunction(thrower(new Error('boom')), list());
    expect([r3.exitCode, r3.results[0].message]).toEqual([2, 'boom']);
    expect(r3.log[0]).toMatch(/^Error: boom/);
    const r4 = await executeFunction(thrower(new Error('boom')), list(), {
      uncaughtExitCode: 1,
      uncaughtResult: false,
      logStack: false,
    });
    expect([r4.exitCode, r4.results, r4.log]).toEqual([1, [], ['boom']]);
  });

  it('refuses writes to orchestrator annotations', async () => {
    const m = defineMutator({ name: 'm', run: (ctx) => ctx.items.all[0].setAnnotation('config.k8s.io/id', '7') });
    const out = await executeFunction(m, list());
    expect(out.results[0].message).toMatch(/config\.k8s\.io\/id is set by the orchestrator/);
  });

  it('honours ctx.exitCode and sorts results on request', async () => {
    const m = defineMutator({
      name: 'm',
      run(ctx) {
        ctx.results.error('b', { file: { path: 'z.yaml' } });
        ctx.results.warning('a', { file: { path: 'a.yaml' } });
        ctx.results.info('c', { file: { path: 'a.yaml' } });
        ctx.exitCode = 0;
      },
    });
    const out = await executeFunction(m, list());
    expect(out.exitCode).toBe(0);
    expect(sortResults(out.results).map((r) => r.message)).toEqual(['a', 'c', 'b']);
  });
});

describe('versionedApi', () => {
  const v1 = defineMutator<{ owner: string }>({
    name: 'own',
    config: {
      kind: 'Own',
      apiVersions: ['example.com/v1'],
      schema: { type: 'object', required: ['owner'], properties: { owner: { type: 'string' } } },
    },
    run: (ctx) => ctx.items.all.forEach((o) => o.setAnnotation('owner', ctx.config.owner)),
  });
  const v2 = defineMutator<{ owners: string[] }>({
    name: 'own',
    config: {
      kind: 'Own',
      apiVersions: ['example.com/v2'],
      schema: {
        type: 'object',
        required: ['owners'],
        properties: { owners: { type: 'array', items: { type: 'string' } } },
      },
    },
    run: (ctx) => ctx.items.all.forEach((o) => o.setAnnotation('owner', ctx.config.owners.join(','))),
  });
  const fn = versionedApi({ 'example.com/v1': v1, 'example.com/v2': v2 }, { name: 'own', default: 'example.com/v1' });

  it('dispatches on the config apiVersion, ConfigMaps go to the default', async () => {
    const run = async (fc: KubeObject): Promise<string | undefined> => {
      const l = { ...list(), functionConfig: fc };
      await executeFunction(fn, l);
      return l.items[0].getAnnotation('owner');
    };
    expect(
      await run(
        KubeObject.fromJS({ apiVersion: 'example.com/v2', kind: 'Own', metadata: { name: 'x' }, owners: ['a', 'b'] }),
      ),
    ).toBe('a,b');
    expect(
      await run(KubeObject.fromJS({ apiVersion: 'example.com/v1', kind: 'Own', metadata: { name: 'x' }, owner: 'c' })),
    ).toBe('c');
    expect(await run(cm({ owner: 'd' }))).toBe('d');
    const bad = await executeFunction(fn, {
      ...list(),
      functionConfig: KubeObject.fromJS({ apiVersion: 'example.com/v3', kind: 'Own', metadata: { name: 'x' } }),
    });
    expect([bad.exitCode, bad.results[0].message]).toEqual([
      1,
      'unsupported functionConfig apiVersion "example.com/v3": expected one of example.com/v1, example.com/v2',
    ]);
  });

  it('parseObject keeps comments', () => {
    const o = parseObject(
      '# head\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x # the name\n  annotations:\n    config.kubernetes.io/path: a.yaml\n',
    );
    expect(o.source).toEqual({ path: 'a.yaml', index: 0, line: 2 });
    expect(o.comments('metadata.name')).toEqual({ line: '# the name' });
    expect(() => parseObject('a: 1\n---\nb: 2\n')).toThrow(/expected one YAML document, found 2/);
  });
});
