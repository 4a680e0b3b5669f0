/**
 * kpt's CLI text (kpt-compat.md §11), produced from engine events: `Package "<p>": ` lines (with
 * the trailing space), `[RUNNING]` / `[PASS]` / `[FAIL]` with Go durations truncated to 100 ms,
 * Results and Stderr blocks (4-space indent, `%q` stderr lines, 4-line truncation), `Exit code`,
 * the summary line and the error line in kpt's three styles. Colour only on a TTY without NO_COLOR.
 */
import { goQuote } from '../core/kptfile.ts';
import type { Result } from '../core/result.ts';
import type { EngineEvent } from './events.ts';
import type { EngineFailure } from './types.ts';

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

function block(title: string, lines: readonly string[], opts: TextOptions): string {
  if (!lines.length) return '';
  let out = `  ${title}:\n`;
  const shown = opts.truncate ? lines.slice(0, 4) : lines;
  for (const l of shown) out += `    ${l}\n`;
  if (shown.length < lines.length) {
    out += `    ...(${lines.length - shown.length} line(s) truncated, use '--truncate-output=false' to disable)\n`;
  }
  return out;
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
      out += block('Results', e.results.map(formatResultLine), opts);
      const showStderr = e.ok || e.exitFailure;
      if (showStderr && e.stderr) out += block('Stderr', e.stderr.split('\n').map(goQuote), opts);
      if (!e.ok && e.exitFailure) out += `  Exit code: ${e.exitCode ?? 1}\n\n`;
      return out;
    }
    case 'message':
      return `${e.message}\n`;
    case 'warning':
      return `[WARN] ${e.message}\n`;
  }
}

/** The final error line(s) in kpt's style for this failure. */
export function formatFailure(f: EngineFailure): string {
  switch (f.style) {
    case 'none':
      return '';
    case 'bare':
      return `${f.error.message} \n`;
    case 'plain':
      return `error: ${f.error.message}\n`;
    case 'typed':
      return `Error: ${f.error.message} \n`;
  }
}
