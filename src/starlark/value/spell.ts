/** "Did you mean" hints: the candidate nearest to `x`, ignoring case and underscores, within
 * an edit distance below half of x's length; '' when none. */
export function nearest(x: string, candidates: readonly string[]): string {
  const fold = (s: string): string => s.toLowerCase().replace(/_/g, '');
  const fx = fold(x);
  let best = '';
  let bestD = Math.floor((fx.length + 1) / 2);
  for (const c of candidates) {
    const d = levenshtein(fx, fold(c), bestD);
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return best;
}

function levenshtein(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) >= max) return max;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length];
}
