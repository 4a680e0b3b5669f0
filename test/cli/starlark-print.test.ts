/**
 * `krmfn starlark FILE`: print output is streamed and capped (src/node/commands/starlark.ts).
 */
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../harness/golden.ts';

let tmp = '';
beforeAll(async () => {
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'krmfn-starlark-print-'));
});
afterAll(async () => {
  await fsp.rm(tmp, { recursive: true, force: true });
});

async function script(name: string, source: string): Promise<string> {
  await fsp.writeFile(path.join(tmp, name), source);
  return name;
}

describe('krmfn starlark print', () => {
  it('stops a print flood at the output cap with a clear error', async () => {
    const file = await script('flood.star', 'def f():\n  for i in range(1000000):\n    print("x" * 99)\nf()\n');
    const r = await runCli(['starlark', '-max-output', '100000', file], { cwd: tmp });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('output budget exceeded (100000 bytes)');
    expect(r.stdout.length).toBeLessThanOrEqual(100_000);
    expect(r.stdout.length).toBeGreaterThan(90_000);
    expect(r.stdout.startsWith(`${'x'.repeat(99)}\n`)).toBe(true);
  });

  it('keeps every line, in order, before a later error', async () => {
    const file = await script('fail.star', 'def f():\n  for i in range(20000):\n    print(i)\n  fail("boom")\nf()\n');
    const r = await runCli(['starlark', file], { cwd: tmp });
    expect(r.exitCode).toBe(1);
    const lines = r.stdout.split('\n');
    expect(lines.length).toBe(20_001);
    expect(lines[0]).toBe('0');
    expect(lines[19_999]).toBe('19999');
    expect(r.stderr).toContain('boom');
  });

  it('rejects a malformed -max-output', async () => {
    const file = await script('ok.star', 'print(1)\n');
    const r = await runCli(['starlark', '-max-output', 'lots', file], { cwd: tmp });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('invalid --max-output "lots"');
  });
});
