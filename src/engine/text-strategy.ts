/**
 * The stderr printer of a compatibility level (src/engine/kpt-level.ts): event text, the render
 * summary line and the final error line. beta.56's is src/engine/text-output.ts; beta.67's is
 * src/engine/text-output-beta67.ts.
 */
import type { EngineEvent } from './events.ts';
import { formatEvent, formatFailure, type TextOptions } from './text-output.ts';
import type { EngineFailure, RunOutcome } from './types.ts';

export interface TextStrategy {
  formatEvent(e: EngineEvent, opts: TextOptions, mode: 'render' | 'eval'): string;
  /** The line after an in-place render (`Successfully executed ...`), or ''. */
  renderSummary(outcome: RunOutcome): string;
  formatFailure(f: EngineFailure): string;
  /**
   * Whether eval's `--save` message comes before the results-file line (beta.67 prints it from the
   * save step; beta.56, checked with the real kpt, after the results line).
   */
  noticeBeforeResultsLine: boolean;
}

/** kptdev/kpt internal/util/render/executor.go at v1.0.0-beta.56: a summary only on success. */
export const beta56Text: TextStrategy = {
  formatEvent,
  renderSummary: (o) =>
    o.ok ? `Successfully executed ${o.functionsRun} function(s) in ${o.packagesRun} package(s).\n` : '',
  formatFailure,
  noticeBeforeResultsLine: false,
};
