/**
 * Golden-directory harness (kpt's e2e shape, adapted). A case is a directory holding:
 *   pkg/                      the input package (copied to a temp dir named `pkg` before the run)
 *   .expected/config.yaml     command (render|eval, default render), args, exitCode (default 0),
 *                             stdErr (substring), stdin (file in the case dir), noPkgArg, env, skip,
 *                             kptVersion (the kpt release to imitate, as KRMFN_KPT_VERSION; default
 *                             1.0.0-beta.56, the release the cases without it were checked against)
 *   .expected/out/            the complete expected package tree after the run (absent: unchanged;
 *                             `.expected/out.empty` instead: every file was deleted)
 *   .expected/stderr.txt      exact stderr (optional)
 *   .expected/stdout.txt      exact stdout (optional)
 *   .expected/results.yaml    when present, --results-dir is passed and the file must match
 *   .expected/exec.sh         instead of one command: a bash script run in the copied package with
 *                             `kpt` (the oracle: real kpt, or krmfn) and `krmfn` on PATH, for
 *                             pipelines (`kpt fn source | krmfn fn eval - ... | kpt fn sink out`);
 *                             its stdout, stderr, exit code and the package tree are compared
 * Like kpt's harness, successful in-place runs are repeated and must leave their output unchanged.
 * The run goes through the real CLI entry (`main` of src/node/cli.ts) on real temp directories,
 * with cwd = test/e2e (so `exec: node fns/krm.mjs ...` resolves as kpt resolves it). Before
 * comparing, the temp root is replaced by `<tmp>` and `[PASS]/[FAIL] ... in <d>` durations by 0s.
 * KRMFN_UPDATE_GOLDEN=1 writes the actual outputs into `.expected/` (review them before committing;
 * with KRMFN_ORACLE=kpt they are what real kpt printed and wrote).
 *
 * Oracle mode: with KRMFN_ORACLE=kpt (and `kpt` on PATH) the same case runs through the real
 * `kpt fn render|eval` instead, as a subprocess with the same cwd and arguments; kpt's "containers"
 * are a `docker` stand-in on PATH that runs `krmfn run IMAGE` (bin/krmfn.mjs, so `dist/` must be
 * built), as scripts/kpt-oracle.sh does. A case kpt cannot run (krmfn-only flags) says why in
 * `kptSkip`; a case whose `kptVersion` is not the installed kpt's release (`kpt version`) is skipped
 * with that reason (`oracleSkipReason`). The expectations are the same files: a case passes only if
 * both agree with them.
 */
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync, spawn } from 'node:child_process';
import { PassThrough, Readable } from 'node:stream';
import { parse } from 'yaml';
import { main } from '../../src/node/cli.ts';

export interface CaseConfig {
  /** `render` (default), `eval`, or the kpt spellings `fn render` / `fn eval`. */
  command?: string;
  args?: string[];
  exitCode?: number;
  stdErr?: string;
  stdin?: string;
  noPkgArg?: boolean;
  env?: Record<string, string>;
  skip?: string;
  /** The kpt release the case expects (src/core/kpt-version.ts); default 1.0.0-beta.56. */
  kptVersion?: string;
  /** Successful in-place runs are repeated on their own output, which must not change (default true). */
  idempotent?: boolean;
  /** Why real kpt cannot run this case (krmfn-only flags or behaviour); oracle mode skips it. */
  kptSkip?: string;
}

/** Which program runs the cases: krmfn in-process (default) or the real kpt (KRMFN_ORACLE=kpt). */
export type Oracle = 'krmfn' | 'kpt';

export function selectedOracle(): Oracle {
  return process.env.KRMFN_ORACLE === 'kpt' ? 'kpt' : 'krmfn';
}

/** The kpt release a case expects when its config names none. */
export const CASE_DEFAULT_KPT_VERSION = '1.0.0-beta.56';

let installedKpt: string | undefined;

/** The release of the `kpt` on PATH (`kpt version`, without a leading `v`). */
function installedKptVersion(): string {
  installedKpt ??= execFileSync('kpt', ['version'], { encoding: 'utf8' }).trim().replace(/^v/, '');
  return installedKpt;
}

