/**
 * The CLI side of a `render` or `eval` run, shared by both commands: kpt's text options from the
 * flags and the terminal, the event sink writing kpt's stderr text in order, the `-o` output mode,
 * and the outcome's tail (summary, results line, error, stdout or `--json`) with the exit code.
 */
import { distinctChoices } from './runtime-report.ts';
import type { RuntimeChoice } from '../engine/chain.ts';
import * as nodePath from 'node:path';
import type { EngineEvent } from '../engine/events.ts';
import type { OutputMode, RunOutcome } from '../engine/types.ts';
import type { TextOptions } from '../engine/text-output.ts';
import { beta56Text, type TextStrategy } from '../engine/text-strategy.ts';
import type { WasmImageReport } from '../runtimes/wasm.ts';
import { bool, type ParsedArgs } from './cli-flags.ts';
import { toEnginePath } from './fs.ts';
import { write, type CliIO } from './io.ts';

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
