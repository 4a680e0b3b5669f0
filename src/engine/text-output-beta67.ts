/**
 * kpt v1.0.0-beta.67's CLI text (kptdev/kpt pkg/printer/printer.go, pkg/fn/runtime/runner.go,
 * pkg/lib/runneroptions/runneroptions.go `SingleLineFormatter`, pkg/lib/kptops/render_executor.go
 * at v1.0.0-beta.67), from engine events:
 * - `Package: "<path>"` then a newline (no trailing space), no blank line after a package;
 * - `[Results]: a, b` on one line, each result as `[severity] ref path: message`;
 * - stderr as ` Stderr: line1, line2, ` (lines trimmed, joined with `, `, no newline after it);
 *   on a non-zero exit `  Exit code: N` and a blank line follow on the same line;
 * - nothing is truncated (`--truncate-output` has no effect any more);
 * - the summary after an in-place render: `Successfully executed ...` on success, and when the
 *   root Kptfile asks to save on failure (`kpt.dev/save-on-render-failure`)
 *   `Failed to execute any functions in N package(s).` or
 *   `Partially executed N function(s) in M package(s).` (M: packages reached).
 */
import { goQuote } from '../core/kptfile.ts';
import type { Result } from '../core/result.ts';
import type { EngineEvent } from './events.ts';
import { formatFailure, formatGoDuration, type TextOptions } from './text-output.ts';
import type { TextStrategy } from './text-strategy.ts';

/** go's ResultItem.String() (kptdev/kpt api/fnresult/v1/types.go at v1.0.0-beta.67). */
export function formatResultItem(r: Result): string {
  const ref = r.resourceRef
    ? [r.resourceRef.apiVersion, r.resourceRef.kind, r.resourceRef.namespace ?? '', r.resourceRef.name].filter((s) => s)
    : [];
  let line = `[${r.severity || 'info'}]`;
  if (ref.length) line += ` ${ref.join('/')}`;
  if (r.field) line += ` ${r.field.path ?? ''}`;
  return `${line}: ${r.message}`;
}

function singleLine(title: string, lines: readonly string[]): string {
  return `${title}: ${lines.map((l) => l.replace(/\n/g, ' ').trim()).join(', ')}`;
}

function paint(text: string, code: string, opts: TextOptions): string {
  return opts.color ? `\u001b[${code}m${text}\u001b[0m` : text;
}

function formatEvent67(e: EngineEvent, opts: TextOptions, mode: 'render' | 'eval'): string {
  switch (e.type) {
    case 'package-start':
      return mode === 'render' ? `Package: ${goQuote(e.displayPath)}\n` : '';
    case 'package-end':
      return '';
    case 'function-start':
      return `[RUNNING] ${e.wasm ? 'WASM ' : ''}${goQuote(e.name)}${e.selected !== undefined ? ` on ${e.selected} resource(s)` : ''}\n`;
    case 'function-end': {
      const word = e.ok ? paint('[PASS]', '32', opts) : paint('[FAIL]', '31', opts);
      let out = `${word} ${goQuote(e.name)} in ${formatGoDuration(e.durationMs)}\n`;
      if (e.results.length) out += `${singleLine('[Results]', e.results.map(formatResultItem))}\n`;
      const showStderr = e.ok || e.exitFailure;
      if (showStderr && e.stderr) out += ` ${singleLine('Stderr', e.stderr.split('\n'))}`;
      if (!e.ok && e.exitFailure) out += `  Exit code: ${e.exitCode ?? 1}\n\n`;
      return out;
    }
    case 'message':
      return `${e.message}\n`;
    case 'warning':
      return `[WARN] ${e.message}\n`;
  }
}

export const beta67Text: TextStrategy = {
  formatEvent: formatEvent67,
  noticeBeforeResultsLine: true,
  renderSummary(o) {
    const packages = o.packagesVisited ?? o.packagesRun;
    if (o.ok) return `Successfully executed ${o.functionsRun} function(s) in ${packages} package(s).\n`;
    if (!o.savedOnFailure) return '';
    return o.functionsRun === 0
      ? `Failed to execute any functions in ${packages} package(s).\n`
      : `Partially executed ${o.functionsRun} function(s) in ${packages} package(s).\n`;
  },
  formatFailure,
};
