/**
 * `--verbose` of `krmfn render` / `krmfn eval`: after kpt's output (which it never changes), one
 * stderr line per function and runtime, in the order functions first ran, saying which runtime ran
 * it and, for a registry image, whether it was pulled or taken from the cache and its digests:
 *
 *   [RUNTIME] "gcr.io/kpt-fn/set-namespace:v0.4.1" builtin
 *   [RUNTIME] "registry.example/fns/annotate:v1" wasm, pulled registry.example/fns/annotate:v1, digest sha256:…, index sha256:…
 *
 * An image's first report is shown (a later call of the same image finds it cached).
 * `distinctChoices` is the same list for `--json` (`runtimes`).
 */
import { goQuote } from '../core/kptfile.ts';
import type { RuntimeChoice } from '../engine/chain.ts';
import type { WasmImageReport } from '../runtimes/wasm.ts';

/** Each function and runtime once, in the order functions first ran. */
export function distinctChoices(choices: readonly RuntimeChoice[]): RuntimeChoice[] {
  const seen = new Set<string>();
  return choices.filter((c) => {
    const key = `${c.function}\n${c.runtime}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function formatRuntimeReport(choices: readonly RuntimeChoice[], images: readonly WasmImageReport[]): string {
  const firstReport = new Map<string, WasmImageReport>();
  for (const r of images) if (!firstReport.has(r.image)) firstReport.set(r.image, r);
  let out = '';
  for (const c of distinctChoices(choices)) {
    const report = c.image !== undefined ? firstReport.get(c.image) : undefined;
    const pulled = report
      ? `, ${report.source} ${report.reference}, digest ${report.digest}${report.indexDigest ? `, index ${report.indexDigest}` : ''}`
      : '';
    out += `[RUNTIME] ${goQuote(c.function)} ${c.runtime}${pulled}\n`;
  }
  return out;
}
