import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LIMITS,
  isNotFoundError,
  KubeObject,
  type ObjectsRunner,
  type ResolveContext,
  type RunContext,
} from 'krmfn';
import { defineBuiltin, defineMutator } from 'krmfn/sdk';
import { createBuiltinRuntime, createFunctionRuntime } from '../../src/index.ts';

const resolveCtx: ResolveContext = {
  displayName: '',
  packagePath: '/',
  cwd: '/',
  allowExec: false,
  allowWasm: false,
  allowNetwork: false,
  limits: DEFAULT_LIMITS,
};
const runCtx = (validator = false): RunContext => ({
  limits: DEFAULT_LIMITS,
  signal: new AbortController().signal,
  deadline: Date.now() + 60_000,
  now: () => 0,
  env: {},
  validator,
});

const probe = defineBuiltin({
  name: 'probe',
  versions: ['v0.1.0', 'v0.2.0', 'v0.2.1'],
  configKinds: [],
  summary: 'test',
  fn: defineMutator({
    name: 'probe',
    run(ctx) {
      if (ctx.items.length === 0) throw new Error('no items, crashing like a container');
      for (const o of ctx.items) o.setAnnotation('seen-version', ctx.image?.version ?? '');
      ctx.results.info(`tag ${ctx.image?.tag}`);
    },
  }),
});

const item = (): KubeObject => KubeObject.fromJS({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } });

describe('createBuiltinRuntime', () => {
  const rt = createBuiltinRuntime([probe]);

  it('resolves catalog images to objects runners that see the resolved version', async () => {
    const runner = (await rt.resolve(
      { image: 'ghcr.io/kptdev/krm-functions-catalog/probe:v0.2' },
      resolveCtx,
    )) as ObjectsRunner;
    expect(runner.kind).toBe('objects');
    const input = { items: [item()], results: [] };
    const out = await runner.run(input, runCtx());
    expect(out.exitCode).toBe(0);
    expect(out.output.items[0].getAnnotation('seen-version')).toBe('v0.2.1');
    expect(out.output.results).toEqual([{ message: 'tag v0.2', severity: 'info' }]);
  });

  it('throws NotFoundError for other images, tags, digests and exec', async () => {
    for (const spec of [
      { image: 'gcr.io/kpt-fn/other:v0.1.0' },
      { image: 'gcr.io/kpt-fn/probe:v0.3.0' },
      { image: 'gcr.io/kpt-fn/probe@sha256:00' },
      { image: 'docker.io/x/probe:v0.1.0' },
      { exec: './fn' },
    ]) {
      await expect(rt.resolve(spec, resolveCtx)).rejects.toSatisfy(isNotFoundError);
    }
  });

  it('turns an exception into exit 1 with the message on stderr and no result (container semantics)', async () => {
    const runner = (await rt.resolve({ image: 'probe:v0.1.0' }, resolveCtx)) as ObjectsRunner;
    const out = await runner.run({ items: [], results: [] }, runCtx());
    expect([out.exitCode, out.stderr, out.output.results]).toEqual([1, 'no items, crashing like a container', []]);
  });

  it('lets a function run as a validator write (the engine discards clones, as kpt does)', async () => {
    const runner = (await rt.resolve({ image: 'probe:v0.1.0' }, resolveCtx)) as ObjectsRunner;
    const out = await runner.run({ items: [item()], results: [] }, runCtx(true));
    expect(out.exitCode).toBe(0);
  });
});

describe('createFunctionRuntime', () => {
  it('runs host SDK functions by exact image with the SDK exit codes', async () => {
    const rt = createFunctionRuntime({ 'example.com/probe:v1': probe.fn });
    const runner = (await rt.resolve({ image: 'example.com/probe:v1' }, resolveCtx)) as ObjectsRunner;
    const out = await runner.run({ items: [], results: [] }, runCtx());
    expect(out.exitCode).toBe(2);
    expect(out.output.results[0].message).toBe('no items, crashing like a container');
    await expect(rt.resolve({ image: 'example.com/probe:v2' }, resolveCtx)).rejects.toSatisfy(isNotFoundError);
  });
});
