// Sibling subpackages hydrated concurrently (render's `jobs`, src/engine/sibling-render.ts) on an
// in-memory filesystem with in-process functions that take turns on timers, so that siblings finish
// out of kpt's order: events, results, counts, written bytes and failures are exactly those of the
// one-at-a-time render, and no more than `jobs` functions ever run at once.
import { describe, expect, test } from 'vitest';
import {
  MemoryFs,
  NotFoundError,
  createEngine,
  type EngineEvent,
  type FunctionRuntime,
  type ObjectsRunner,
  type RunOutcome,
} from 'krmfn';

type Fn = ObjectsRunner['run'];

const KPTFILE = (name: string, mutators: string[]): string =>
  `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: ${name}\npipeline:\n  mutators:\n${mutators.map((m) => `  - image: ${m}\n`).join('')}`;
const CM = (name: string): string =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name} # keep\ndata:\n  a: "1"\n`;

/** a is slowest and c fastest, so with jobs > 1 the siblings finish in the reverse of kpt's order. */
function tree(nestedFn = 'ex.com/wait-20', dFn = 'ex.com/wait-10'): Record<string, string> {
  return {
    '/w/app/Kptfile': KPTFILE('app', ['ex.com/label']),
    '/w/app/cm.yaml': CM('root'),
    '/w/app/a/Kptfile': KPTFILE('a', ['ex.com/wait-40', 'ex.com/label']),
    '/w/app/a/cm.yaml': CM('a'),
    '/w/app/b/Kptfile': KPTFILE('b', ['ex.com/wait-5']),
    '/w/app/b/cm.yaml': CM('b'),
    '/w/app/b/nested/Kptfile': KPTFILE('nested', [nestedFn]),
    '/w/app/b/nested/cm.yaml': CM('nested'),
    '/w/app/c/Kptfile': KPTFILE('c', ['ex.com/wait-1', 'ex.com/label']),
    '/w/app/c/cm.yaml': CM('c'),
    '/w/app/d/Kptfile': KPTFILE('d', [dFn]),
    '/w/app/d/cm.yaml': CM('d'),
  };
}

interface Run {
  outcome: RunOutcome;
  events: unknown[];
  files: Record<string, string>;
  maxRunning: number;
  /** Functions still running when render returned. */
  runningAtEnd: number;
}

async function render(files: Record<string, string>, jobs: number | undefined): Promise<Run> {
  let running = 0;
  let maxRunning = 0;
  const timed =
    (ms: number): Fn =>
    async (list) => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      await new Promise((r) => setTimeout(r, ms));
      running--;
      const names = list.items.map((o) => o.name).join(',');
      list.results.push({ message: `waited ${ms} over ${names}`, severity: 'info' });
      return { output: list, stderr: `stderr of wait-${ms}\n`, exitCode: 0 };
    };
  const fns: Record<string, Fn> = {
    'ex.com/label': async (list) => {
      for (const o of list.items) o.setLabel('seen-by', String(list.items.length));
      return { output: list, stderr: '', exitCode: 0 };
    },
    'ex.com/fail': async (list) => ({ output: list, stderr: 'refused\n', exitCode: 3 }),
  };
  for (const ms of [1, 5, 10, 20, 40, 80]) fns[`ex.com/wait-${ms}`] = timed(ms);
  const runtime: FunctionRuntime = {
    name: 'test',
    async resolve(spec) {
      // kpt 1.0.0-beta.67 (the default level) names an untagged image `:latest`.
      const fn = spec.image ? fns[spec.image.replace(/:latest$/, '')] : undefined;
      if (!fn) throw new NotFoundError(spec.image ?? '');
      return { kind: 'objects', run: fn };
    },
  };
  const fs = new MemoryFs(files);
  const events: EngineEvent[] = [];
  const outcome = await createEngine({ runtimes: [runtime] }).render({
    fs,
    root: '/w/app',
    resultsDir: '/w/results',
    onEvent: (e) => events.push(e),
    ...(jobs !== undefined ? { jobs } : {}),
  });
  const stable = events.map((e) => ('durationMs' in e ? { ...e, durationMs: 0 } : e));
  return { outcome, events: stable, files: { ...fs.snapshot('/w') }, maxRunning, runningAtEnd: running };
}

function comparable(r: Run): unknown {
  const { outcome } = r;
  return {
    ok: outcome.ok,
    error: outcome.failure?.error.message,
    results: outcome.results,
    written: outcome.written,
    deleted: outcome.deleted,
    functionsRun: outcome.functionsRun,
    packagesRun: outcome.packagesRun,
    packagesVisited: outcome.packagesVisited,
    events: r.events,
    files: r.files,
  };
}

describe('render with jobs', () => {
  test('concurrent siblings give the sequential render exactly, within the bound', async () => {
    const sequential = await render(tree(), undefined);
    expect(sequential.outcome.ok).toBe(true);
    expect(sequential.maxRunning).toBe(1);
    for (const jobs of [2, 3, 8]) {
      const concurrent = await render(tree(), jobs);
      expect(comparable(concurrent)).toEqual(comparable(sequential));
      expect(concurrent.maxRunning).toBeGreaterThan(1);
      expect(concurrent.maxRunning).toBeLessThanOrEqual(jobs);
    }
    // The package order kpt prints: subpackages by path, depth first, the root last.
    const started = sequential.events.flatMap((e) =>
      (e as EngineEvent).type === 'package-start' ? [(e as { displayPath: string }).displayPath] : [],
    );
    expect(started).toEqual(['app/a', 'app/b/nested', 'app/b', 'app/c', 'app/d', 'app']);
  });

  test('jobs 1 is the sequential render', async () => {
    const one = await render(tree(), 1);
    expect(one.maxRunning).toBe(1);
    expect(comparable(one)).toEqual(comparable(await render(tree(), undefined)));
  });

  test('a failing sibling fails as in the sequential render: later siblings are never seen', async () => {
    // d, after the failing b, is still running when b fails: render waits for it before returning.
    const sequential = await render(tree('ex.com/fail', 'ex.com/wait-80'), undefined);
    expect(sequential.outcome.ok).toBe(false);
    const concurrent = await render(tree('ex.com/fail', 'ex.com/wait-80'), 4);
    expect(comparable(concurrent)).toEqual(comparable(sequential));
    expect(concurrent.runningAtEnd).toBe(0);
    const shown = JSON.stringify(concurrent.events);
    expect(shown).not.toContain('app/c');
    expect(shown).not.toContain('app/d');
    expect(concurrent.files['/w/app/c/cm.yaml']).toBe(CM('c'));
  });

  test('a sibling whose Kptfile pipeline is invalid fails at its turn, not before', async () => {
    const files = { ...tree(), '/w/app/c/Kptfile': KPTFILE('c', ['not a valid image name!']) };
    const sequential = await render(files, undefined);
    expect(sequential.outcome.ok).toBe(false);
    const concurrent = await render(files, 3);
    expect(comparable(concurrent)).toEqual(comparable(sequential));
  });
});
