// Times whole processes for the benchmarks: wall time always, and CPU time (user + system) when
// GNU time is at /usr/bin/time (Linux); medians of several runs, interleaved by the caller so that
// the load of a shared machine falls on every contender alike.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const GNU_TIME = '/usr/bin/time';
const hasGnuTime = existsSync(GNU_TIME);

/** Runs `command args` once; throws on a non-zero status. Returns { wallMs, cpuMs (or null) }. */
export function timeProcess(command, args, options = {}) {
  const scratch = mkdtempSync(join(tmpdir(), 'krmfn-bench-time-'));
  const out = join(scratch, 'time');
  try {
    const [cmd, argv] = hasGnuTime ? [GNU_TIME, ['-o', out, '-f', '%U %S', command, ...args]] : [command, args];
    const t0 = performance.now();
    const r = spawnSync(cmd, argv, { encoding: 'utf8', maxBuffer: 1 << 28, ...options });
    const wallMs = performance.now() - t0;
    if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
    let cpuMs = null;
    if (hasGnuTime) {
      const [user, system] = readFileSync(out, 'utf8').trim().split('\n').pop().split(' ').map(Number);
      cpuMs = (user + system) * 1000;
    }
    return { wallMs, cpuMs };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

export function median(values) {
  const v = values.filter((x) => x !== null).sort((a, b) => a - b);
  if (v.length === 0) return null;
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
}

/**
 * Runs each contender `rounds` times, interleaved (a, b, c, a, b, c, ...); `prepare(name)` runs
 * before each timed run, untimed. Returns { [name]: { wallMs, cpuMs } } of medians.
 */
export function interleaved(contenders, rounds, prepare = () => {}) {
  const runs = Object.fromEntries(Object.keys(contenders).map((k) => [k, []]));
  for (let i = 0; i < rounds; i++) {
    for (const [name, run] of Object.entries(contenders)) {
      prepare(name);
      runs[name].push(run());
    }
  }
  return Object.fromEntries(
    Object.entries(runs).map(([name, rs]) => [
      name,
      { wallMs: median(rs.map((r) => r.wallMs)), cpuMs: median(rs.map((r) => r.cpuMs)) },
    ]),
  );
}
