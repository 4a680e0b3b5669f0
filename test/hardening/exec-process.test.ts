// Exec functions as real processes under the real CLI (bin/krmfn.mjs over dist/): the deadline
// and Ctrl-C kill the function's whole process group, a backgrounded grandchild holding the pipes
// cannot keep krmfn alive, and a function's huge stderr is capped while it is read.
import { spawn } from 'node:child_process';
import { existsSync, promises as fsp, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ensureBuilt } from '../harness/built-cli.ts';

const repo = path.resolve(import.meta.dirname, '../..');
const bin = path.join(repo, 'bin/krmfn.mjs');
let tmp = '';

beforeAll(async () => {
  ensureBuilt();
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'krmfn-exec-'));
});
afterAll(async () => {
  if (tmp) await fsp.rm(tmp, { recursive: true, force: true });
});

/** A package whose pipeline runs ./fn.sh (the script given). */
async function pkgWithScript(name: string, script: string): Promise<string> {
  const dir = path.join(tmp, name);
  await fsp.mkdir(dir);
  await fsp.writeFile(
    path.join(dir, 'Kptfile'),
    `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: ${name}\npipeline:\n  mutators:\n    - exec: ./fn.sh\n`,
  );
  await fsp.writeFile(path.join(dir, 'cm.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n');
  await fsp.writeFile(path.join(dir, 'fn.sh'), `#!/bin/sh\n${script}`, { mode: 0o755 });
  return dir;
}

/** Running (a killed process may stay a zombie until init reaps it). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return process.platform !== 'linux';
  }
}

/** True once none of `pids` runs; SIGKILL is asynchronous, so this polls (up to 20 s). */
async function allEnded(pids: number[]): Promise<boolean> {
  for (let i = 0; i < 400; i++) {
    if (!pids.some(running)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

async function pidsIn(file: string): Promise<number[]> {
  return (await fsp.readFile(file, 'utf8')).split(/\s+/).filter(Boolean).map(Number);
}

/** Runs the CLI in `cwd`; the test's own safety net kills it after 60 s (reported as `hung`). */
function cli(
  args: string[],
  cwd: string,
  opts: { nodeArgs?: string[]; onStart?: (pid: number) => void } = {},
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string; hung: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), bin, ...args], {
      cwd,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    let hung = false;
    const net = setTimeout(() => {
      hung = true;
      child.kill('SIGKILL');
    }, 60_000);
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code, signal) => {
      clearTimeout(net);
      resolve({ code, signal, stderr, hung });
    });
    opts.onStart?.(child.pid!);
  });
}

async function waitForFile(file: string): Promise<void> {
  while (!existsSync(file)) await new Promise((r) => setTimeout(r, 20));
}

test(
  'the deadline kills the whole group: a grandchild holding the pipes cannot keep krmfn alive',
  { timeout: 90_000 },
  async () => {
    const dir = await pkgWithScript('deadline', `sleep 300 &\necho $! > pids\nsleep 300 &\necho $! >> pids\nwait\n`);
    const r = await cli(['render', '.', '--allow-exec', '--timeout', '1s'], dir);
    expect(r.hung).toBe(false);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('[FAIL] "./fn.sh"');
    expect(await allEnded(await pidsIn(path.join(dir, 'pids')))).toBe(true);
  },
);

test(
  'a function that exits leaving a background process on its stdout: the render ends',
  { timeout: 90_000 },
  async () => {
    const dir = await pkgWithScript('leftover', `sleep 300 &\necho $! > pids\ncat\n`);
    const r = await cli(['render', '.', '--allow-exec'], dir);
    expect(r.hung).toBe(false);
    expect(r.stderr).toContain('Successfully executed 1 function(s) in 1 package(s).');
    expect(r.code).toBe(0);
    expect(await allEnded(await pidsIn(path.join(dir, 'pids')))).toBe(true);
  },
);

test('SIGINT to krmfn while a function runs ends the function group too', { timeout: 90_000 }, async () => {
  const dir = await pkgWithScript('interrupt', `sleep 300 &\necho $! > pids.tmp\nmv pids.tmp pids\nwait\n`);
  const r = await cli(['render', '.', '--allow-exec'], dir, {
    onStart: (pid) => void waitForFile(path.join(dir, 'pids')).then(() => process.kill(pid, 'SIGINT')),
  });
  expect(r.hung).toBe(false);
  expect(r.signal).toBe('SIGINT');
  expect(await allEnded(await pidsIn(path.join(dir, 'pids')))).toBe(true);
  expect(await fsp.readFile(path.join(dir, 'cm.yaml'), 'utf8')).toBe(
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n',
  );
});

test(
  '200 MB of stderr is capped while read: krmfn finishes in a 192 MB heap with kpt-style output',
  { timeout: 90_000 },
  async () => {
    const dir = await pkgWithScript(
      'stderr-flood',
      `cat >/dev/null\nyes 'a line of stderr' | head -c 200000000 >&2\nexit 3\n`,
    );
    const r = await cli(['render', '.', '--allow-exec'], dir, { nodeArgs: ['--max-old-space-size=192'] });
    expect(r.hung).toBe(false);
    expect(r.stderr).not.toMatch(/heap out of memory|Invalid string length/);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('  Stderr:\n    "a line of stderr"\n    "a line of stderr"\n');
    expect(r.stderr).toMatch(/\.\.\.\(\d+ line\(s\) truncated, use '--truncate-output=false' to disable\)\n/);
    expect(r.stderr).toContain('  Exit code: 3\n');
    // --truncate-output=false shows what was kept, then the note saying how much was not.
    const full = await cli(['render', '.', '--allow-exec', '--truncate-output=false'], dir, {
      nodeArgs: ['--max-old-space-size=192'],
    });
    expect(full.code).toBe(1);
    expect(full.stderr).toMatch(
      /"\.\.\.\(output truncated by krmfn: \d+ more byte\(s\), \d+ more line\(s\) not kept\)"\n/,
    );
  },
);
