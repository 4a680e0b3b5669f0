// Sandbox limits (docs/starlark.md, "The language", issue item 3): each budget stops a runaway script with a
// Starlark limit error (never a host crash or hang), and cancellation is sticky.
import { describe, expect, it } from 'vitest';
import { execFile, isStarlarkLimitError, isStarlarkEvalError, StarlarkThread } from '../../../src/starlark/index.ts';
import type { StarlarkLimits, Dialect } from '../../../src/starlark/index.ts';

const KRM: Dialect = { set: true, while: true, topLevelControl: true, globalReassign: true, recursion: true };

function run(source: string, limits: StarlarkLimits, print?: (m: string) => void): unknown {
  try {
    execFile({ filename: 'limits.star', source, dialect: KRM, limits, ...(print ? { print } : {}) });
    return null;
  } catch (e) {
    return e;
  }
}

function expectLimit(e: unknown, limit: string, message: string | RegExp): void {
  expect(isStarlarkLimitError(e), String(e)).toBe(true);
  if (!isStarlarkLimitError(e)) return;
  expect(e.limit).toBe(limit);
  if (typeof message === 'string') expect(e.message).toBe(message);
  else expect(e.message).toMatch(message);
  expect(e.backtrace.length).toBeGreaterThan(0);
  expect(e.backtrace[0].name).toBe('<toplevel>');
}

const RUNAWAY = {
  'a for loop': 'for i in range(1 << 40):\n  pass\n',
  'a while loop': 'while True:\n  pass\n',
  recursion: 'def f(n):\n  return f(n + 1) + 1 if n < (1 << 40) else 0\nf(0)\n',
  'a comprehension': 'x = [i for i in range(1 << 40)]\n',
  'calls in a loop': 'def g():\n  return 1\nwhile True:\n  g()\n',
};

describe('step budget', () => {
  for (const [name, src] of Object.entries(RUNAWAY)) {
    if (name === 'recursion') continue;
    it(`stops ${name}`, () => {
      expectLimit(run(src, { maxSteps: 50_000 }), 'steps', 'Starlark computation cancelled: too many steps');
    });
  }
  it('lets a script within the budget finish, and counts steps', () => {
    const { thread } = execFile({
      filename: 'ok.star',
      source: 'def f():\n  for i in range(1000):\n    pass\nf()\n',
      limits: { maxSteps: 100_000 },
    });
    expect(thread.steps).toBeGreaterThanOrEqual(1000);
    expect(thread.steps).toBeLessThan(100_000);
  });
  it('is shared by code run on one thread', () => {
    const thread = new StarlarkThread({ limits: { maxSteps: 30_000 } });
    const src = 'def f():\n  for i in range(10000):\n    pass\nf()\n';
    execFile({ filename: 'a.star', source: src, thread });
    execFile({ filename: 'b.star', source: src, thread });
    let err: unknown = null;
    try {
      for (let i = 0; i < 5; i++) execFile({ filename: 'c.star', source: src, thread });
    } catch (e) {
      err = e;
    }
    expectLimit(err, 'steps', 'Starlark computation cancelled: too many steps');
  });
});

describe('deadline', () => {
  for (const [name, src] of Object.entries(RUNAWAY)) {
    it(`stops ${name} by polling the injected clock`, () => {
      let t = 1_000;
      const now = (): number => (t += 1); // a fake clock: time moves only when polled
      const e = run(src, { deadline: 1_200, now, maxCallDepth: 1_000_000 });
      if (name === 'recursion' && isStarlarkLimitError(e) && e.limit === 'depth') return; // depth may win
      expectLimit(e, 'deadline', 'Starlark computation cancelled: deadline exceeded');
      expect(t).toBeGreaterThan(1_200);
    });
  }
  it('polls the clock rarely (not every step)', () => {
    let polls = 0;
    run('def f():\n  for i in range(100000):\n    pass\nf()\n', {
      deadline: Number.MAX_SAFE_INTEGER,
      now: () => (polls++, 0),
    });
    expect(polls).toBeGreaterThan(0);
    expect(polls).toBeLessThan(1000);
  });
});

describe('call depth', () => {
  it('stops unbounded recursion with "Starlark stack overflow", never a RangeError', () => {
    const e = run('def f(n):\n  return f(n + 1)\nf(0)\n', {});
    expectLimit(e, 'depth', 'Starlark stack overflow');
  });
  it('honours a smaller maxCallDepth', () => {
    const ok = run('def f(n):\n  return 0 if n == 0 else f(n - 1)\nf(40)\n', { maxCallDepth: 50 });
    expect(ok).toBeNull();
    expectLimit(
      run('def f(n):\n  return 0 if n == 0 else f(n - 1)\nf(60)\n', { maxCallDepth: 50 }),
      'depth',
      'Starlark stack overflow',
    );
  });
  it('covers recursion through builtins that call back', () => {
    const e = run('def f(x):\n  return sorted([1, 2], key = f)\nf(0)\n', {});
    expectLimit(e, 'depth', 'Starlark stack overflow');
  });
  it('is not sticky: the script may catch nothing, but a new run on the same thread works', () => {
    const thread = new StarlarkThread({});
    expect(() =>
      execFile({ filename: 'a.star', source: 'def f():\n  return f()\nf()\n', dialect: KRM, thread }),
    ).toThrow('Starlark stack overflow');
    expect(execFile({ filename: 'b.star', source: 'x = 1\n', thread }).globals['x']).toBe(1);
  });
});

