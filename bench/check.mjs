// `npm run bench:check`: runs the render benchmark (bench/render.bench.mjs --json), or reads the
// figures of an earlier run (`--from FILE`), and compares every ratio with bench/baseline.json.
// A ratio more than 10% worse than its baseline (higher when lower is better, lower when higher is
// better) is a regression: listed, and the exit status is 1. Timing on a shared machine is noisy,
// so this runs by hand, not in CI. `--update` writes the run's figures as the new baseline;
// `--baseline FILE` compares with another file.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const baselineOption = process.argv.indexOf('--baseline');
const baselineFile = baselineOption >= 0 ? process.argv[baselineOption + 1] : join(here, 'baseline.json');
const TOLERANCE = 0.1;

/** Ratios of `current` more than TOLERANCE worse than in `baseline`; ratios only one side has are skipped. */
export function regressions(baseline, current) {
  const out = [];
  for (const [name, now] of Object.entries(current.ratios)) {
    const before = baseline.ratios[name];
    if (!before) continue;
    const worse =
      now.better === 'lower' ? now.value > before.value * (1 + TOLERANCE) : now.value < before.value / (1 + TOLERANCE);
    if (worse) out.push({ name, baseline: before.value, now: now.value, better: now.better });
  }
  return out;
}

function currentFigures(argv) {
  const from = argv.indexOf('--from');
  if (from >= 0) return JSON.parse(readFileSync(argv[from + 1], 'utf8'));
  const r = spawnSync(process.execPath, [join(here, 'render.bench.mjs'), '--json'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 1 << 26,
  });
  if (r.status !== 0) throw new Error(`the benchmark failed (exit ${r.status})`);
  return JSON.parse(r.stdout);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const current = currentFigures(process.argv);
  if (process.argv.includes('--update')) {
    writeFileSync(baselineFile, `${JSON.stringify(current, null, 2)}\n`);
    console.log(`baseline written: ${baselineFile}`);
  } else {
    const baseline = JSON.parse(readFileSync(baselineFile, 'utf8'));
    const found = regressions(baseline, current);
    console.log(`compared ${Object.keys(current.ratios).length} ratios with bench/baseline.json (${baseline.date})`);
    for (const r of found) {
      console.log(`REGRESSION ${r.name}: ${r.baseline} -> ${r.now} (${r.better} is better, tolerance 10%)`);
    }
    if (found.length === 0) console.log('no ratio regressed by more than 10%');
    process.exitCode = found.length === 0 ? 0 : 1;
  }
}
