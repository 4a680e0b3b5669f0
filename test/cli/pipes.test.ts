// Pipes and process-level failures, with real processes (bin/krmfn.mjs over dist/, built by
// `npm test`): a closed stdout ends quietly with kpt's status 141 (128 + SIGPIPE), a directory as
// stdin fails as kpt's read does, and no input prints a Node stack trace.
import { spawnSync } from 'node:child_process';
import { existsSync, promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ensureBuilt } from '../harness/built-cli.ts';

const repo = path.resolve(import.meta.dirname, '../..');
const bin = path.join(repo, 'bin/krmfn.mjs');
let tmp = '';

function sh(script: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync('bash', ['-c', script], {
    cwd: tmp,
    encoding: 'utf8',
    // stdin /dev/null, not a socket: bash would source ~/.bashrc.
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH, K: `${JSON.stringify(process.execPath)} ${JSON.stringify(bin)}` },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(async () => {
  ensureBuilt();
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'krmfn-pipes-'));
  // Big enough (about 150 KB of ResourceList) that the writer is still writing when `head` exits.
  await fsp.mkdir(path.join(tmp, 'big'));
  for (let i = 0; i < 500; i++) {
    await fsp.writeFile(
      path.join(tmp, 'big', `cm${i}.yaml`),
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm${i}\ndata:\n  key: "${i}"\n`,
    );
  }
});

afterAll(async () => {
  if (tmp) await fsp.rm(tmp, { recursive: true, force: true });
});

describe('a closed stdout', () => {
  test('fn source | head ends with status 141 and prints nothing on stderr', () => {
    const r = sh('eval "$K fn source big" | head -n 1; echo "status ${PIPESTATUS[0]}" >&2');
    expect(r.stdout).toBe('apiVersion: config.kubernetes.io/v1\n');
    expect(r.stderr).toBe('status 141\n');
  });

  test('fn eval -o stdout | head ends with status 141 after the progress lines', () => {
    const r = sh('eval "$K fn eval big --exec cat -o stdout" | head -n 1; echo "status ${PIPESTATUS[0]}" >&2');
    expect(r.stdout).toBe('apiVersion: config.kubernetes.io/v1\n');
    expect(r.stderr).toMatch(/^\[RUNNING\] "cat"\n\[PASS\] "cat" in \S+\nstatus 141\n$/);
  });
});

describe('stdin', () => {
  test('a directory as stdin is one error line and exit 1 (eval -)', () => {
    const r = sh('eval "$K fn eval - --exec cat" < /; echo "status $?" >&2');
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('error: read /dev/stdin: is a directory\nstatus 1\n');
  });

  test('fn sink creates its directory before reading, as kpt does', () => {
    const r = sh('eval "$K fn sink out-dir" < /; echo "status $?" >&2; test -d out-dir && echo made');
    expect(r.stderr).toBe('error: read /dev/stdin: is a directory\nstatus 1\n');
    expect(r.stdout).toBe('made\n');
  });

  test('a closed stdin reads as empty', () => {
    const r = sh('eval "$K fn eval - --exec cat" <&-');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\n');
  });
});

test.runIf(existsSync('/proc/self'))('an output directory that cannot be created fails at once, as kpt says it', () => {
  const r = sh('eval "$K fn eval big --exec cat -o /proc/krmfn-no-such-dir"');
  expect(r.status).toBe(1);
  expect(r.stderr).toMatch(
    /error: failed to create output directory "\/proc\/krmfn-no-such-dir": "mkdir \/proc\/krmfn-no-such-dir: no such file or directory"\n$/,
  );
});

test('no bad input ever prints a stack trace', () => {
  const inputs = [
    'render /dev/null',
    'eval /dev/null --exec cat',
    'eval big --exec cat --fn-config /',
    'source big --fn-config /dev/null',
    'source big -o json',
    'sink big',
    'doc',
    'eval - --exec cat < /',
    'render big --results-dir /dev/null/x',
    'eval big -i set-namespace --timeout nope',
    'starlark /nonexistent.star',
    'no-such-command',
  ];
  for (const input of inputs) {
    const r = sh(`eval "$K ${input}"`);
    expect(r.status, input).not.toBe(0);
    expect(r.stderr, input).not.toMatch(/^\s+at |node:internal|\n\s*\^\n/m);
  }
});
