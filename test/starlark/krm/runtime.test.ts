// The KRM starlark runner's host contract: limits from the RunContext stop runaway scripts as
// error results, validators never change items, open_api is converted only when used, and the
// environment is what the host grants.
import { describe, expect, it } from 'vitest';
import { runStarlarkFunction } from '../../../src/runtimes/starlark.ts';
import { DEFAULT_LIMITS } from '../../../src/core/limits.ts';
import type { Limits } from '../../../src/core/limits.ts';
import type { ResourceList, RunContext } from '../../../src/core/function.ts';
import { serializeResourceList } from '../../../src/core/resource-list.ts';
import { starlarkRunList } from './starlark-run-list.ts';

const list = (source: string): ResourceList => starlarkRunList(source, { data: { k: 'v' } });

function ctx(over: Partial<RunContext> = {}, limits: Partial<Limits> = {}): RunContext {
  return {
    limits: { ...DEFAULT_LIMITS, ...limits },
    signal: new AbortController().signal,
    deadline: Number.MAX_SAFE_INTEGER,
    now: () => 0,
    env: {},
    validator: false,
    ...over,
  };
}

describe('limits', () => {
  it('the step budget ends a runaway script with an error result', () => {
    const out = runStarlarkFunction(list('while True:\n  pass\n'), ctx({}, { maxSteps: 10_000 }));
    expect(out.exitCode).toBe(1);
    expect(out.output.results).toEqual([
      { message: 'Starlark computation cancelled: too many steps', severity: 'error' },
    ]);
  });
  it('the deadline is polled against the injected clock', () => {
    let t = 0;
    const out = runStarlarkFunction(list('while True:\n  pass\n'), ctx({ deadline: 50, now: () => t++ }));
    expect(out.output.results[0].message).toBe('Starlark computation cancelled: deadline exceeded');
  });
  it('an aborted signal cancels the script', () => {
    const ac = new AbortController();
    ac.abort('user cancelled');
    const out = runStarlarkFunction(list('while True:\n  pass\n'), ctx({ signal: ac.signal }));
    expect(out.output.results[0].message).toBe('Starlark computation cancelled: user cancelled');
  });
  it('the memory budget bounds allocation', () => {
    const out = runStarlarkFunction(list('s = "x"\nwhile True:\n  s += s\n'), ctx({}, { maxMemoryBytes: 1 << 20 }));
    expect(out.output.results[0].message).toMatch(/^Starlark computation cancelled: allocation budget exceeded/);
  });
  it('the output budget bounds prints', () => {
    const out = runStarlarkFunction(list('while True:\n  print("x" * 100)\n'), ctx({}, { maxOutputBytes: 5_000 }));
    expect(out.output.results[0].message).toMatch(/^Starlark computation cancelled: output budget exceeded/);
  });
  it('deep recursion is a Starlark stack overflow', () => {
    const out = runStarlarkFunction(list('def f(n):\n  return f(n + 1)\nf(0)\n'), ctx());
    expect(out.output.results[0].message).toBe('Starlark stack overflow');
  });
});

describe('host contract', () => {
  it('a validator run leaves items untouched even if the script edits them', () => {
    const input = list('ctx.resource_list["items"][0]["data"]["k"] = "changed"\nprint("validated")\n');
    const before = serializeResourceList(input.items);
    const out = runStarlarkFunction(input, ctx({ validator: true }));
    expect(out.exitCode).toBe(0);
    expect(out.stderr).toBe('validated');
    expect(serializeResourceList(out.output.items)).toBe(before);
  });
  it('converts open_api only when the script reads it', () => {
    let calls = 0;
    const openApi = (): unknown => {
      calls++;
      return { definitions: { x: { type: 'object' } } };
    };
    runStarlarkFunction(list('x = 1\n'), ctx(), { openApi });
    expect(calls).toBe(0);
    const out = runStarlarkFunction(
      list('print(ctx.open_api["definitions"]["x"]["type"], ctx.open_api == ctx.open_api)\n'),
      ctx(),
      { openApi },
    );
    expect(calls).toBe(1);
    expect(out.stderr).toBe('object True');
  });
  it('sees only the environment the user passed explicitly', () => {
    const out = runStarlarkFunction(list('print(ctx.environment)\n'), ctx(), {
      environment: { STAGE: 'prod', é: 'ü' },
    });
    expect(out.stderr).toBe('{"STAGE": "prod", "é": "ü"}');
  });
  it('never sees the host environment of the run context', () => {
    const out = runStarlarkFunction(
      list('print(ctx.environment)\n'),
      ctx({ env: { SECRET_TEST_VAR: 'leaked', HOME: '/root' } }),
    );
    expect(out.exitCode).toBe(0);
    expect(out.stderr).toBe('{}');
  });
  it('keeps the same KubeObject for an edited input item', () => {
    const input = list('ctx.resource_list["items"][0]["data"]["k"] = "w"\n');
    const original = input.items[0];
    const out = runStarlarkFunction(input, ctx());
    expect(out.output.items[0]).toBe(original);
    expect(out.output.items[0].getNode('data.k')?.value).toBe('w');
    expect(out.output.items[0].getAnnotation('internal.config.kubernetes.io/id')).toBeUndefined();
  });
  it('the only predeclared name is ctx', () => {
    const out = runStarlarkFunction(list('print(json)\n'), ctx());
    expect(out.output.results[0].message).toBe('script:1:7: undefined: json');
  });
});
