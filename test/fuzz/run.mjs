// `npm run fuzz -- [--seconds N] [--target NAME] [--stall-seconds S]`: runs the fuzz targets of
// test/fuzz for N seconds each (default 60) with fresh seeds, printing the inputs tried per target
// and any counterexample. Every input is recorded before it is checked (KRMFN_FUZZ_RECORD, see
// fuzz.test.ts); a watchdog stops the run when one input has been running for S seconds (default
// 30) and prints the file holding that input, so a hang is reported with its input, not lost.
// The record directory is removed after a passing run and kept after a failing or stopped one.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    target: { type: 'string' },
    'stall-seconds': { type: 'string', default: '30' },
  },
});
const seconds = Number(values.seconds);
const stallSeconds = Number(values['stall-seconds']);
for (const [flag, n] of [
  ['--seconds', seconds],
  ['--stall-seconds', stallSeconds],
]) {
  if (!Number.isFinite(n) || n <= 0) {
    console.error(`${flag} wants a positive number, got ${n}`);
    process.exit(2);
  }
}
const recordDir = mkdtempSync(join(tmpdir(), 'krmfn-fuzz-'));
console.log(`fuzz: each input is recorded in ${recordDir}/<target>.input before it is checked`);

const child = spawn('npx', ['vitest', 'run', 'test/fuzz/fuzz.test.ts', '--reporter', 'verbose'], {
  stdio: 'inherit',
  detached: true, // its own process group, so the watchdog stops vitest's workers with it
  env: {
    ...process.env,
    KRMFN_FUZZ_SECONDS: String(seconds),
    KRMFN_FUZZ_RECORD: recordDir,
    ...(values.target ? { KRMFN_FUZZ_TARGET: values.target } : {}),
  },
});

/** The most recently written record file and its age in seconds, or undefined before the first input. */
function newestRecord() {
  let newest;
  for (const name of readdirSync(recordDir)) {
    const file = join(recordDir, name);
    const mtime = statSync(file).mtimeMs;
    if (!newest || mtime > newest.mtime) newest = { file, mtime };
  }
  return newest && { file: newest.file, age: (Date.now() - newest.mtime) / 1000 };
}

let stalled;
const watchdog = setInterval(() => {
  const last = newestRecord();
  if (!last || last.age < stallSeconds) return;
  stalled = last.file;
  clearInterval(watchdog);
  process.kill(-child.pid, 'SIGKILL');
}, 1000);

child.on('exit', (code) => {
  clearInterval(watchdog);
  if (stalled) {
    console.error(`fuzz: one input ran for more than ${stallSeconds}s and the run was stopped; the input: ${stalled}`);
    process.exit(3);
  }
  if (code === 0) rmSync(recordDir, { recursive: true, force: true });
  process.exit(code ?? 1);
});
