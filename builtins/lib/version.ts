/**
 * Image-tag versions as the built-in runtime hands them to functions: `0.1.3`, or '' for
 * latest/unstable/no tag (= the newest implemented behaviour).
 */

/** Compares dotted versions numerically ('' = newest, greater than anything). */
export function compareVersions(a: string, b: string): number {
  if (a === b) return 0;
  if (a === '') return 1;
  if (b === '') return -1;
  const pa = a
    .replace(/^v/, '')
    .split('.')
    .map((x) => Number.parseInt(x, 10) || 0);
  const pb = b
    .replace(/^v/, '')
    .split('.')
    .map((x) => Number.parseInt(x, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

/** `version` is at least `min` ('' counts as newest). */
export function atLeast(version: string, min: string): boolean {
  return compareVersions(version, min) >= 0;
}
