/**
 * `krmfn test` on a terminal (src/node/commands/test.ts): a failing case's diff is coloured when
 * stdout is a TTY, plain with NO_COLOR or when piped; the scaffold from `krmfn init` holds a
 * passing case and a case whose function must fail, and both pass as generated; console output
 * and exceptions are recorded as stderr that a rerun reproduces, and exit codes are checked.
 */
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/node/cli.ts';

async function krmfn(
  argv: string[],
  cwd: string,
  opts: { tty?: boolean; env?: Record<string, string> } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = Object.assign(new PassThrough(), { isTTY: opts.tty === true });
  const err = new PassThrough();
  const o: Buffer[] = [];
  const e: Buffer[] = [];
  out.on('data', (c: Buffer) => o.push(c));
  err.on('data', (c: Buffer) => e.push(c));
  const code = await main({
    argv,
    stdin: Readable.from([]),
    stdout: out,
    stderr: err,
    env: { PATH: process.env.PATH, ...opts.env },
    cwd,
  });
  return { code, stdout: Buffer.concat(o).toString(), stderr: Buffer.concat(e).toString() };
}

let tmp: string;
let dir: string;
beforeAll(async () => {
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'krmfn-test-cmd-'));
  dir = path.join(tmp, 'set-team');
  expect((await krmfn(['init', 'set-team'], tmp)).code).toBe(0);
});
afterAll(() => fsp.rm(tmp, { recursive: true, force: true }));

describe('krmfn test', () => {
  it('the scaffold passes a passing case and a failing case as generated', async () => {
    const cases = (await fsp.readdir(path.join(dir, 'testdata'))).sort();
    expect(cases.length).toBe(2);
    const statuses = await Promise.all(
      cases.map((c) => fsp.readFile(path.join(dir, 'testdata', c, '_expected_status.yaml'), 'utf8')),
    );
    expect(statuses.some((s) => s.startsWith('exitCode: 1'))).toBe(true);
    const r = await krmfn(['test'], dir);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('2 passed, 0 failed');
  }, 120_000);

  it('colours the diff on a terminal, not with NO_COLOR nor on a pipe', async () => {
    const expected = path.join(dir, 'testdata', 'basic', '_expected.yaml');
    const original = await fsp.readFile(expected, 'utf8');
    await fsp.writeFile(expected, original.replace(/(message: .*)/, '$1 (edited)'));
    try {
      const tty = await krmfn(['test'], dir, { tty: true });
      expect(tty.code).toBe(1);
      expect(tty.stdout).toMatch(/\x1b\[31m-.*\(edited\)\x1b\[0m/);
      expect(tty.stdout).toMatch(/\x1b\[32m\+/);
      const noColor = await krmfn(['test'], dir, { tty: true, env: { NO_COLOR: '1' } });
      expect(noColor.code).toBe(1);
      expect(noColor.stdout).not.toContain('\x1b[');
      expect(noColor.stdout).toMatch(/\n-.*\(edited\)\n/);
      const piped = await krmfn(['test'], dir);
      expect(piped.stdout).not.toContain('\x1b[');
    } finally {
      await fsp.writeFile(expected, original);
    }
  }, 120_000);

  it('records console output and an exception by its message, so --update writes a golden that passes again', async () => {
    const fnPath = path.join(dir, 'src', 'fn.ts');
    const original = await fsp.readFile(fnPath, 'utf8');
    const caseDir = path.join(dir, 'testdata', 'refused');
    await fsp.mkdir(caseDir);
    await fsp.copyFile(path.join(dir, 'testdata', 'basic', 'resources.yaml'), path.join(caseDir, 'resources.yaml'));
    const config = await fsp.readFile(path.join(dir, 'testdata', 'basic', '_fnconfig.yaml'), 'utf8');
    await fsp.writeFile(path.join(caseDir, '_fnconfig.yaml'), config.replace(/value: .*/, 'value: refused'));
    await fsp.writeFile(
      fnPath,
      original.replace(
        '    let changed = 0;',
        "    console.error('checking', ctx.config.value);\n    if (ctx.config.value === 'refused') throw new Error('value refused');\n    let changed = 0;",
      ),
    );
    try {
      const update = await krmfn(['test', '--update'], dir);
      expect(update.code, update.stdout + update.stderr).toBe(0);
      expect(await fsp.readFile(path.join(caseDir, '_expected_status.yaml'), 'utf8')).toBe(
        'exitCode: 2\nstderr: |\n  checking refused\n  value refused\n',
      );
      expect(await fsp.readFile(path.join(dir, 'testdata', 'basic', '_expected_status.yaml'), 'utf8')).toBe(
        'exitCode: 0\nstderr: |\n  checking platform-team\n',
      );
      // Nothing in the recorded stderr depends on the run: the same function passes as recorded.
      const again = await krmfn(['test'], dir);
      expect(again.code, again.stdout).toBe(0);
      expect(again.stdout).toContain('3 passed, 0 failed');
      // A case that stops failing fails its test: its exit code and stderr are checked.
      await fsp.writeFile(fnPath, original);
      const fixed = await krmfn(['test'], dir);
      expect(fixed.code).toBe(1);
      expect(fixed.stdout).toContain('FAIL  refused');
      expect(fixed.stdout).toMatch(/-exitCode: 2\n[\s\S]*\+exitCode: 0/);
    } finally {
      await fsp.writeFile(fnPath, original);
      await fsp.rm(caseDir, { recursive: true, force: true });
      await krmfn(['test', '--update'], dir);
    }
  }, 120_000);
});