/**
 * Why the oracle cannot check a case, or undefined: its own `skip`, then (real kpt only) its
 * `kptSkip`, then a `kptVersion` other than the installed kpt's release.
 */
export function oracleSkipReason(config: CaseConfig, oracle: Oracle): string | undefined {
  if (config.skip !== undefined) return config.skip;
  if (oracle !== 'kpt') return undefined;
  if (config.kptSkip !== undefined) return config.kptSkip;
  const wanted = config.kptVersion ?? CASE_DEFAULT_KPT_VERSION;
  const installed = installedKptVersion();
  return wanted === installed ? undefined : `expects kpt ${wanted}; the kpt on PATH is ${installed}`;
}

export interface CaseRun {
  config: CaseConfig;
  exitCode: number;
  stdout: string;
  stderr: string;
  tree: Record<string, string>;
  inputTree: Record<string, string>;
  results?: string;
  /** The tree after running the command a second time (successful in-place cases). */
  secondTree?: Record<string, string>;
  expected: {
    tree?: Record<string, string>;
    stderr?: string;
    stdout?: string;
    results?: string;
  };
}

export const E2E_DIR = path.resolve(import.meta.dirname, '../e2e');

export async function readTree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (d: string, rel: string): Promise<void> => {
    let entries;
    try {
      entries = await fsp.readdir(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(path.join(d, e.name), r);
      else out[r] = await fsp.readFile(path.join(d, e.name), 'utf8');
    }
  };
  await walk(dir, '');
  return out;
}

async function writeTree(dir: string, tree: Record<string, string>): Promise<void> {
  await fsp.rm(dir, { recursive: true, force: true });
  for (const [rel, text] of Object.entries(tree)) {
    await fsp.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await fsp.writeFile(path.join(dir, rel), text);
  }
}

function collector(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (c: Buffer) => chunks.push(c));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

export function normalizeOutput(text: string, tmp: string): string {
  return text
    .split(tmp)
    .join('<tmp>')
    .replace(/(\[(?:PASS|FAIL)\] ".*" in )\S+/g, '$10s');
}

