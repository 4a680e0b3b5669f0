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
    total += Number(m[1]) * UNIT_MS[m[2]!]!;
    pos = re.lastIndex;
  }
  return pos === text.length && text.length > 0 ? total : undefined;
}
