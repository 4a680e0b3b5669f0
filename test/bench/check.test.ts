// The benchmark regression check (bench/check.mjs) as a real process on figures written here:
// a ratio more than 10% worse than its baseline, in the direction that ratio counts as worse, fails
// the check and is named; within 10%, better, or absent from the baseline, it passes.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';

const repo = path.resolve(import.meta.dirname, '../..');
let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'krmfn-bench-check-'));
});
afterEach(() => {
  rmSync(tmp, { recursive: true, force: true });
});

type Better = 'lower' | 'higher';
function figures(ratios: Record<string, [number, Better]>): string {
  const out: Record<string, object> = {};
  for (const [name, [value, better]] of Object.entries(ratios)) out[name] = { value, target: 1, better, met: true };
  return JSON.stringify({ date: '2026-01-01T00:00:00.000Z', ratios: out });
}

function check(baseline: Record<string, [number, Better]>, current: Record<string, [number, Better]>) {
  writeFileSync(path.join(tmp, 'baseline.json'), figures(baseline));
  writeFileSync(path.join(tmp, 'current.json'), figures(current));
  return spawnSync(
    process.execPath,
    ['bench/check.mjs', '--from', path.join(tmp, 'current.json'), '--baseline', path.join(tmp, 'baseline.json')],
    { cwd: repo, encoding: 'utf8' },
  );
}

test('within 10%, better, or new: no regression', () => {
  const r = check(
    { a: [1.2, 'lower'], b: [10, 'higher'] },
    { a: [1.31, 'lower'], b: [9.2, 'higher'], c: [99, 'lower'] },
  );
  expect(r.stdout).toContain('no ratio regressed by more than 10%');
  expect(r.status).toBe(0);
});

test('more than 10% worse in either direction fails and names the ratio', () => {
  const r = check(
    { a: [1.2, 'lower'], b: [10, 'higher'], c: [2, 'lower'] },
    { a: [1.33, 'lower'], b: [9, 'higher'], c: [1, 'lower'] },
  );
  expect(r.stdout).toContain('REGRESSION a: 1.2 -> 1.33');
  expect(r.stdout).toContain('REGRESSION b: 10 -> 9');
  expect(r.stdout).not.toContain('REGRESSION c');
  expect(r.status).toBe(1);
});

test('the committed baseline has every ratio the benchmark reports, each with a target and a direction', async () => {
  const { readFile } = await import('node:fs/promises');
  const baseline = JSON.parse(await readFile(path.join(repo, 'bench/baseline.json'), 'utf8')) as {
    ratios: Record<string, { value: number; target: number; better: Better }>;
  };
  for (const size of [100, 1000, 10000]) {
    expect(baseline.ratios).toHaveProperty(`render_over_floor_cpu_${size}`);
  }
  expect(baseline.ratios).toHaveProperty('startup_render20_over_node_wall');
  expect(baseline.ratios).toHaveProperty('kpt_cat_floor_over_krmfn_wall_1000x5');
  for (const r of Object.values(baseline.ratios)) {
    expect(typeof r.value).toBe('number');
    expect(['lower', 'higher']).toContain(r.better);
  }
});
