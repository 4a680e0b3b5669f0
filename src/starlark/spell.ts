/**
 * "Did you mean" suggestions: the candidate nearest to `x` by Levenshtein distance, ignoring case
 * and underscores, provided the distance is below half of `x`'s length (rounded up). Ties keep the
 * first candidate; `x` itself is never suggested. Returns '' when nothing is close enough (as
 * google/starlark-go internal/spell/spell.go Nearest). The one speller of the interpreter: static
 * errors, attribute and keyword-argument hints, `load`.
 */
export function nearest(x: string, candidates: Iterable<string>): string {
  const fold = (s: string): string => s.replace(/_/g, '').toLowerCase();
  const fx = fold(x);
  let best = '';
  let bestD = Math.floor((fx.length + 1) / 2);
  for (const c of candidates) {
    if (c === x) continue;
    const d = distance(fx, fold(c), bestD);
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return best;
}

/** Levenshtein distance, giving up (returning `max`) once every entry of a row reaches `max`. */
function distance(a: string, b: string, max: number): number {
  if (a === b) return 0;
  let prev = new Array<number>(b.length + 1);
  let cur = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      const v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin >= max) return max;
    const t = prev;
    prev = cur;
    cur = t;
  }
  return prev[b.length];
}
