// `--diff` when only the final newline changes: shown as GNU `diff -u` shows it (the expected
// texts come from running the real `diff -u` on the same files).
import { spawnSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { unifiedDiff } from '../../src/core/diff.ts';
import { runCli } from '../harness/golden.ts';

let tmp: string;
beforeAll(async () => {
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'krmfn-diff-'));
});
afterAll(() => fsp.rm(tmp, { recursive: true, force: true }));

/** The hunks of the real `diff -u` (its ---/+++ lines carry dates; they are replaced). */
async function realDiff(before: string, after: string): Promise<string> {
  await fsp.writeFile(path.join(tmp, 'a'), before);
  await fsp.writeFile(path.join(tmp, 'b'), after);
  const r = spawnSync('diff', ['-u', 'a', 'b'], { cwd: tmp, encoding: 'utf8' });
  return r.stdout.replace(/^--- a\t.*\n\+\+\+ b\t.*\n/, '--- a/x.yaml\n+++ b/x.yaml\n');
}

test.each([
  ['newline removed', 'a: 1\nb: 2\n', 'a: 1\nb: 2'],
  ['newline added', 'a: 1\nb: 2', 'a: 1\nb: 2\n'],
  ['last line changed, no newline on either side', 'a: 1\nb: 2', 'a: 1\nb: 3'],
  ['last line changed and newline added', 'k: 1\nl: 2\nm: 3\nn: 4\no: 5', 'k: 1\nl: 2\nm: 3\nn: 4\no: 6\n'],
  [
    'an earlier line changed, no newline at the end',
    'a: 1\nb: 2\nc: 3\nd: 4\ne: 5\nf: 6',
    'a: 0\nb: 2\nc: 3\nd: 4\ne: 5\nf: 6',
  ],
])('%s: as diff -u', async (_, before, after) => {
  const expected = await realDiff(before, after);
  expect(expected).not.toBe('');
  expect(unifiedDiff('x.yaml', before, after)).toBe(expected);
});

test('render --diff shows a file whose only change is the final newline', async () => {
  const pkg = path.join(tmp, 'pkg');
  await fsp.mkdir(pkg);
  await fsp.writeFile(path.join(pkg, 'Kptfile'), 'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: pkg\n');
  await fsp.writeFile(path.join(pkg, 'cm.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a');
  const r = await runCli(['render', 'pkg', '--diff'], { cwd: tmp });
  expect(r.exitCode).toBe(0);
  expect(r.stdout).toBe(
    '--- a/pkg/cm.yaml\n+++ b/pkg/cm.yaml\n@@ -1,4 +1,4 @@\n apiVersion: v1\n kind: ConfigMap\n metadata:\n-  name: a\n\\ No newline at end of file\n+  name: a\n',
  );
});
