/**
 * `krmfn test` on a terminal (src/node/commands/test.ts): a failing case's diff is coloured when
 * stdout is a TTY, plain with NO_COLOR or when piped; the scaffold from `krmfn init` holds a
 * passing case and a case whose function must fail, and both pass as generated.
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
});
