// Runs every golden case under test/e2e/cases through the real CLI (see test/harness/golden.ts).
import * as path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import {
  E2E_DIR,
  listCases,
  oracleSkipReason,
  readCaseConfig,
  removeOracleBins,
  runCase,
  selectedOracle,
} from '../harness/golden.ts';

const cases = await listCases(path.join(E2E_DIR, 'cases'));
const configs = await Promise.all(cases.map(readCaseConfig));
const oracle = selectedOracle();

afterAll(removeOracleBins);

describe.concurrent(`golden packages (${oracle})`, () => {
  test('there are cases', () => expect(cases.length).toBeGreaterThan(10));
  cases.forEach((dir, i) => {
    const config = configs[i];
    const skip = oracleSkipReason(config, oracle);
    const name = skip === undefined ? path.basename(dir) : `${path.basename(dir)} (skipped: ${skip})`;
    test.skipIf(skip !== undefined)(name, { timeout: 60_000 }, async () => {
      const run = await runCase(dir, oracle);
      expect(run.stderr, 'stderr').toContain(run.config.stdErr ?? '');
      if (run.expected.stderr !== undefined) expect(run.stderr, 'stderr').toBe(run.expected.stderr);
      if (run.expected.stdout !== undefined) expect(run.stdout, 'stdout').toBe(run.expected.stdout);
      expect(run.exitCode, `exit code; stderr:\n${run.stderr}`).toBe(run.config.exitCode ?? 0);
      expect(run.tree, 'package tree').toEqual(run.expected.tree);
      if (run.expected.results !== undefined) expect(run.results, 'results.yaml').toBe(run.expected.results);
      if (run.secondTree) expect(run.secondTree, 'second run (idempotency)').toEqual(run.tree);
    });
  });
});
