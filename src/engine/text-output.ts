/**
 * kpt's CLI text (kptdev/kpt v1.0.0-beta.56 `internal/fnruntime/runner.go` and
 * `internal/util/render/executor.go`), produced from engine events: `Package "<p>": ` lines (with
 * the trailing space), `[RUNNING]` / `[PASS]` / `[FAIL]` with Go durations truncated to 100 ms,
 * Results and Stderr blocks (kpt's `MultiLineFormatter`: 4-space indent, `%q` stderr lines, at most
 * 4 lines unless `--truncate-output=false`), `Exit code`, the summary line and the error line in
 * kpt's three styles. Colour only on a TTY without NO_COLOR.
 *
 * Bounded output: a block is cut to its shown lines before any line is quoted, lines are found by
 * scanning (never by splitting the whole stderr), and no block, message or error line grows past
 * `MAX_BLOCK_CHARS` of source text whatever the function wrote (kpt has no such bound; krmfn ends
 * the block with an "output truncated" note instead of holding gigabytes). The memory used is
 * independent of the size of a function's stderr or of its number of results.
 */
import { goQuote } from '../core/kptfile.ts';
import type { Result } from '../core/result.ts';
import type { EngineEvent } from './events.ts';
import type { EngineFailure } from './types.ts';
import { droppedLinesOf } from '../core/capture-note.ts';

export interface TextOptions {
  truncate: boolean;
  color: boolean;
}

/** Go's `time.Duration.String()` after `Truncate(100ms)`. */
export function formatGoDuration(ms: number): string {
  const t = Math.floor(Math.max(0, ms) / 100) * 100;
  if (t === 0) return '0s';
  if (t < 1000) return `${t}ms`;
  const h = Math.floor(t / 3_600_000);
  const m = Math.floor((t % 3_600_000) / 60_000);
  const sMs = t % 60_000;
  const sec = `${Math.floor(sMs / 1000)}${
    sMs % 1000
      ? '.' +
        String(sMs % 1000)
          .padStart(3, '0')
          .replace(/0+$/, '')
      : ''
  }s`;
  if (h) return `${h}h${m}m${sec}`;
  if (m) return `${m}m${sec}`;
  return sec;
}

export function formatResultLine(r: Result): string {
  const ref = r.resourceRef
    ? [r.resourceRef.apiVersion, r.resourceRef.kind, r.resourceRef.namespace ?? '', r.resourceRef.name]
        .filter((s) => s)
        .join('/')
    : '';
  let line = `[${r.severity || 'info'}]`;
  if (ref) line += ` ${ref}`;
  if (r.field && r.field.path) line += ` ${r.field.path}`;
  line += `: ${r.message}`;
  return line.replace(/\r?\n/g, ' ');
}

/** kpt's `FnExecErrorTruncateLines`: lines shown per block when truncating. */
export const TRUNCATE_LINES = 4;

/** Source characters one Results or Stderr block, message or error line may show (1 MiB). */
export const MAX_BLOCK_CHARS = 1 << 20;

/** `text` cut to `max` characters, never inside a surrogate pair. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = max > 0 && /[\uD800-\uDBFF]/.test(text[max - 1]) ? max - 1 : max;
  return text.slice(0, end);
}

function truncatedNote(hidden: number): string {
  return `    ...(output truncated: krmfn shows at most ${MAX_BLOCK_CHARS} characters per block; ${hidden} more line(s) not shown)\n`;
}

/**
 * kpt's `MultiLineFormatter.String()`: `  Title:`, then each line (newlines inside a line become
 * spaces; `%q`-quoted for stderr), 4 of them when truncating followed by the count of the rest.
 * `total` is the number of lines `lines` yields; only the shown ones are read.
 */
