/**
 * Golden runner for built-in function cases, in the catalog's (and kpt's e2e) example shape
 * (docs/catalog.md, "Golden cases"): a case is a small kpt package plus `.expected/`:
 *
 *   <case>/Kptfile, resources..., fn-config.yaml    the package (any files, subpackages)
 *   <case>/.expected/config.yaml   optional: testType render|eval (default render), exitCode
 *                                  (default 0), image + args + fnConfig (eval), stdErr (substring),
 *                                  allowExec, nonIdempotent, skip
 *   <case>/.expected/diff.patch    `git diff` of the package after the run (absent = no change)
 *   <case>/.expected/results.yaml  the results file kpt writes (compared when present)
 *
 * Procedure (docs/catalog.md, "Golden cases"): copy the case without `.expected/` to a temp dir, `git init` and
 * commit, run `krmfn render|eval` through the real CLI entry in-process with `--results-dir`,
 * compare exit code, stderr substring and results on the first run, then the diff; run a second
 * time to check idempotency (skipped when a failure is expected).
 * `WRITE_GOLDEN_OUTPUT=1` writes the actual diff.patch and results.yaml (review before committing).
 *
 * Usage from a test file:  goldenSuite(new URL('.', import.meta.url).pathname)
 */
import { execFileSync } from 'node:child_process';
import { promises as fsp, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { main } from '../../src/node/cli.ts';

export interface GoldenConfig {
  testType?: 'render' | 'eval';
  exitCode?: number;
  image?: string;
  args?: Record<string, string>;
  fnConfig?: string;
  stdErr?: string;
  allowExec?: boolean;
  /** The function is not idempotent by design: skip the second-run check. */
  nonIdempotent?: boolean;
  skip?: boolean | string;
}

export interface GoldenCase {
  /** Path relative to the suite root. */
  name: string;
  dir: string;
  config: GoldenConfig;
}

export interface GoldenRun {
  exitCode: number;
  stdout: string;
  stderr: string;
  diff: string;
  results: string | undefined;
  /** Diff produced by a second run on top of the first (should be empty). */
  secondRunDiff: string | undefined;
}

/** Every directory below `root` that holds a `.expected/` directory, sorted by path. */
export function findGoldenCases(root: string): GoldenCase[] {
  const out: GoldenCase[] = [];
  const walk = (dir: string): void => {
    const entries = readdirSync(dir).sort();
    if (entries.includes('.expected') && statSync(path.join(dir, '.expected')).isDirectory()) {
      const cfgPath = path.join(dir, '.expected', 'config.yaml');
      const config = (existsSync(cfgPath) ? parse(readFileText(cfgPath)) : {}) ?? {};
      out.push({ name: path.relative(root, dir), dir, config: config as GoldenConfig });
      return;
    }
    for (const e of entries) {
      const p = path.join(dir, e);
      if (!e.startsWith('.') && statSync(p).isDirectory()) walk(p);
    }
  };
  walk(root);
  return out;
}

function readFileText(p: string): string {
  return readFileSync(p, 'utf8');
}

const GIT_ENV = {
  GIT_AUTHOR_NAME: 'krmfn',
  GIT_AUTHOR_EMAIL: 'krmfn@example.com',
  GIT_COMMITTER_NAME: 'krmfn',
  GIT_COMMITTER_EMAIL: 'krmfn@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
  HOME: os.tmpdir(),
};

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'core.autocrlf=false', '-c', 'init.defaultBranch=main', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, ...GIT_ENV },
  });
}

function collector(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

async function runKrmfn(argv: string[], cwd: string): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const out = collector();
  const err = collector();
  const exitCode = await main({
    argv,
    stdin: Readable.from([]),
    stdout: out.stream,
    stderr: err.stream,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, KRMFN_KPT_VERSION: '1.0.0-beta.56' },
    cwd,
  });
  return { exitCode, stdout: out.text(), stderr: err.text() };
}

