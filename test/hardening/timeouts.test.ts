// Timeouts beyond what JavaScript timers can wait for (2^31 - 1 ms): the CLI rejects them with a
// clear error, and the engine clamps them instead of letting the timer fire after 1 ms.
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { runWithDeadline } from 'krmfn';
import { formatGoDuration, MAX_TIMER_MS, tooLongForTimers } from '../../src/core/duration.ts';
import { runCli } from '../harness/golden.ts';

let tmp: string;
beforeAll(async () => {
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'krmfn-timeout-'));
  await fsp.writeFile(
    path.join(tmp, 'Kptfile'),
    'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: t\npipeline:\n  mutators:\n    - exec: sh -c "sleep 0.2; cat"\n',
  );
  await fsp.writeFile(path.join(tmp, 'cm.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n');
});
afterAll(() => fsp.rm(tmp, { recursive: true, force: true }));

test('the longest timer delay in Go spelling', () => {
  expect(formatGoDuration(MAX_TIMER_MS)).toBe('596h31m23.647s');
  expect([
    formatGoDuration(90_000),
    formatGoDuration(1500),
    formatGoDuration(250),
    formatGoDuration(3_600_000),
  ]).toEqual(['1m30s', '1.5s', '250ms', '1h0m0s']);
  expect(tooLongForTimers(MAX_TIMER_MS)).toBeUndefined();
});

for (const cmd of [
  ['render', '.', '--allow-exec'],
  ['eval', '.', '--exec', 'cat'],
]) {
  test(`${cmd[0]} --timeout 597h is a one-line usage error`, async () => {
    const r = await runCli([...cmd, '--timeout', '597h'], { cwd: tmp });
    expect(r).toMatchObject({
      exitCode: 1,
      stderr:
        'error: invalid argument "597h" for "--timeout" flag: longer than the longest supported timeout, 596h31m23.647s\n',
    });
  });
}

test('--timeout 596h (just under the limit) lets a function that takes a moment finish', async () => {
  const r = await runCli(['render', '.', '--allow-exec', '--timeout', '596h'], { cwd: tmp });
  expect(r.stderr).toContain('Successfully executed 1 function(s) in 1 package(s).');
  expect(r.exitCode).toBe(0);
});

test('the engine clamps a deadline no timer can hold instead of firing at once', async () => {
  const value = await runWithDeadline(
    'slow',
    1e12,
    undefined,
    () => new Promise((r) => setTimeout(() => r('done'), 50)),
  );
  expect(value).toBe('done');
});
