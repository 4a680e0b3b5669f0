// --results-dir that cannot be made: kpt's one-line error before anything runs (checked with
// kpt v1.0.0-beta.56: `kpt fn render pkg --results-dir file/sub` and `--results-dir /proc/x`),
// never a stack trace or a spinning process. Also Node's recursive mkdir under /proc (which never
// returns) is not used for package directories.
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdirAll } from '../../src/node/mkdir-all.ts';
import { runCli } from '../harness/golden.ts';

let tmp: string;
beforeAll(async () => {
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'krmfn-results-'));
  await fsp.mkdir(path.join(tmp, 'pkg'));
  await fsp.writeFile(path.join(tmp, 'pkg/Kptfile'), 'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: pkg\n');
  await fsp.writeFile(path.join(tmp, 'file'), 'not a directory\n');
});
afterAll(() => fsp.rm(tmp, { recursive: true, force: true }));

const cases: [string, string][] = [['file/sub', 'mkdir file: not a directory']];
if (process.platform === 'linux') cases.push(['/proc/x', 'mkdir /proc/x: no such file or directory']);

describe.each([
  ['render', ['render', 'pkg']],
  ['eval', ['eval', 'pkg', '--exec', 'cat']],
])('%s --results-dir', (_, argv) => {
  test.each(cases)('%s', async (dir, why) => {
    const r = await runCli([...argv, '--results-dir', dir], { cwd: tmp });
    expect(r).toMatchObject({
      exitCode: 1,
      stdout: '',
      stderr: `error: cannot read or create results dir ${JSON.stringify(dir)}: ${why}\n`,
    });
  });

  test('a new nested directory is made and results.yaml written', async () => {
    const dir = `out-${argv[0]}/a/b`;
    const r = await runCli([...argv, '--results-dir', dir], { cwd: tmp });
    expect(r.exitCode).toBe(0);
    expect(await fsp.readFile(path.join(tmp, dir, 'results.yaml'), 'utf8')).toContain('kind: FunctionResultList');
  });
});

test('mkdirAll: the topmost directory made, Go-worded errors', async () => {
  expect(await mkdirAll('m/n/o', tmp)).toBe(path.join(tmp, 'm'));
  expect(await mkdirAll('m/n/o', tmp)).toBeUndefined();
  await expect(mkdirAll('file/x/y', tmp)).rejects.toThrow('mkdir file: not a directory');
});
