/**
 * `krmfn render [PKG_PATH]` (also `krmfn fn render`): kpt fn render with kpt's flags, output and
 * exit codes; `--json` adds a machine-readable outcome on stdout, `--timeout` bounds every call.
 */
import * as nodePath from 'node:path';
import { unifiedDiff } from '../../core/diff.ts';
import type { EngineEvent } from '../../engine/events.ts';
import type { OutputMode, RunOutcome } from '../../engine/types.ts';
import { bool, parseDuration, parseFlags, str, UsageError, type ParsedArgs } from '../cli-flags.ts';
import { createCliEngine } from '../cli-engine.ts';
import { distinctChoices, formatRuntimeReport } from '../runtime-report.ts';
import type { RuntimeChoice } from '../../engine/chain.ts';
import type { WasmImageReport } from '../../runtimes/wasm.ts';
import { NodeFs, toEnginePath } from '../fs.ts';
import { write, type CliIO } from '../io.ts';
import { renderSpec } from './specs/render.ts';
import { checkOutputDirAbsent, prepareResultsDir, resolvePackageArg } from '../path-args.ts';
import type { TextOptions } from '../../engine/text-output.ts';
import { beta56Text, type TextStrategy } from '../../engine/text-strategy.ts';
import type { KptLevel } from '../../engine/kpt-level.ts';
import { chosenImagePrefix, chosenKptLevel } from '../kpt-level-args.ts';

export interface Printer {
  text: TextOptions;
  mode: 'render' | 'eval';
  io: CliIO;
  pending: Promise<void>;
}

export function textOptions(p: ParsedArgs, io: CliIO): TextOptions {
  const tty = (io.stderr as { isTTY?: boolean }).isTTY === true;
  return { truncate: bool(p, 'truncate-output', true), color: tty && !io.env.NO_COLOR && io.env.TERM !== 'dumb' };
}

/** An event sink writing kpt's text to stderr, in order. */
export function eventPrinter(
  io: CliIO,
  text: TextOptions,
  mode: 'render' | 'eval',
  strategy: TextStrategy = beta56Text,
): { sink: (e: EngineEvent) => void; flush: () => Promise<void> } {
  let chain = Promise.resolve();
  return {
    sink: (e) => {
      const s = strategy.formatEvent(e, text, mode);
      if (s) chain = chain.then(() => write(io.stderr, s));
    },
    flush: () => chain,
  };
}

export async function resolveOutput(value: string | undefined, cwd: string): Promise<OutputMode> {
  if (value === undefined || value === '') return { kind: 'in-place' };
  if (value === 'stdout') return { kind: 'stdout' };
  if (value === 'unwrap') return { kind: 'unwrap' };
  return { kind: 'dir', dir: toEnginePath(value, cwd) };
}

/** Prints the outcome's tail (results line, summary, error, stdout, JSON) and returns the exit code. */
export async function finish(
  io: CliIO,
  outcome: RunOutcome,
  mode: 'render' | 'eval',
  resultsDirArg: string | undefined,
  json: boolean,
  strategy: TextStrategy = beta56Text,
  /** Registry images the run pulled or took from the cache (the JSON's `images`). */
  images: readonly WasmImageReport[] = [],
  /** Which runtime took each function (the JSON's `runtimes`, src/node/runtime-report.ts). */
  runtimes: readonly RuntimeChoice[] = [],
): Promise<number> {
  let err = '';
  if (mode === 'render' && outcome.stdout === undefined) err += strategy.renderSummary(outcome);
  const notice = outcome.notice !== undefined ? `${outcome.notice}\n` : '';
  if (strategy.noticeBeforeResultsLine) err += notice;
  if (outcome.resultsFile && resultsDirArg !== undefined) {
    err += `${mode === 'eval' ? '\n' : ''}For complete results, see ${nodePath.join(resultsDirArg, 'results.yaml')}\n`;
  }
  if (!strategy.noticeBeforeResultsLine) err += notice;
  if (outcome.failure) err += strategy.formatFailure(outcome.failure);
  if (err) await write(io.stderr, err);
  if (json) {
    const data = {
      ok: outcome.ok,
      exitCode: outcome.ok ? 0 : 1,
      functionsRun: outcome.functionsRun,
      packagesRun: outcome.packagesRun,
      results: outcome.results,
      written: outcome.written,
      deleted: outcome.deleted,
      ...(outcome.failure ? { error: outcome.failure.error.toData() } : {}),
      ...(outcome.stdout !== undefined ? { output: outcome.stdout } : {}),
      ...(images.length ? { images: images.map((i) => ({ runtime: 'wasm', ...i })) } : {}),
      ...(runtimes.length ? { runtimes: distinctChoices(runtimes) } : {}),
    };
    await write(io.stdout, JSON.stringify(data, null, 2) + '\n');
  } else if (outcome.stdout !== undefined && outcome.stdout !== '') {
    await write(io.stdout, outcome.stdout);
  }
  return outcome.ok ? 0 : 1;
}

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
    cli = createCliEngine(p, io);
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
