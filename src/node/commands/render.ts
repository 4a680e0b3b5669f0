/**
 * `krmfn render [PKG_PATH]` (also `krmfn fn render`): kpt fn render with kpt's flags, output and
 * exit codes; `--json` adds a machine-readable outcome on stdout, `--timeout` bounds every call.
 */
import { formatRuntimeReport } from '../runtime-report.ts';
import * as nodePath from 'node:path';
import { unifiedDiff } from '../../core/diff.ts';
import { bool, parseDuration, parseFlags, str, UsageError, type ParsedArgs } from '../cli-flags.ts';
import { createCliEngine } from '../cli-engine.ts';
import { NodeFs, toEnginePath } from '../fs.ts';
import { write, type CliIO } from '../io.ts';
import { renderSpec } from './specs/render.ts';
import { checkOutputDirAbsent, prepareResultsDir, resolvePackageArg } from '../path-args.ts';
import type { KptLevel } from '../../engine/kpt-level.ts';
import { chosenImagePrefix, chosenKptLevel } from '../kpt-level-args.ts';
import { eventPrinter, finish, resolveOutput, textOptions } from '../run-output.ts';

export async function runRender(args: string[], io: CliIO): Promise<number> {
  let p: ParsedArgs;
  try {
    p = parseFlags(args, renderSpec.flags);
    if (p.positional.length > 1) throw new UsageError(`accepts at most 1 arg(s), received ${p.positional.length}`);
    if (bool(p, 'exit-code') && !bool(p, 'diff')) throw new UsageError('--exit-code needs --diff');
    if (bool(p, 'watch') && (bool(p, 'diff') || str(p, 'output') !== undefined))
      throw new UsageError('--watch renders in place: it cannot be used with --diff or --output');
  } catch (e) {
    await write(io.stderr, `error: ${(e as Error).message}\n`);
    return 1;
  }
  let level: KptLevel;
  let imagePrefix: string | undefined;
  try {
    level = chosenKptLevel(p, io);
    imagePrefix = chosenImagePrefix(p, io, level);
  } catch (e) {
    await write(io.stderr, `error: ${(e as Error).message}\n`);
    return 1;
  }
  let timeoutMs: number | undefined;
  try {
    const t = str(p, 'timeout');
    if (t !== undefined) timeoutMs = parseDuration(t);
  } catch (e) {
    await write(io.stderr, `error: ${(e as Error).message}\n`);
    return 1;
  }
  let jobs: number | undefined;
  const jobsFlag = str(p, 'jobs');
  if (jobsFlag !== undefined) {
    jobs = /^[1-9][0-9]{0,3}$/.test(jobsFlag) ? Number(jobsFlag) : undefined;
    if (jobs === undefined) {
      await write(io.stderr, `error: invalid argument ${JSON.stringify(jobsFlag)} for "--jobs" flag: want 1 to 9999\n`);
      return 1;
    }
  }
  const resultsDir = str(p, 'results-dir');
  let root: string;
  try {
    // In kpt's order (cmdrender.go preRunE): package path, output dir, results dir.
    root = await resolvePackageArg(p.positional[0], io);
    await checkOutputDirAbsent(str(p, 'output'), io);
    await prepareResultsDir(resultsDir, io);
  } catch (e) {
    await write(io.stderr, `error: ${(e as Error).message}\n`);
    return 1;
  }
  if (bool(p, 'watch')) {
    const { watchRender } = await import('./render-watch.ts');
    const once = args.filter((a) => !/^--watch(=.*)?$/.test(a));
    return watchRender(root, io, () => runRender(once, io));
  }
  const text = textOptions(p, io);
  const printer = eventPrinter(io, text, 'render', level.text);
  let cli;
  try {
    cli = await createCliEngine(p, io);
  } catch (e) {
    await write(io.stderr, `error: ${(e as Error).message}\n`);
    return 1;
  }
  const { engine, env } = cli;
  const outcome = await engine.render({
    fs: new NodeFs(),
    root,
    cwd: io.cwd,
    env,
    output: await resolveOutput(str(p, 'output'), io.cwd),
    allowExec: bool(p, 'allow-exec'),
    allowNetwork: bool(p, 'allow-network'),
    allowWasm: bool(p, 'allow-alpha-wasm'),
    attribution: !io.env.KPT_DISABLE_ATTRIBUTION,
    dryRun: bool(p, 'diff'),
    ...(jobs !== undefined ? { jobs } : {}),
    kptVersion: level.version,
    ...(imagePrefix !== undefined ? { imagePrefix } : {}),
    onEvent: printer.sink,
    ...(resultsDir !== undefined ? { resultsDir: toEnginePath(resultsDir, io.cwd) } : {}),
    ...(timeoutMs !== undefined ? { limits: { timeoutMs } } : {}),
  });
  await cli.close();
  await printer.flush();
  if (bool(p, 'diff') && outcome.ok && outcome.changes && !bool(p, 'json')) {
    const base = nodePath.dirname(root);
    const diff = outcome.changes.map((c) => unifiedDiff(nodePath.relative(base, c.path), c.before, c.after)).join('');
    if (diff) await write(io.stdout, diff);
  }
  const code = await finish(io, outcome, 'render', resultsDir, bool(p, 'json'), level.text, cli.images, cli.runtimes);
  if (bool(p, 'verbose')) await write(io.stderr, formatRuntimeReport(cli.runtimes, cli.images));
  // --diff --exit-code: 1 when rendering would change the package, as `git diff --exit-code`.
  const changed = outcome.changes?.some((c) => c.before !== c.after) === true;
  return code === 0 && bool(p, 'exit-code') && changed ? 1 : code;
}
