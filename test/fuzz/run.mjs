// `npm run fuzz -- [--seconds N] [--target NAME]`: runs the fuzz targets of test/fuzz for N seconds
// each (default 60) with fresh seeds, printing the inputs tried per target and any counterexample.
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '60' }, target: { type: 'string' } },
});
const seconds = Number(values.seconds);
if (!Number.isFinite(seconds) || seconds <= 0) {
  console.error(`--seconds wants a positive number, got ${values.seconds}`);
  process.exit(2);
}
const r = spawnSync('npx', ['vitest', 'run', 'test/fuzz/fuzz.test.ts', '--reporter', 'verbose'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    KRMFN_FUZZ_SECONDS: String(seconds),
    ...(values.target ? { KRMFN_FUZZ_TARGET: values.target } : {}),
  },
});
process.exit(r.status ?? 1);