function block(title: string, total: number, lines: Iterable<string>, quote: boolean, opts: TextOptions): string {
  if (total === 0) return '';
  const limit = opts.truncate ? Math.min(TRUNCATE_LINES, total) : total;
  let out = `  ${title}:\n`;
  let shown = 0;
  let budget = MAX_BLOCK_CHARS;
  for (const raw of lines) {
    if (shown >= limit) break;
    if (budget <= 0) return out + truncatedNote(total - shown);
    const line = clip(raw, budget);
    budget -= line.length;
    const text = line.includes('\n') ? line.replaceAll('\n', ' ') : line;
    out += `    ${quote ? goQuote(text) : text}\n`;
    shown++;
    if (line.length < raw.length) return out + truncatedNote(total - shown);
  }
  if (shown < total) {
    out += `    ...(${total - shown} line(s) truncated, use '--truncate-output=false' to disable)\n`;
  }
  return out;
}

/** Number of lines `strings.Split(text, "\n")` gives, counted without splitting. */
function lineCount(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** The lines of `text` as `strings.Split(text, "\n")` gives them, produced one at a time. */
function* splitLines(text: string): Generator<string> {
  let start = 0;
  for (;;) {
    const nl = text.indexOf('\n', start);
    if (nl < 0) {
      yield text.slice(start);
      return;
    }
    yield text.slice(start, nl);
    start = nl + 1;
  }
}

function* resultLines(results: readonly Result[]): Generator<string> {
  for (const r of results) yield formatResultLine(r);
}

/** A message or error text cut to `MAX_BLOCK_CHARS`, with a note saying so. */
function bounded(text: string): string {
  if (text.length <= MAX_BLOCK_CHARS) return text;
  return `${clip(text, MAX_BLOCK_CHARS)}...(output truncated: ${text.length - MAX_BLOCK_CHARS} more character(s) not shown)`;
}

/** kpt's `Stderr:` block for a function's stderr ('' when it wrote none). */
export function formatStderrBlock(stderr: string, opts: TextOptions): string {
  if (!stderr) return '';
  // A host that kept only the head of the stderr appended a note: count the lines kpt would see in
  // the whole text (the kept ones, the dropped ones, and Go's final piece), not the note.
  const dropped = droppedLinesOf(stderr);
  const total = dropped === undefined ? lineCount(stderr) : lineCount(stderr) - 1 + dropped;
  return block('Stderr', total, splitLines(stderr), true, opts);
}

/** kpt's `Results:` block for a function's results ('' when there are none). */
export function formatResultsBlock(results: readonly Result[], opts: TextOptions): string {
  return block('Results', results.length, resultLines(results), false, opts);
}

function paint(text: string, code: string, opts: TextOptions): string {
  return opts.color ? `\u001b[${code}m${text}\u001b[0m` : text;
}

/** Text for one event ('' when kpt prints nothing). `mode` render prints package lines, eval does not. */
export function formatEvent(e: EngineEvent, opts: TextOptions, mode: 'render' | 'eval'): string {
  switch (e.type) {
    case 'package-start':
      return mode === 'render' ? `Package ${goQuote(e.displayPath)}: \n` : '';
    case 'package-end':
      return mode === 'render' && e.functions > 0 ? '\n' : '';
    case 'function-start':
      return `[RUNNING] ${e.wasm ? 'WASM ' : ''}${goQuote(e.name)}${e.selected !== undefined ? ` on ${e.selected} resource(s)` : ''}\n`;
    case 'function-end': {
      const word = e.ok ? paint('[PASS]', '32', opts) : paint('[FAIL]', '31', opts);
      let out = `${word} ${goQuote(e.name)} in ${formatGoDuration(e.durationMs)}\n`;
      out += formatResultsBlock(e.results, opts);
      const showStderr = e.ok || e.exitFailure;
      if (showStderr) out += formatStderrBlock(e.stderr, opts);
      if (!e.ok && e.exitFailure) out += `  Exit code: ${e.exitCode ?? 1}\n\n`;
      return out;
    }
    case 'message':
      return `${bounded(e.message)}\n`;
    case 'warning':
      return `[WARN] ${bounded(e.message)}\n`;
  }
}

/** The final error line(s) in kpt's style for this failure. */
export function formatFailure(f: EngineFailure): string {
  switch (f.style) {
    case 'none':
      return '';
    case 'bare':
      return `${bounded(f.error.message)} \n`;
    case 'plain':
      return `error: ${bounded(f.error.message)}\n`;
    case 'typed':
      return `Error: ${bounded(f.error.message)} \n`;
  }
}
