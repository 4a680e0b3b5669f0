// Runtimes that load at first need (src/engine/lazy-runtime.ts): the module loads once, only for a
// function the runtime may take, and the default chain (Starlark loaded lazily) resolves and fails
// exactly as a chain built with the Starlark runtime loaded up front.
import { describe, expect, test } from 'vitest';
import {
  DEFAULT_LIMITS,
  createBuiltinRuntime,
  createRuntimeChain,
  createStarlarkRuntime,
  defaultRuntimes,
  type FunctionRuntime,
  type PipelineFunction,
  type ResolveContext,
} from 'krmfn';
import { createLazyRuntime } from '../../src/engine/lazy-runtime.ts';

const ctx = (displayName: string): ResolveContext => ({
  displayName,
  packagePath: '/',
  cwd: '/',
  allowExec: false,
  allowWasm: false,
  allowNetwork: false,
  limits: DEFAULT_LIMITS,
});

const echo: FunctionRuntime = {
  name: 'echo',
  resolve: async () => ({ kind: 'objects', run: async (input) => ({ output: input, stderr: '', exitCode: 0 }) }),
};

describe('createLazyRuntime', () => {
  test('loads once, at the first resolve, even for concurrent resolves', async () => {
    let loads = 0;
    const rt = createLazyRuntime('echo', async () => {
      loads++;
      return echo;
    });
    expect(rt.name).toBe('echo');
    expect(rt.loaded()).toBeUndefined();
    expect(loads).toBe(0);
    const fn = { image: 'example.com/echo:v1' };
    const runners = await Promise.all([rt.resolve(fn, ctx('a')), rt.resolve(fn, ctx('b')), rt.resolve(fn, ctx('c'))]);
    expect(runners.every((r) => r.kind === 'objects')).toBe(true);
    expect(loads).toBe(1);
    expect(rt.loaded()).toBe(echo);
  });

  test('a function mayTake refuses gets a NotFoundError and loads nothing', async () => {
    let loads = 0;
    const rt = createLazyRuntime(
      'echo',
      async () => {
        loads++;
        return echo;
      },
      { mayTake: (spec) => spec.image === 'mine' },
    );
    await expect(rt.resolve({ image: 'theirs' }, ctx('theirs'))).rejects.toMatchObject({ code: 'function-not-found' });
    await expect(rt.resolve({ exec: './fn' }, ctx('./fn'))).rejects.toMatchObject({ code: 'function-not-found' });
    expect(loads).toBe(0);
    await rt.resolve({ image: 'mine' }, ctx('mine'));
    expect(loads).toBe(1);
  });

  test('a failed load fails every resolve with its error', async () => {
    const rt = createLazyRuntime('broken', async () => {
      throw new Error('cannot load');
    });
    await expect(rt.resolve({ image: 'x' }, ctx('x'))).rejects.toThrow('cannot load');
    await expect(rt.resolve({ image: 'x' }, ctx('x'))).rejects.toThrow('cannot load');
  });
});

describe('the default chain with Starlark loaded lazily', () => {
  const eager = createRuntimeChain([createBuiltinRuntime(), createStarlarkRuntime()]);
  const lazy = createRuntimeChain(defaultRuntimes());
  const outcome = async (chain: FunctionRuntime, fn: PipelineFunction) => {
    try {
      const runner = await chain.resolve(fn, ctx(fn.image ?? fn.exec ?? ''));
      return { kind: runner.kind };
    } catch (e) {
      return { error: e instanceof Error ? e.message : String(e), code: (e as { code?: string }).code };
    }
  };
  const cases: PipelineFunction[] = [
    { image: 'gcr.io/kpt-fn/set-namespace:v0.4.1' },
    { image: 'gcr.io/kpt-fn/starlark:v0.4.3' },
    { image: 'starlark:v0.4' },
    { image: 'ghcr.io/kptdev/krm-functions-catalog/starlark:latest' },
    { image: 'gcr.io/kpt-fn/starlark:v9.9.9' },
    { image: 'gcr.io/kpt-fn/starlark@sha256:' + 'a'.repeat(64) },
    { image: 'example.com/fns/starlark-ish:v1' },
    { image: 'example.com/fns/unknown:v1' },
    { image: 'gcr.io/kpt-fn/no-such-function:v0.1' },
    { exec: './my-function' },
  ];
  test.each(cases)('%o resolves or fails the same', async (fn) => {
    expect(await outcome(lazy, fn)).toEqual(await outcome(eager, fn));
  });
  test('the chain names the lazy runtime as the eager one', () => {
    expect(defaultRuntimes().map((r) => r.name)).toEqual(['builtin', 'starlark']);
  });
});
