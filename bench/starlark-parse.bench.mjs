// Starlark front-end throughput: `node bench/starlark-parse.bench.mjs FILE.star…`.
//
// Bundles src/starlark with esbuild into a temp dir, splits each input file into chunks on lines
// that are exactly `---` (the chunked test format of docs/starlark.md, "Test files"), then parses
// and resolves every chunk (checkFile: nothing compiled or run; a chunk's syntax or resolve error
// counts as work done). Prints the median and best of 30 timed passes in MB/s, by wall clock and by
// process CPU time (which a busy machine disturbs less; it includes GC helper threads), twice: early
// (after 10 warm-up passes) and steady (after 100); `--json` adds both as figures on stdout (the
// text goes to stderr), as `npm run bench` merges them with BENCH_STARLARK_TESTDATA. The reference input
// is google/starlark-go's starlark/testdata/*.star, read from wherever you checked it out (it is not
// part of this repository); any chunked .star files work.
import { build } from 'esbuild';
import { ratio } from './figures.mjs';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const json = process.argv.includes('--json');
const files = process.argv.slice(2).filter((a) => a !== '--json');
if (files.length === 0) {
  console.error('usage: node bench/starlark-parse.bench.mjs FILE.star…');
  process.exit(2);
}
const root = fileURLToPath(new URL('..', import.meta.url));
const out = mkdtempSync(join(tmpdir(), 'krmfn-starlark-parse-'));
const lib = join(out, 'starlark.mjs');
await build({
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  logLevel: 'warning',
  entryPoints: [join(root, 'src/starlark/index.ts')],
  outfile: lib,
});
const S = await import(pathToFileURL(lib).href);
rmSync(out, { recursive: true, force: true });

const chunks = files.flatMap((f) => readFileSync(f, 'latin1').split(/^---$/m));
const bytes = chunks.reduce((n, c) => n + c.length, 0);
const dialect = { set: true, while: true, topLevelControl: true, globalReassign: true, recursion: true };
// The names starlark-go's test harness predeclares or its suites load.
const predeclared = Object.fromEntries(
  ['assert', 'hasfields', 'fibonacci', 'struct', 'freeze', 'json', 'math', 'time'].map((n) => [n, S.None]),
);

let failed = 0;
function pass() {
  failed = 0;
  for (const source of chunks) {
    try {
      S.checkFile({ filename: 'bench.star', source, dialect, predeclared });
    } catch {
      failed++;
    }
  }
}

/** Medians (wall and process CPU) of 30 timed passes, and the best. */
function timed() {
  const times = [];
  const cpuTimes = [];
  for (let i = 0; i < 30; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    pass();
    times.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpuTimes.push((c.user + c.system) / 1000);
  }
  times.sort((a, b) => a - b);
  cpuTimes.sort((a, b) => a - b);
  return { median: times[15], best: times[0], cpuMedian: cpuTimes[15] };
}

const mbps = (ms) => (bytes / 1e6 / (ms / 1e3)).toFixed(1);
const line = (label, t) =>
  `  ${label}: median ${t.median.toFixed(2)} ms = ${mbps(t.median)} MB/s, best ${mbps(t.best)} MB/s; process CPU time median ${mbps(t.cpuMedian)} MB/s`;
// Early: passes 11-40, while V8 is still optimising (a script parsed once meets this or worse).
// Steady: passes 101-130, once the front end's code is optimised (what a server parsing many
// scripts gets, and the figure comparable with starlark-go's compiled code).
for (let i = 0; i < 10; i++) pass();
const early = timed();
for (let i = 40; i < 100; i++) pass();
const steady = timed();
const log = (text) => (json ? process.stderr : process.stdout).write(`${text}\n`);
log(`${chunks.length} chunks, ${bytes} bytes (${failed} with a static error), parse + resolve:`);
log(line('early (passes 11-40) ', early));
log(line('steady (passes 101-130)', steady));
log('(process CPU time is steadier on a shared machine)');
if (json) {
  // Issue #17's target: >= 20 MB/s.
  const figure = (ms) => ratio(bytes / 1e6 / (ms / 1e3), 20, 'higher');
  const ratios = {
    starlark_front_end_mbps_early: figure(early.median),
    starlark_front_end_mbps_steady: figure(steady.median),
  };
  console.log(JSON.stringify({ ratios, raw: { starlark_front_end: { bytes, chunks: chunks.length, early, steady } } }));
}
