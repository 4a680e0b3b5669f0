/**
 * Go `time.ParseDuration`-style durations (`500ms`, `30s`, `1m30s`, `2h`; also `us`/`µs`/`ns`),
 * as kpt's flags and krmfn's config files spell them. A bare number means seconds.
 * Returns milliseconds, or undefined when the text is not a duration.
 */
const UNIT_MS: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, us: 0.001, µs: 0.001, ns: 0.000001 };

export function parseGoDuration(text: string): number | undefined {
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  const re = /(\d+(?:\.\d+)?)(ms|us|µs|ns|h|m|s)/gy;
  let total = 0;
  let pos = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    total += Number(m[1]) * UNIT_MS[m[2]];
    pos = re.lastIndex;
  }
  return pos === text.length && text.length > 0 ? total : undefined;
}

/**
 * The longest delay a JavaScript timer honours: 2^31 - 1 ms (about 24.8 days). Node and browsers
 * fire a longer `setTimeout` after 1 ms, so every deadline is clamped to this and the CLI rejects
 * longer `--timeout` values (`tooLongForTimers`).
 */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** Go's spelling of a duration in milliseconds (`596h31m23.647s`, `1m30s`, `500ms`). */
export function formatGoDuration(ms: number): string {
  if (ms === 0) return '0s';
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = (ms % 60_000) / 1000;
  if (h === 0 && m === 0 && ms < 1000) return `${ms}ms`;
  return `${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${s}s`;
}

/** The error text for a duration no timer can wait for, or undefined when it fits. */
export function tooLongForTimers(ms: number): string | undefined {
  return ms > MAX_TIMER_MS ? `longer than the longest supported timeout, ${formatGoDuration(MAX_TIMER_MS)}` : undefined;
}
