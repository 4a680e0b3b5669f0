/** kpt's Go js/wasm ABI against real Go builds: Go 1.19 (`go` imports) and Go 1.23 (`gojs`). */
import { describe, expect, it } from 'vitest';
import { callProcessResourceList, classifyModule, GoJsInstance, prepareModule, type PreparedModule } from 'krmfn/wasm';
import { configMapList, fixture } from './fixtures.ts';

const MiB = 1048576;
const cache = new Map<string, Promise<PreparedModule>>();
const prep = (name: string, maxMemoryBytes = 256 * MiB): Promise<PreparedModule> => {
  const key = `${name}/${maxMemoryBytes}`;
  if (!cache.has(key)) cache.set(key, prepareModule(fixture(name), { maxMemoryBytes }));
  return cache.get(key)!;
};
const input = (data: Record<string, string> = {}, n = 2): string =>
  JSON.stringify(
    configMapList(n, {
      functionConfig: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'function-input' }, data },
    }),
  );

async function started(name: string, maxMemoryBytes?: number): Promise<GoJsInstance> {
  const inst = new GoJsInstance(await prep(name, maxMemoryBytes));
  const s = await inst.start();
  expect(s.failure).toBeUndefined();
  return inst;
}

describe.each([
  ['gojs-setns-go119', 'go'],
  ['gojs-setns-go123', 'gojs'],
])('%s', (name, namespace) => {
  it(`is classified as Go js/wasm with imports from "${namespace}"`, async () => {
    expect(classifyModule((await prep(name)).module)).toEqual({ abi: 'gojs', namespace });
  });

  it('runs processResourceList and keeps the instance warm across calls', async () => {
    const inst = await started(name);
    for (const ns of ['one', 'two']) {
      const r = callProcessResourceList(inst, input({ namespace: ns }));
      expect(r.ok).toBe(true);
      const rl = JSON.parse(r.output);
      expect(rl.items.map((i: { metadata: { namespace: string } }) => i.metadata.namespace)).toEqual([ns, ns]);
      expect(rl.results).toEqual([{ message: `namespace "${ns}" set on 2 resources`, severity: 'info' }]);
    }
    expect(inst.isDead).toBe(false);
  });

  it('returns the SDK error string and the error results through processResourceListErrors', async () => {
    const inst = await started(name);
    const r = callProcessResourceList(inst, input({ fail: 'true' }));
    expect(r).toMatchObject({
      ok: false,
      output: 'unable to process resource list: error: function failure',
      errors: 'namespace failure requested',
    });
    // The program survives an SDK-level failure; the next call works.
    expect(callProcessResourceList(inst, input()).ok).toBe(true);
  });

  it('sends what Go prints to stderr, never to the output', async () => {
    const inst = await started(name);
    const r = callProcessResourceList(inst, input({ print: 'hello from go' }));
    expect(r.ok).toBe(true);
    expect(r.stderr).toBe('hello from go\n');
    expect(JSON.parse(r.output).kind).toBe('ResourceList');
  });

  it("reports a panic as a failure with Go's message, and the instance is dead", async () => {
    const inst = await started(name);
    const r = callProcessResourceList(inst, input({ panic: 'true' }));
    expect(r.ok).toBe(false);
    expect(r.failure?.kind).toBe('trap');
    expect(r.failure?.message).toBe('Go program exited with code 2');
    expect(r.stderr).toContain('panic: requested panic');
    expect(inst.isDead).toBe(true);
    expect(() => inst.processResourceList(input())).toThrow('Go program has already exited');
  });

  it('refuses a cap below the initial memory', async () => {
    await expect(prepareModule(fixture(name), { maxMemoryBytes: 16 * MiB })).rejects.toMatchObject({ kind: 'memory' });
  });

  it('runs out of memory under a tight cap with a memory failure', async () => {
    const inst = await started(name, 32 * MiB);
    const big = input({}, 20_000);
    const r = callProcessResourceList(inst, big);
    expect(r.failure?.kind).toBe('memory');
    expect(r.failure?.message).toMatch(/^function exceeded the memory limit of 32 MiB/);
    expect(inst.isDead).toBe(true);
  });
});

describe('Go js/wasm start-up', () => {
  it('fails as out of memory when the runtime cannot start under the cap (Go 1.23 needs more than 24 MiB)', async () => {
    const inst = new GoJsInstance(await prep('gojs-setns-go123', 24 * MiB));
    const s = await inst.start();
    expect(s.failure?.kind).toBe('memory');
    expect(s.failure?.message).toMatch(/^function exceeded the memory limit of 24 MiB/);
    expect(inst.isDead).toBe(true);
  });
});
