/**
 * Rendering of test outcomes, as the `test` command prints them (docs/starlark.md, "Test files"): each failure
 * as `<file>:<line>: <message>` (assertions add the stack), print output only for failing chunks,
 * known failures with their reason, and a summary line `N passed, M failed`.
 */
import type { FrameInfo } from '../value/contract.ts';
import type { ChunkOutcome, FileOutcome } from './run-file.ts';

export interface Tally {
  passed: number;
  failed: number;
  known: number;
  fixed: number;
}

export function tally(files: readonly FileOutcome[]): Tally {
  const t: Tally = { passed: 0, failed: 0, known: 0, fixed: 0 };
  for (const f of files) {
    for (const c of f.chunks) {
      if (c.status === 'pass') t.passed++;
      else if (c.status === 'fail') t.failed++;
      else if (c.status === 'known-failure') t.known++;
      else t.fixed++;
    }
  }
  return t;
}

export function formatChunk(c: ChunkOutcome): string {
  const lines: string[] = [];
  if (c.status === 'known-failure') {
    lines.push(`${c.file}:${c.chunk.startLine}: known failure (${c.knownReason}): ${c.title}`);
  } else if (c.status === 'fixed') {
    lines.push(
      `${c.file}:${c.chunk.startLine}: listed as a known failure but passes, remove it from the list: ${c.title}`,
    );
  }
  if (c.status === 'fail' || c.status === 'known-failure') {
    const indent = c.status === 'known-failure' ? '    ' : '';
    for (const f of c.failures) {
      lines.push(`${indent}${f.file}:${f.line}: ${f.message}`);
      if (f.stack && f.stack.length > 0) for (const l of stackLines(f.stack)) lines.push(`${indent}    ${l}`);
    }
    if (c.status === 'fail' && c.output.length > 0) {
      lines.push(`  output of ${c.file}:${c.chunk.startLine}:`);
      for (const o of c.output) lines.push(`    ${o}`);
    }
  }
  return lines.join('\n');
}

/** Stack frames, outermost first; long stacks (runaway recursion) keep 10 frames at each end. */
function stackLines(stack: readonly FrameInfo[]): string[] {
  const line = (fr: FrameInfo): string => `${fr.file}:${fr.line}:${fr.col}: in ${fr.name}`;
  const frames = stack.filter((fr) => fr.line > 0); // builtin frames (the assert function itself) say nothing
  if (frames.length <= 25) return frames.map(line);
  return [
    ...frames.slice(0, 10).map(line),
    `... ${frames.length - 20} frames omitted ...`,
    ...frames.slice(-10).map(line),
  ];
}

export function formatSummary(t: Tally): string {
  const extra: string[] = [];
  if (t.known > 0) extra.push(`${t.known} known failures`);
  if (t.fixed > 0) extra.push(`${t.fixed} listed known failures now pass`);
  return `${t.passed} passed, ${t.failed} failed${extra.length ? ` (${extra.join(', ')})` : ''}`;
}

export function formatReport(files: readonly FileOutcome[]): string {
  const parts: string[] = [];
  for (const f of files) for (const c of f.chunks) if (c.status !== 'pass') parts.push(formatChunk(c));
  parts.push(formatSummary(tally(files)));
  return parts.join('\n') + '\n';
}
