/**
 * ServeWorkerPool with real worker processes (a stand-in worker script speaking the pool's protocol):
 * a job that spins is stopped by its signal, a worker that throws, exits or runs out of heap fails
 * only its own job, every lost worker is replaced, and queued jobs run in order.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { isKrmfnError, LimitExceededError } from '../../src/core/errors.ts';
import { ServeWorkerPool } from '../../src/node/serve/worker-pool.ts';

const SCRIPT = new URL('./fixtures/workers/behaviours.mjs', import.meta.url);
const pools: ServeWorkerPool[] = [];
afterEach(async () => {
  for (const p of pools.splice(0)) await p.close();
});

function pool(size = 1, maxHeapMb?: number): ServeWorkerPool {
  const p = new ServeWorkerPool({
    script: SCRIPT,
    setup: { config: {} as never, functions: [] },
    size,
    ...(maxHeapMb ? { maxHeapMb } : {}),
  });
  pools.push(p);
  return p;
}

async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; !cond(); i++) {
    if (i > 1000) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const job = (image: string) => ({
  op: 'run' as const,
  req: { image, input: new Uint8Array(), format: 'yaml' as const, deadline: 0 },
});
const never = new AbortController().signal;
const text = (r: unknown): string => new TextDecoder().decode((r as { stdout: Uint8Array }).stdout);

describe('ServeWorkerPool', () => {
  it('answers jobs from a worker', async () => {
    const p = pool();
    expect(text(await p.call(job('hello'), never))).toBe('hello');
    expect(p.spawned).toBe(1);
  });

  it('stops a spinning job when its signal fires and replaces the worker', async () => {
    const p = pool();
    const ac = new AbortController();
    const spinning = p.call(job('spin'), ac.signal);
    const queued = p.call(job('after'), never);
    await until(() => p.running === 1);
    ac.abort(new LimitExceededError('deadline', 'request did not finish within 100 ms'));
    await expect(spinning).rejects.toThrow('request did not finish within 100 ms');
    expect(text(await queued)).toBe('after');
    expect(p.spawned).toBe(2);
  });

  it.each(['throw', 'exit'])('fails only the job whose worker dies (%s)', async (how) => {
    const p = pool();
    const err = await p.call(job(how), never).catch((e: unknown) => e);
    expect(isKrmfnError(err) && err.code).toBe('internal');
    expect((err as Error).message).toMatch(/^render worker (failed|exited)/);
    expect(text(await p.call(job('still here'), never))).toBe('still here');
    expect(p.lost).toBe(1);
  });

  it('fails a job whose worker runs out of its heap, and carries on', async () => {
    const p = pool(1, 16);
    const err = await p.call(job('oom'), never).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/render worker (failed|exited)/);
    expect(text(await p.call(job('fine'), never))).toBe('fine');
  });

  it('turns a worker-side error back into the same kind of krmfn error', async () => {
    const err = await pool()
      .call(job('fail'), never)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LimitExceededError);
    expect((err as LimitExceededError).code).toBe('timeout');
  });

  it('starts its workers ahead of the first job when prewarmed', async () => {
    const p = pool(2);
    p.prewarm();
    expect(p.size).toBe(2);
    const out = await Promise.all([p.call(job('one'), never), p.call(job('two'), never)]);
    expect(out.map(text)).toEqual(['one', 'two']);
    expect(p.spawned).toBe(2);
  });

  it('queues jobs beyond its size and runs them all', async () => {
    const p = pool(2);
    const names = Array.from({ length: 6 }, (_, i) => `job-${i}`);
    const out = await Promise.all(names.map((n) => p.call(job(n), never)));
    expect(out.map(text)).toEqual(names);
    expect(p.spawned).toBe(2);
  });

  it('drops a queued job whose signal fires before a worker is free', async () => {
    const p = pool();
    const ac = new AbortController();
    const stop = new AbortController();
    const spinning = p.call(job('spin'), stop.signal);
    const waiting = p.call(job('never runs'), ac.signal);
    ac.abort(new Error('client went away'));
    await expect(waiting).rejects.toThrow('client went away');
    stop.abort(new Error('stop'));
    await expect(spinning).rejects.toThrow('stop');
  });
});
