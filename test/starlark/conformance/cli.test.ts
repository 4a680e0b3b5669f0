// `krmfn starlark run|test` and the REPL, driven through the CLI entry with real files and
// in-memory streams.
import { afterAll, describe, expect, it, beforeAll } from 'vitest';
import { PassThrough } from 'node:stream';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../src/node/cli.ts';
import { REPO } from './suite-files.ts';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function krmfn(argv: string[], cwd: string, stdin = ''): Promise<Run> {
  const input = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on('data', (c: Buffer) => out.push(c));
  stderr.on('data', (c: Buffer) => err.push(c));
  input.end(stdin);
  const code = await main({ argv, stdin: input, stdout, stderr, env: {}, cwd });
  return { code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') };
}

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'krmfn-starlark-cli-'));
  writeFileSync(
    join(dir, 'hello.star'),
    'load("lib.star", "double")\nprint("héllo", double(21), json.encode({"b": 1, "a": [math.floor(1.5)]}))\n',
  );
  writeFileSync(join(dir, 'lib.star'), 'def double(x):\n  return x * 2\n');
  writeFileSync(join(dir, 'fail.star'), 'print("before")\ndef f(d):\n  return d["y"]\nf({})\n');
  writeFileSync(join(dir, 'static.star'), 'x = 1\nx = 2\ny = z\n');
  writeFileSync(
    join(dir, 'dialect.star'),
    'def fib(n):\n  return n if n < 2 else fib(n - 1) + fib(n - 2)\nprint(fib(10))\n',
  );
  writeFileSync(join(dir, 'toplevel.star'), 'n = 0\nwhile n < 3:\n  n += 1\nprint(n, set([1]))\n');
  writeFileSync(join(dir, 'loop.star'), 'def f():\n  for i in range(1000000000):\n    pass\nf()\n');
  writeFileSync(join(dir, 'builtin.star'), 'fail("boom")\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('krmfn starlark run', () => {
  it('prints to stdout, predeclares json and math, loads relative files', async () => {
    const r = await krmfn(['starlark', 'hello.star'], dir);
    expect(r).toEqual({ code: 0, stdout: 'héllo 42 {"a":[1],"b":1}\n', stderr: '' });
    expect(await krmfn(['starlark', 'run', 'hello.star'], dir)).toEqual(r);
  });
  it('exits 1 with a starlark-go style backtrace on stderr, after the prints', async () => {
    const r = await krmfn(['starlark', 'fail.star'], dir);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('before\n');
    expect(r.stderr).toBe(
      'Traceback (most recent call last):\n  fail.star:4:2: in <toplevel>\n  fail.star:3:11: in f\nError: key "y" not in dict\n',
    );
  });
  it('names a failing builtin in the last line', async () => {
    const r = await krmfn(['starlark', 'builtin.star'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'Traceback (most recent call last):\n  builtin.star:1:5: in <toplevel>\nError in fail: fail: boom\n',
    );
  });
  it('reports static errors with file:line:col', async () => {
    const r = await krmfn(['starlark', 'static.star'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'static.star:2:1: cannot reassign global x declared at static.star:1:1\nstatic.star:3:5: undefined: z\n',
    );
  });
  it('takes the dialect flags with one or two dashes', async () => {
    expect((await krmfn(['starlark', 'dialect.star'], dir)).stderr).toContain('function fib called recursively');
    expect(await krmfn(['starlark', '-recursion', 'dialect.star'], dir)).toEqual({
      code: 0,
      stdout: '55\n',
      stderr: '',
    });
    expect((await krmfn(['starlark', '--recursion', 'dialect.star'], dir)).stdout).toBe('55\n');
    expect((await krmfn(['starlark', 'toplevel.star'], dir)).stderr).toContain('while loop not within a function');
    expect(await krmfn(['starlark', '-globalreassign', 'toplevel.star'], dir)).toEqual({
      code: 0,
      stdout: '3 set([1])\n',
      stderr: '',
    });
    expect((await krmfn(['starlark', '-globalreassign', '-set=false', 'toplevel.star'], dir)).stderr).toContain(
      'this Starlark dialect does not support sets',
    );
  });
  it('stops runaway scripts with --max-steps and --timeout', async () => {
    const steps = await krmfn(['starlark', '--max-steps', '100000', 'loop.star'], dir);
    expect(steps.code).toBe(1);
    expect(steps.stderr).toContain('Error: Starlark computation cancelled: too many steps');
    const time = await krmfn(['starlark', '-timeout', '50ms', 'loop.star'], dir);
    expect(time.code).toBe(1);
    expect(time.stderr).toContain('Starlark computation cancelled: deadline exceeded');
  });
  it('rejects bad usage with exit 2', async () => {
    expect((await krmfn(['starlark', '--nosuch', 'x.star'], dir)).code).toBe(2);
    expect((await krmfn(['starlark', 'run'], dir)).code).toBe(2);
    expect((await krmfn(['starlark', 'a.star', 'b.star'], dir)).code).toBe(2);
    const missing = await krmfn(['starlark', 'missing.star'], dir);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/cannot read missing\.star/);
  });
});