function argvFor(c: GoldenCase, pkg: string, resultsDir: string): string[] {
  const cfg = c.config;
  const argv = cfg.testType === 'eval' ? ['fn', 'eval', pkg] : ['fn', 'render', pkg];
  argv.push('--results-dir', resultsDir);
  if (cfg.allowExec && cfg.testType !== 'eval') argv.push('--allow-exec');
  if (cfg.testType === 'eval') {
    if (cfg.image) argv.push('--image', cfg.image);
    if (cfg.fnConfig) argv.push('--fn-config', path.join(c.dir, '.expected', cfg.fnConfig));
    const args = Object.entries(cfg.args ?? {}).map(([k, v]) => `${k}=${v}`);
    if (args.length) argv.push('--', ...args);
  }
  return argv;
}

/** Runs one case in a fresh temp copy; never throws for a function failure. */
export async function runGoldenCase(c: GoldenCase): Promise<GoldenRun> {
  const tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'krmfn-builtin-'));
  try {
    const pkg = path.join(tmp, 'pkg');
    const resultsDir = path.join(tmp, 'results');
    await fsp.cp(c.dir, pkg, { recursive: true, filter: (src) => path.basename(src) !== '.expected' });
    git(pkg, 'init', '-q');
    git(pkg, 'add', '-A');
    git(pkg, 'commit', '-q', '--allow-empty', '-m', 'initial');
    const first = await runKrmfn(argvFor(c, pkg, resultsDir), tmp);
    git(pkg, 'add', '-A');
    const diff = git(pkg, 'diff', '--cached', 'HEAD');
    const resultsPath = path.join(resultsDir, 'results.yaml');
    const results = existsSync(resultsPath) ? await fsp.readFile(resultsPath, 'utf8') : undefined;
    let secondRunDiff: string | undefined;
    if (first.exitCode === 0 && !c.config.nonIdempotent) {
      git(pkg, 'commit', '-q', '--allow-empty', '-m', 'first run');
      await runKrmfn(argvFor(c, pkg, path.join(tmp, 'results2')), tmp);
      git(pkg, 'add', '-A');
      secondRunDiff = git(pkg, 'diff', '--cached', 'HEAD');
    }
    const norm = (s: string): string =>
      s
        .split(tmp)
        .join('<tmp>')
        .replace(/(\[(?:PASS|FAIL)\] ".*" in )\S+/g, '$10s');
    return {
      exitCode: first.exitCode,
      stdout: norm(first.stdout),
      stderr: norm(first.stderr),
      diff,
      results,
      secondRunDiff,
    };
  } finally {
    await fsp.rm(tmp, { recursive: true, force: true });
  }
}

const UPDATE = process.env['WRITE_GOLDEN_OUTPUT'] === '1';

/** Registers one vitest test per case under `root` (a describe block named after the suite). */
export function goldenSuite(root: string, title = path.basename(root)): void {
  const cases = findGoldenCases(root);
  describe(title, () => {
    it('has cases', () => {
      expect(cases.length).toBeGreaterThan(0);
    });
    for (const c of cases) {
      const skip = c.config.skip;
      (skip ? it.skip : it)(c.name, async () => {
        const run = await runGoldenCase(c);
        const exp = path.join(c.dir, '.expected');
        if (UPDATE) {
          if (run.diff.trim()) await fsp.writeFile(path.join(exp, 'diff.patch'), run.diff);
          else await fsp.rm(path.join(exp, 'diff.patch'), { force: true });
          if (run.results !== undefined) await fsp.writeFile(path.join(exp, 'results.yaml'), run.results);
        }
        const context = `stderr:\n${run.stderr}`;
        expect(run.exitCode, context).toBe(c.config.exitCode ?? 0);
        if (c.config.stdErr) expect(run.stderr).toContain(c.config.stdErr.trim());
        const expectedResults = existsSync(path.join(exp, 'results.yaml'))
          ? await fsp.readFile(path.join(exp, 'results.yaml'), 'utf8')
          : undefined;
        if (expectedResults !== undefined)
          expect((run.results ?? '').trim(), 'results.yaml').toBe(expectedResults.trim());
        const expectedDiff = existsSync(path.join(exp, 'diff.patch'))
          ? await fsp.readFile(path.join(exp, 'diff.patch'), 'utf8')
          : '';
        expect(run.diff.trim(), 'diff.patch').toBe(expectedDiff.trim());
        if (run.secondRunDiff !== undefined)
          expect(run.secondRunDiff.trim(), 'second run must change nothing').toBe('');
      });
    }
  });
}
