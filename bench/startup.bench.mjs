// `npm run bench:startup`: where a `krmfn` start goes, finer than the start-up ratio of
// bench/render.bench.mjs (7 rounds of GNU time at 10 ms resolution). Interleaved starts of
// `node -e 0`, `krmfn --help` (the launch: bundle, code cache, top level) and `krmfn render` of a
// 20-resource package (bench/package-gen.mjs), each measured inside the child by a preloaded
// script: CPU of all its threads (`process.cpuUsage()`, microseconds) and wall time since the
// process began, both at its `exit` event. Medians of BENCH_ROUNDS (default 30) rounds, each
// contender with its own code cache warmed by two untimed starts. `--compare DIR` adds the same two
// starts of another checkout's build (DIR/bin/krmfn.cjs), for before/after figures in one run.
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from './package-gen.mjs';
import { median } from './process-timing.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);
const compare = process.argv.indexOf('--compare');
const builds = { this: join(repo, 'bin/krmfn.cjs') };
if (compare >= 0) builds.other = join(resolve(process.argv[compare + 1]), 'bin/krmfn.cjs');

const scratch = mkdtempSync(join(tmpdir(), 'krmfn-bench-startup-'));
const probe = join(scratch, 'probe.cjs');
writeFileSync(
  probe,
  "process.on('exit', () => { const u = process.cpuUsage(); require('node:fs').writeSync(2, `\\nSTARTUP ${(u.user + u.system) / 1000} ${performance.now()}\\n`); });\n",
);
const { dir: pristineDir, pkg: pristine } = generate(20);
const work = join(scratch, 'pkg');

/** One start of node with `args` (after the probe); returns { cpuMs, wallMs }. */
function start(args, env) {
  const r = spawnSync(process.execPath, ['-r', probe, ...args], { encoding: 'utf8', env, maxBuffer: 1 << 26 });
  const m = /^STARTUP (\S+) (\S+)$/m.exec(r.stderr);
  if (r.status !== 0 || !m) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { cpuMs: Number(m[1]), wallMs: Number(m[2]) };
}

const contenders = { 'node -e 0': () => start(['-e', '0'], process.env) };
for (const [name, bin] of Object.entries(builds)) {
  const env = { ...process.env, KRMFN_CACHE_DIR: join(scratch, `cache-${name}`) };
  contenders[`${name}: krmfn --help`] = () => start([bin, '--help'], env);
  contenders[`${name}: krmfn render (20)`] = () => start([bin, 'render', work], env);
}
const fresh = () => {
  rmSync(work, { recursive: true, force: true });
  cpSync(pristine, work, { recursive: true });
};
try {
  for (const run of Object.values(contenders)) for (let i = 0; i < 2; i++) (fresh(), run());
  const runs = Object.fromEntries(Object.keys(contenders).map((k) => [k, []]));
  for (let i = 0; i < ROUNDS; i++)
    for (const [name, run] of Object.entries(contenders)) (fresh(), runs[name].push(run()));
  const base = median(runs['node -e 0'].map((r) => r.cpuMs));
  console.log(`start-up, medians of ${ROUNDS} interleaved rounds (CPU of all threads and wall, at exit)`);
  for (const [name, rs] of Object.entries(runs)) {
    const cpu = median(rs.map((r) => r.cpuMs));
    const wall = median(rs.map((r) => r.wallMs));
    console.log(
      `${name.padEnd(30)} ${cpu.toFixed(1).padStart(7)} ms CPU (${(cpu / base).toFixed(2)}x) ${wall.toFixed(1).padStart(7)} ms wall`,
    );
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
  rmSync(pristineDir, { recursive: true, force: true });
}