describe('allocation budget', () => {
  const cases: Record<string, string> = {
    'string doubling': 's = "x"\nwhile True:\n  s = s + s\n',
    'list growth': 'l = []\nwhile True:\n  l.append([1, 2, 3])\n',
    'dict growth': 'd = {}\nn = 0\nwhile True:\n  d[n] = str(n)\n  n += 1\n',
    'string repetition': 's = "abc" * 10000000\n',
    'list repetition': 'l = [1, 2] * 5000000\n',
    'list extension': 'l = [0] * 1000\nwhile True:\n  l += l\n',
    join: 'parts = ["x" * 1000] * 1000\nwhile True:\n  parts = [",".join(parts)] * 10\n',
  };
  for (const [name, src] of Object.entries(cases)) {
    it(`stops ${name}`, () => {
      // The step cap only keeps a broken budget from running for long; the budget must trip first.
      const e = run(src, { maxAllocBytes: 4 << 20, maxSteps: 1_000_000 });
      expectLimit(e, 'alloc', /^Starlark computation cancelled: allocation budget exceeded/);
    });
  }
});

describe('output budget', () => {
  it('stops a script that prints too much', () => {
    const lines: string[] = [];
    const e = run('while True:\n  print("spam " * 10)\n', { maxOutputBytes: 10_000 }, (m) => lines.push(m));
    expectLimit(e, 'output', /^Starlark computation cancelled: output budget exceeded/);
    expect(lines.join('\n').length).toBeLessThanOrEqual(10_000);
  });
});

describe('host cancellation', () => {
  it('stops a script when the AbortSignal fires, with the reason', () => {
    const ac = new AbortController();
    let polls = 0;
    const now = (): number => {
      if (++polls === 3) ac.abort('the user pressed stop');
      return 0;
    };
    const e = run('while True:\n  pass\n', { signal: ac.signal, deadline: 1e15, now });
    expectLimit(e, 'cancelled', 'Starlark computation cancelled: the user pressed stop');
  });
  it('stops at once when the signal is already aborted', () => {
    const ac = new AbortController();
    ac.abort(new Error('shutting down'));
    const e = run('while True:\n  pass\n', { signal: ac.signal });
    expectLimit(e, 'cancelled', 'Starlark computation cancelled: shutting down');
  });
  it('is sticky and keeps the first reason', () => {
    const thread = new StarlarkThread({});
    thread.cancel('first reason');
    thread.cancel('second reason');
    const e = (() => {
      try {
        execFile({ filename: 'a.star', source: 'def f():\n  for i in range(100000):\n    pass\nf()\n', thread });
        return null;
      } catch (err) {
        return err;
      }
    })();
    expectLimit(e, 'cancelled', 'Starlark computation cancelled: first reason');
    expect(() =>
      execFile({ filename: 'b.star', source: 'def f():\n  for i in range(100000):\n    pass\nf()\n', thread }),
    ).toThrow('first reason');
  });
  it('can be requested from a host callback during the run', () => {
    const thread = new StarlarkThread({ print: () => thread.cancel('stop after print') });
    expect(() =>
      execFile({ filename: 'a.star', source: 'print("x")\nwhile True:\n  pass\n', dialect: KRM, thread }),
    ).toThrow('Starlark computation cancelled: stop after print');
  });
});

describe('limit errors are Starlark errors', () => {
  it('carry a backtrace and format like other dynamic errors', () => {
    const e = run('def spin():\n  while True:\n    pass\nspin()\n', { maxSteps: 10_000 });
    expect(isStarlarkEvalError(e)).toBe(true);
    if (!isStarlarkEvalError(e)) return;
    expect(e.format()).toBe(
      'Traceback (most recent call last):\n  limits.star:4:5: in <toplevel>\n  limits.star:2:3: in spin\nError: Starlark computation cancelled: too many steps',
    );
  });
  it('cannot be caught by the script (assert.fails in the harness lets them through)', () => {
    // A limit inside a callback of a builtin still ends the whole run.
    const e = run('def f(x):\n  for i in range(1 << 40):\n    pass\n  return x\nsorted([3, 1], key = f)\n', {
      maxSteps: 20_000,
    });
    expectLimit(e, 'steps', 'Starlark computation cancelled: too many steps');
  });
});