async function readOptional(p: string): Promise<string | undefined> {
  try {
    return await fsp.readFile(p, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Runs the CLI with argv and streams, returning exit code, stdout and stderr; the kpt level is
 * CASE_DEFAULT_KPT_VERSION unless `opts.env` sets KRMFN_KPT_VERSION.
 */
export async function runCli(
  argv: string[],
  opts: { cwd: string; stdin?: string; env?: Record<string, string> },
): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const out = collector();
  const err = collector();
  const exitCode = await main({
    argv,
    stdin: Readable.from(opts.stdin !== undefined ? [Buffer.from(opts.stdin)] : []),
    stdout: out.stream,
    stderr: err.stream,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      KRMFN_KPT_VERSION: CASE_DEFAULT_KPT_VERSION,
      ...(opts.env ?? {}),
    },
    cwd: opts.cwd,
  });
  return { exitCode, stdout: out.text(), stderr: err.text() };
}

const REPO_DIR = path.resolve(import.meta.dirname, '../..');
const KRMFN_BIN = path.join(REPO_DIR, 'bin', 'krmfn.mjs');
const binDirs = new Map<Oracle, Promise<string>>();

/**
 * A directory for the front of PATH: `docker` runs the image's built-in through `krmfn run` (the
 * oracle's stand-in for containers), `krmfn` is always krmfn, and `kpt` is the selected oracle
 * (real kpt, or krmfn under kpt's spelling), so one exec script tests both programs.
 */
function oracleBin(oracle: Oracle): Promise<string> {
  let dir = binDirs.get(oracle);
  if (!dir) {
    dir = (async () => {
      const d = await fsp.mkdtemp(path.join(os.tmpdir(), `krmfn-${oracle}-bin-`));
      const node = JSON.stringify(process.execPath);
      const bin = JSON.stringify(KRMFN_BIN);
      const scripts: Record<string, string> = {
        docker: [
          'if [ "$1" = "version" ]; then echo "24.0.7"; exit 0; fi',
          'if [ "$1" = "image" ]; then exit 0; fi',
          `exec ${node} ${bin} run "\${!#}"`,
        ].join('\n'),
        krmfn: `exec ${node} ${bin} "$@"`,
      };
      if (oracle === 'krmfn') scripts.kpt = `exec ${node} ${bin} "$@"`;
      for (const [name, body] of Object.entries(scripts)) {
        await fsp.writeFile(path.join(d, name), `#!/usr/bin/env bash\n${body}\n`, { mode: 0o755 });
      }
      return d;
    })();
    binDirs.set(oracle, dir);
  }
  return dir;
}

/** Removes the oracles' PATH directories made so far (call it in the suite's afterAll). */
export async function removeOracleBins(): Promise<void> {
  const dirs = await Promise.allSettled(binDirs.values());
  binDirs.clear();
  for (const d of dirs) if (d.status === 'fulfilled') await fsp.rm(d.value, { recursive: true, force: true });
}

/** Runs a program with the oracle's PATH; resolves with exit code and the decoded output. */
async function runProgram(
  program: string,
  argv: string[],
  oracle: Oracle,
  opts: { cwd: string; stdin?: string; env?: Record<string, string> },
): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const bin = await oracleBin(oracle);
  return new Promise((resolve, reject) => {
    const child = spawn(program, argv, {
      cwd: opts.cwd,
      env: { PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: process.env.HOME, ...(opts.env ?? {}) },
      // No stdin: /dev/null, not a socket (bash sources ~/.bashrc when its stdin is a socket).
      stdio: [opts.stdin !== undefined ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout!.on('data', (c: Buffer) => out.push(c));
    child.stderr!.on('data', (c: Buffer) => err.push(c));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({
        exitCode: code ?? 1,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      }),
    );
    if (child.stdin) {
      child.stdin.on('error', () => {});
      child.stdin.end(opts.stdin);
    }
  });
}

/**
 * An exec-script case: `bash .expected/exec.sh` in the copied package directory (argv ignored),
 * with E2E_DIR set so scripts can reach test/e2e/fns.
 */
function runScript(script: string, pkg: string, oracle: Oracle): typeof runCli {
  return (_argv, opts) =>
    runProgram('bash', [script], oracle, { ...opts, cwd: pkg, env: { ...(opts.env ?? {}), E2E_DIR } });
}

/** Runs real kpt with argv (krmfn's spelling: `render`/`eval` become `fn render`/`fn eval`). */
export function runKpt(
  argv: string[],
  opts: { cwd: string; stdin?: string; env?: Record<string, string> },
): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  return runProgram('kpt', argv[0] === 'fn' ? argv : ['fn', ...argv], 'kpt', opts);
}

/** The case's `.expected/config.yaml` (empty when absent). */
export async function readCaseConfig(caseDir: string): Promise<CaseConfig> {
  const configText = await readOptional(path.join(caseDir, '.expected', 'config.yaml'));
  return ((configText ? parse(configText) : {}) ?? {}) as CaseConfig;
}

export async function runCase(caseDir: string, oracle: Oracle = 'krmfn'): Promise<CaseRun> {
  const invoke = oracle === 'kpt' ? runKpt : runCli;
  const expectedDir = path.join(caseDir, '.expected');
  const config = await readCaseConfig(caseDir);
  const tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'krmfn-golden-'));
  const pkg = path.join(tmp, 'pkg');
  try {
    await fsp.cp(path.join(caseDir, 'pkg'), pkg, { recursive: true, verbatimSymlinks: true });
    const inputTree = await readTree(pkg);
    const expectedResults = await readOptional(path.join(expectedDir, 'results.yaml'));
    const script = path.join(expectedDir, 'exec.sh');
    const isScript = await fsp.stat(script).then(
      () => true,
      () => false,
    );
    const argv: string[] = (config.command ?? 'render').split(' ');
    const at = argv.length + (config.noPkgArg ? 0 : 1);
    if (!config.noPkgArg) argv.push(pkg);
    argv.push(...(config.args ?? []).map((a) => a.replace('<tmp>', tmp)));
    const update = process.env.KRMFN_UPDATE_GOLDEN === '1';
    if (expectedResults !== undefined || (update && config.args?.includes('--results-dir') !== true)) {
      argv.splice(at, 0, '--results-dir', path.join(tmp, 'results'));
    }
    const stdin = config.stdin ? await fsp.readFile(path.join(caseDir, config.stdin), 'utf8') : undefined;
    const env = { KRMFN_KPT_VERSION: config.kptVersion ?? CASE_DEFAULT_KPT_VERSION, ...(config.env ?? {}) };
    const r = await (isScript ? runScript(script, pkg, oracle) : invoke)(argv, {
      cwd: E2E_DIR,
      ...(stdin !== undefined ? { stdin } : {}),
      ...(Object.keys(env).length ? { env } : {}),
    });
    const tree = await readTree(pkg);
    const results = await readOptional(path.join(tmp, 'results', 'results.yaml'));
    const inPlace =
      !isScript &&
      !config.noPkgArg &&
      !(config.args ?? []).some((a) => a === '-o' || a === '--output' || a.startsWith('--output='));
    let secondTree: Record<string, string> | undefined;
    if (r.exitCode === 0 && inPlace && config.idempotent !== false) {
      const again = await invoke(argv, { cwd: E2E_DIR, ...(Object.keys(env).length ? { env } : {}) });
      if (again.exitCode !== 0) throw new Error(`second run failed:\n${again.stderr}`);
      secondTree = await readTree(pkg);
    }
    const run: CaseRun = {
      config,
      exitCode: r.exitCode,
      stdout: normalizeOutput(r.stdout, tmp),
      stderr: normalizeOutput(r.stderr, tmp),
      tree,
      inputTree,
      ...(results !== undefined ? { results: normalizeOutput(results, tmp) } : {}),
      ...(secondTree ? { secondTree } : {}),
      expected: {},
    };
    if (update) {
      await fsp.mkdir(expectedDir, { recursive: true });
      const same = JSON.stringify(tree) === JSON.stringify(inputTree);
      await fsp.rm(path.join(expectedDir, 'out.empty'), { force: true });
      if (same) await fsp.rm(path.join(expectedDir, 'out'), { recursive: true, force: true });
      else if (Object.keys(tree).length === 0) {
        await fsp.rm(path.join(expectedDir, 'out'), { recursive: true, force: true });
        await fsp.writeFile(path.join(expectedDir, 'out.empty'), '');
      } else await writeTree(path.join(expectedDir, 'out'), tree);
      await fsp.writeFile(path.join(expectedDir, 'stderr.txt'), run.stderr);
      if (run.stdout) await fsp.writeFile(path.join(expectedDir, 'stdout.txt'), run.stdout);
      if (run.results !== undefined) await fsp.writeFile(path.join(expectedDir, 'results.yaml'), run.results);
      else await fsp.rm(path.join(expectedDir, 'results.yaml'), { force: true });
    }
    const outDir = path.join(expectedDir, 'out');
    const hasOut = await fsp.stat(outDir).then(
      () => true,
      () => false,
    );
    const emptied = await fsp.stat(path.join(expectedDir, 'out.empty')).then(
      () => true,
      () => false,
    );
    run.expected = {
      tree: emptied ? {} : hasOut ? await readTree(outDir) : inputTree,
    };
    const es = await readOptional(path.join(expectedDir, 'stderr.txt'));
    if (es !== undefined) run.expected.stderr = es;
    const eo = await readOptional(path.join(expectedDir, 'stdout.txt'));
    if (eo !== undefined) run.expected.stdout = eo;
    const er = await readOptional(path.join(expectedDir, 'results.yaml'));
    if (er !== undefined) run.expected.results = er;
    return run;
  } finally {
    await fsp.rm(tmp, { recursive: true, force: true });
  }
}

/** Case directories (those with a `pkg/`) under `root`, sorted. */
export async function listCases(root: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of (await fsp.readdir(root, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    if (!e.isDirectory()) continue;
    const dir = path.join(root, e.name);
    if (
      await fsp.stat(path.join(dir, 'pkg')).then(
        () => true,
        () => false,
      )
    )
      out.push(dir);
  }
  return out;
}
