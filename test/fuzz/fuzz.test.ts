/**
 * The fuzz targets (targets/index.ts). Inside `npm test`: each target's checked-in seed corpus,
 * then a short run with a fixed seed (reproducible, a few seconds in all). With
 * KRMFN_FUZZ_SECONDS=N (set by `npm run fuzz -- --seconds N [--target NAME]`): each target runs for
 * N seconds with a fresh seed and prints how many inputs it tried; a failure prints fast-check's
 * shrunk counterexample and the seed and path that replay it. With KRMFN_FUZZ_RECORD=DIR (also set
 * by run.mjs) every input is written to DIR/<target>.input before it is checked, so the watchdog
 * that stops a stalled run can name the input that stalled it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { corpusOf, recordInput } from './harness.ts';
import { TARGETS } from './targets/index.ts';

const seconds = Number(process.env.KRMFN_FUZZ_SECONDS ?? 0);
const only = process.env.KRMFN_FUZZ_TARGET;
const FIXED_SEED = 20261202;
const QUICK_RUNS = 150;

const recordDir = process.env.KRMFN_FUZZ_RECORD;

const chosen = TARGETS.filter((t) => !only || t.name === only);
if (only && chosen.length === 0)
  throw new Error(`no fuzz target ${only}; targets: ${TARGETS.map((t) => t.name).join(', ')}`);

for (const t of chosen) {
  const recordFile = recordDir ? join(recordDir, `${t.name}.input`) : undefined;
  const checked = (input: unknown): void => {
    if (recordFile) recordInput(recordFile, input);
    t.check(input);
  };
  describe(`fuzz: ${t.name}`, () => {
    it('holds on the seed corpus', () => {
      const corpus = corpusOf(t.name);
      expect(corpus.length).toBeGreaterThan(0);
      for (const { file, bytes } of corpus) {
        try {
          checked(t.fromCorpus(bytes));
        } catch (e) {
          throw new Error(`corpus/${t.name}/${file}: ${(e as Error).message}`, { cause: e });
        }
      }
    });

    it(
      seconds ? `holds for ${seconds}s of generated inputs` : 'holds on generated inputs (fixed seed)',
      () => {
        const params: fc.Parameters<[unknown]> = seconds
          ? { interruptAfterTimeLimit: seconds * 1000, numRuns: Number.MAX_SAFE_INTEGER, seed: Date.now() | 0 }
          : { seed: FIXED_SEED, numRuns: QUICK_RUNS };
        const out = fc.check(
          fc.property(t.arbitrary, (input) => void checked(input)),
          params,
        );
        if (seconds) console.log(`fuzz ${t.name}: ${out.numRuns} inputs tried, ${out.failed ? 1 : 0} failure(s)`);
        if (out.failed) {
          const why = out.errorInstance instanceof Error ? out.errorInstance.message : String(out.errorInstance);
          throw new Error(`${fc.defaultReportMessage(out) ?? 'property failed'}\n${why}`);
        }
      },
      seconds ? (seconds + 120) * 1000 : 60_000,
    );
  });
}
