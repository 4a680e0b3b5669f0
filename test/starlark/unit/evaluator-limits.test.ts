// Sandbox limits on the thread: steps, deadline (polled through an injected clock), call depth,
// allocation, output, host cancellation; all sticky once hit.
import { describe, expect, it } from 'vitest';
import { execFile, isStarlarkLimitError, StarlarkThread, POLL_INTERVAL } from 'krmfn/starlark';
import type { ExecOptions, StarlarkLimitError } from 'krmfn/starlark';

const ALL = { set: true, while: true, topLevelControl: true, globalReassign: true, recursion: true };

function limitError(opts: Partial<ExecOptions> & { source: string }): StarlarkLimitError {
  try {
    execFile({ filename: 'l.star', dialect: ALL, ...opts });
  } catch (e) {
    if (!isStarlarkLimitError(e)) throw e;
    return e;
  }
  throw new Error('no limit hit');
}

const RUNAWAY = 'def f():\n  while True:\n    pass\nf()';

describe('step budget', () => {
  it('stops a runaway loop', () => {
    const e = limitError({ source: RUNAWAY, limits: { maxSteps: 10_000 } });
    expect(e.limit).toBe('steps');
    expect(e.message).toBe('Starlark computation cancelled: too many steps');
    expect(e.code).toBe('starlark-limit');
    expect(e.backtrace.map((f) => f.name)).toEqual(['<toplevel>', 'f']);
  });

  it('reports the loop that was running when the budget ran out', () => {
    const e = limitError({ source: 'def spin():\n  while True:\n    pass\nspin()', limits: { maxSteps: 10_000 } });
    expect(e.format()).toBe(
      'Traceback (most recent call last):\n  l.star:4:5: in <toplevel>\n  l.star:2:3: in spin\nError: Starlark computation cancelled: too many steps',
    );
  });

  it('counts loop iterations and calls exactly enough to allow a bounded program', () => {
    const src = 'def g():\n  pass\ndef f():\n  for i in range(100):\n    g()\nf()';
    const t = new StarlarkThread({ limits: { maxSteps: 1000 } });
    execFile({ filename: 'l.star', source: src, thread: t });
    // 100 iterations + 100 calls of g + the calls of f and range
    expect(t.steps).toBe(202);
    expect(() => execFile({ filename: 'l.star', source: src, limits: { maxSteps: 150 } })).toThrow('too many steps');
  });

  it('stops runaway recursion through comprehensions and builtins', () => {
    const src = 'def f():\n  return [sorted([1]) for i in range(100000000)]\nf()';
    expect(limitError({ source: src, limits: { maxSteps: 5000 } }).limit).toBe('steps');
  });

  it('is sticky: the thread stays cancelled', () => {
    const t = new StarlarkThread({ limits: { maxSteps: 100 } });
    expect(() => execFile({ filename: 'l.star', source: RUNAWAY, thread: t, dialect: ALL })).toThrow('too many steps');
    expect(() =>
      execFile({ filename: 'l.star', source: 'def f():\n  for i in range(2):\n    pass\nf()', thread: t }),
    ).toThrow('too many steps');
  });
});

describe('deadline', () => {
  it('polls the injected clock and stops at the deadline', () => {
    let now = 1000;
    let reads = 0;
    const clock = (): number => {
      reads++;
      now += 1; // each poll advances the fake clock by 1 ms
      return now;
    };
    const e = limitError({ source: RUNAWAY, limits: { deadline: 1050, now: clock } });
    expect(e.limit).toBe('deadline');
    expect(e.message).toBe('Starlark computation cancelled: deadline exceeded');
    // about one clock read per POLL_INTERVAL steps, not one per step
    expect(reads).toBe(51);
  });

  it('uses Date.now by default', () => {
    const e = limitError({ source: RUNAWAY, limits: { deadline: Date.now() + 30 } });
    expect(e.limit).toBe('deadline');
  });
});

