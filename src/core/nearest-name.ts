/**
 * "Did you mean" for names outside the Starlark interpreter (which keeps its own copy, as
 * src/starlark imports nothing else in the repo): the candidate nearest to `x` by Levenshtein
 * distance, case-insensitive, when the distance is at most half of `x`'s length (rounded up) and
 * at most 3. Ties keep the first candidate. undefined when nothing is close enough.
 */
export function nearestName(x: string, candidates: Iterable<string>): string | undefined {
  const fx = x.toLowerCase();
  let best: string | undefined;
  let bestD = Math.min(3, Math.ceil(fx.length / 2)) + 1;
  for (const c of candidates) {
    if (c === x) continue;
    const d = levenshtein(fx, c.toLowerCase());
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return best;
}

/** Levenshtein edit distance (insert, delete, substitute; each costs 1). */
export function levenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
    }
    prev = cur;
  }
  return prev[b.length];
}
