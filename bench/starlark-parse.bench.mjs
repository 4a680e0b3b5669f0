// Starlark front-end throughput: `node bench/starlark-parse.bench.mjs FILE.star…`.
//
// Bundles src/starlark with esbuild into a temp dir, splits each input file into chunks on lines
// that are exactly `---` (the chunked test format of docs/starlark.md, "Test files"), then parses
// and resolves every chunk (checkFile: nothing compiled or run; a chunk's syntax or resolve error
// counts as work done). Prints the median and best of 30 timed passes in MB/s, by wall clock and by
// process CPU time (which a busy machine disturbs less; it includes GC helper threads). The reference input
// is google/starlark-go's starlark/testdata/*.star, read from wherever you checked it out (it is not
// part of this repository); any chunked .star files work.
import { build } from 'esbuild';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const files = process.argv.slice(2);
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

for (let i = 0; i < 10; i++) pass();
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
const mbps = (ms) => (bytes / 1e6 / (ms / 1e3)).toFixed(1);
const median = times[Math.floor(times.length / 2)];
const cpuMedian = cpuTimes[Math.floor(cpuTimes.length / 2)];
console.log(
  `${chunks.length} chunks, ${bytes} bytes (${failed} with a static error): parse + resolve median ${median.toFixed(2)} ms = ${mbps(median)} MB/s, best ${mbps(times[0])} MB/s; process CPU time median ${mbps(cpuMedian)} MB/s (steadier on a shared machine)`,
);