describe('call depth', () => {
  it('reports Starlark stack overflow at the configured depth', () => {
    const e = limitError({ source: 'def f(n):\n  return f(n + 1)\nf(0)', limits: { maxCallDepth: 50 } });
    expect(e.limit).toBe('depth');
    expect(e.message).toBe('Starlark stack overflow');
    expect(e.backtrace.length).toBe(51);
  });

  it('never leaks a JS RangeError, even with a huge configured depth', () => {
    const e = limitError({ source: 'def f(n):\n  return [f(n + 1)]\nf(0)', limits: { maxCallDepth: 10_000_000 } });
    expect(e.limit).toBe('depth');
    expect(e.message).toBe('Starlark stack overflow');
  });

  it('allows deep recursion within the default depth', () => {
    const out: string[] = [];
    execFile({
      filename: 'l.star',
      source: 'def d(n):\n  return 0 if n == 0 else 1 + d(n - 1)\nprint(d(500))',
      dialect: ALL,
      print: (m) => out.push(m),
    });
    expect(out).toEqual(['500']);
  });
});

describe('allocation budget', () => {
  it('stops string doubling', () => {
    const e = limitError({
      source: 'def f():\n  s = "x"\n  for i in range(100):\n    s += s\nf()',
      limits: { maxAllocBytes: 1 << 20 },
    });
    expect(e.limit).toBe('alloc');
    expect(e.message).toBe(`Starlark computation cancelled: allocation budget exceeded (${1 << 20} bytes)`);
  });

  it('stops list growth by comprehension', () => {
    const e = limitError({ source: 'x = [i for i in range(10000000)]', limits: { maxAllocBytes: 100_000 } });
    expect(e.limit).toBe('alloc');
  });

  it('stops list growth by +=', () => {
    const e = limitError({
      source: 'def f():\n  l = []\n  for i in range(1000000):\n    l += [1, 2, 3, 4]\nf()',
      limits: { maxAllocBytes: 100_000 },
    });
    expect(e.limit).toBe('alloc');
  });

  it('stops dict growth by item assignment', () => {
    const e = limitError({
      source: 'd = {}\nn = 0\nwhile True:\n  d[n] = n\n  n += 1',
      limits: { maxAllocBytes: 1 << 20 },
    });
    expect(e.limit).toBe('alloc');
  });

  it('stops growth through nested list literals', () => {
    const e = limitError({ source: 'l = []\nwhile True:\n  l.append([1, 2])', limits: { maxAllocBytes: 1 << 20 } });
    expect(e.limit).toBe('alloc');
  });

  it('lets small programs run', () => {
    expect(() =>
      execFile({
        filename: 'l.star',
        source: 'x = [i for i in range(100)]\ny = "a" * 10',
        limits: { maxAllocBytes: 100_000 },
      }),
    ).not.toThrow();
  });
});

describe('output budget', () => {
  it('stops printing past the budget', () => {
    const out: string[] = [];
    const e = limitError({
      source: 'def f():\n  for i in range(1000):\n    print("0123456789")\nf()',
      limits: { maxOutputBytes: 100 },
      print: (m) => out.push(m),
    });
    expect(e.limit).toBe('output');
    expect(out.length).toBe(9); // 9 lines of 11 bytes fit in 100
  });
});

describe('cancellation', () => {
  it('stops at the next poll after an abort', () => {
    const ac = new AbortController();
    let printed = 0;
    const src = 'def f():\n  for i in range(100000000):\n    if i % 1000 == 0:\n      print(i)\nf()';
    const e = limitError({
      source: src,
      limits: { signal: ac.signal },
      print: () => {
        if (++printed === 3) ac.abort('host shutdown');
      },
    });
    expect(e.limit).toBe('cancelled');
    expect(e.message).toBe('Starlark computation cancelled: host shutdown');
    expect(printed).toBeLessThanOrEqual(3 + Math.ceil(POLL_INTERVAL / 1000) + 1);
  });

  it('thread.cancel keeps the first reason', () => {
    const t = new StarlarkThread({
      print: () => {
        t.cancel('first');
        t.cancel('second');
      },
    });
    expect(() =>
      execFile({ filename: 'l.star', source: 'def f():\n  print(1)\n  for i in range(10):\n    pass\nf()', thread: t }),
    ).toThrow('Starlark computation cancelled: first');
    expect(t.cancellation?.message).toBe('Starlark computation cancelled: first');
  });
});