describe('krmfn starlark test', () => {
  it('runs the whole suite', async () => {
    const r = await krmfn(
      [
        'starlark',
        'test',
        '--known-failures',
        'test/starlark/suite/known-failures.json',
        'test/starlark/suite/int.star',
        'test/starlark/suite/dict.star',
      ],
      REPO,
    );
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^\d+ passed, 0 failed\n$/);
    expect(r.code).toBe(0);
  });
  it('reports each kind of failure and ends with N passed, M failed', async () => {
    const r = await krmfn(['starlark', 'test', 'test/starlark/conformance/cli/harness-demo.star'], REPO);
    const f = 'test/starlark/conformance/cli/harness-demo.star';
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      [
        `${f}:8: Error: 1 != 2`,
        `    ${f}:8:10: in <toplevel>`,
        `${f}:9: Error: custom message`,
        `    ${f}:9:12: in <toplevel>`,
        `  output of ${f}:5:`,
        '    output of a failing chunk',
        '    still running',
        `${f}:16: error "key "k" not in dict" does not match pattern "wrong pattern"`,
        `${f}:19: expected error matching "never"`,
        `${f}:23: unexpected error: index 0 out of range: empty list`,
        `    ${f}:24:2: in <toplevel>`,
        `    ${f}:23:12: in f`,
        '3 passed, 4 failed',
        '',
      ].join('\n'),
    );
  });
  it('selects chunks with --run', async () => {
    const r = await krmfn(
      ['starlark', 'test', '--run', 'expected error that happens', 'test/starlark/conformance/cli/harness-demo.star'],
      REPO,
    );
    expect(r).toEqual({ code: 0, stdout: '1 passed, 0 failed\n', stderr: '' });
  });
  it('reads --run as a Go regexp (named groups, \\z, (?i)) and reports Go syntax errors', async () => {
    const file = 'test/starlark/conformance/cli/harness-demo.star';
    const named = await krmfn(['starlark', 'test', '--run', '(?P<what>EXPECTED error) that happens\\z', file], REPO);
    expect(named).toEqual({ code: 0, stdout: '0 passed, 0 failed\n', stderr: '' });
    const folded = await krmfn(['starlark', 'test', '--run', '(?i)(?P<what>EXPECTED error) that happens', file], REPO);
    expect(folded).toEqual({ code: 0, stdout: '1 passed, 0 failed\n', stderr: '' });
    const bad = await krmfn(['starlark', 'test', '--run', 'a**', file], REPO);
    expect(bad).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: invalid --run regexp: error parsing regexp: invalid nested repetition operator: `**`\n',
    });
  });
  it("gives time.star's now() the wall clock, as starlark-go's harness does", async () => {
    writeFileSync(
      join(dir, 'clock.star'),
      '# now is after 2020 and before 3000.\nload("assert.star", "assert")\nload("time.star", "time")\n' +
        'assert.true(time.now() > time.time(year = 2020))\nassert.true(time.now() < time.time(year = 3000))\n',
    );
    expect(await krmfn(['starlark', 'test', 'clock.star'], dir)).toEqual({
      code: 0,
      stdout: '1 passed, 0 failed\n',
      stderr: '',
    });
  });
  it('exits 2 on harness errors', async () => {
    writeFileSync(join(dir, 'bad-literal.star'), 'x = 1 ### not quoted\n');
    const bad = await krmfn(['starlark', 'test', 'bad-literal.star'], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('error: bad-literal.star:1: not a quoted regexp: not quoted\n');
    expect((await krmfn(['starlark', 'test', 'missing.star'], dir)).code).toBe(2);
    expect((await krmfn(['starlark', 'test', '--run', '(', 'hello.star'], dir)).code).toBe(2);
    expect((await krmfn(['starlark', 'test'], dir)).code).toBe(2);
  });
});

describe('krmfn starlark (REPL)', () => {
  it('evaluates expressions and statements, keeps globals, reports errors and goes on', async () => {
    const input = [
      '1 + 2',
      'x = [1, 2]',
      'len(x)',
      'def f(a):',
      '  return a * 2',
      '',
      'f(21)',
      '1 // 0',
      'print("p")',
      '"é"',
      'None',
      '',
    ].join('\n');
    const r = await krmfn(['starlark'], dir, input);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('3\n2\n42\np\n"é"\n');
    expect(r.stderr).toBe(
      'Traceback (most recent call last):\n  <stdin>:1:3: in <expr>\nError: floored division by zero\n',
    );
  });

  it('keeps values mutable across inputs, as starlark-go does', async () => {
    const input = ['x = []', 'x.append(1)', 'd = {}', 'd["k"] = 2', '(x, d)', ''].join('\n');
    const r = await krmfn(['starlark'], dir, input);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('([1], {"k": 2})\n');
  });
});
