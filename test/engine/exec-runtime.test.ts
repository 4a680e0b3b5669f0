// The exec runtime with real subprocesses: stdin/stdout, stderr capture, exit codes, cwd, env,
// the --allow-exec gate, missing programs, and the kill at the deadline.
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, expect, test } from 'vitest';
import { DEFAULT_LIMITS, runWithDeadline, type BytesRunner, type ResolveContext } from 'krmfn';
import { createExecRuntime } from 'krmfn/node';

const ctx = (over: Partial<ResolveContext> = {}): ResolveContext => ({
  displayName: 'fn',
  packagePath: '/',
  cwd: os.tmpdir(),
  allowExec: true,
  allowWasm: false,
  allowNetwork: false,
  limits: DEFAULT_LIMITS,
  ...over,
});

async function run(
  exec: string,
  stdin: string,
  opts: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {},
) {
  const rt = createExecRuntime(opts.env ? { env: opts.env } : {});
  const runner = (await rt.resolve({ exec }, ctx(opts.cwd ? { cwd: opts.cwd } : {}))) as BytesRunner;
  return runWithDeadline(exec, opts.timeoutMs ?? 10_000, undefined, (signal, deadline) =>
    runner.run(new TextEncoder().encode(stdin), {
      limits: DEFAULT_LIMITS,
      signal,
      deadline,
      now: Date.now,
      env: {},
      validator: false,
    }),
  );
}

const text = (b: Uint8Array): string => new TextDecoder().decode(b);

describe('exec runtime', () => {
  test('stdin to stdout, stderr captured verbatim, exit code kept', async () => {
    const out = await run(`sh -c 'cat; echo oops >&2; exit 3'`, 'hello\n');
    expect(text(out.stdout)).toBe('hello\n');
    expect(out.stderr).toBe('oops\n');
    expect(out.exitCode).toBe(3);
  });

  test('shell-like argument splitting', async () => {
    const out = await run(`sed -e 's/foo/bar baz/'`, 'foo\n');
    expect(text(out.stdout)).toBe('bar baz\n');
  });

  test('relative programs resolve against the working directory; env is passed', async () => {
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'krmfn-exec-'));
    try {
      await fsp.writeFile(path.join(dir, 'fn.sh'), '#!/bin/sh\necho "$GREETING from $(pwd)"\n', { mode: 0o755 });
      const out = await run('./fn.sh', '', { cwd: dir, env: { GREETING: 'hi', PATH: process.env.PATH ?? '' } });
      expect(text(out.stdout)).toBe(`hi from ${await fsp.realpath(dir)}\n`);
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  });

  test('render without --allow-exec refuses, with kpt message', async () => {
    await expect(createExecRuntime().resolve({ exec: 'cat' }, ctx({ allowExec: false }))).rejects.toMatchObject({
      code: 'exec-not-allowed',
      message: 'must run with `--allow-exec` option to allow running function binaries',
    });
  });

  test('images are not exec functions: not found, so the chain moves on', async () => {
    await expect(createExecRuntime().resolve({ image: 'gcr.io/x/y' }, ctx())).rejects.toMatchObject({
      code: 'function-not-found',
    });
  });

  test('a missing program fails like kpt', async () => {
    await expect(run('./nope.py', '')).rejects.toMatchObject({
      message: 'unexpected function error: fork/exec ./nope.py: no such file or directory',
    });
  });

  test('the child is killed at the deadline', async () => {
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'krmfn-exec-'));
    try {
      const pidFile = path.join(dir, 'pid');
      await expect(run(`sh -c 'echo $$ > ${pidFile}; exec sleep 30'`, '', { timeoutMs: 300 })).rejects.toMatchObject({
        code: 'timeout',
      });
      const pid = Number((await fsp.readFile(pidFile, 'utf8')).trim());
      await new Promise((r) => setTimeout(r, 100));
      expect(() => process.kill(pid, 0)).toThrow();
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  });
});
