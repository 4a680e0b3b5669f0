// Render benchmark (npm run bench builds dist/ first; `npm run bench -- --json` prints the figures
// as JSON on stdout, the table going to stderr; bench/check.mjs compares them with
// bench/baseline.json). Every figure is a ratio of two things measured in the same run, so it holds
// from machine to machine where absolute times do not. Issue #17's targets:
// - render ÷ parse+emit floor of the same files, in-process, at 100, 1,000 and 10,000 resources
//   through 5 built-in mutators (each measurement in a fresh child process, medians of
//   BENCH_REPS interleaved floor/render pairs, default 3): <= 1.3;
// - peak RSS of that render at 10,000 resources and at BENCH_BIG_MB MB of input (default 50, one
//   floor/render pair; 0 skips it, which needs about 2.6 GB of memory) ÷ (2.5 x input + 100 MB): <= 1;
// - the YAML layer alone (bench/yaml.bench.mjs --json, merged in): round trip >= 2x the `yaml`
//   package's CST parser at 1 and 10 MB, >= 1.5x go-yaml's when BENCH_GOYAML names the go-yaml
//   program (see bench/README.md), and the peak RSS of a 50 MB round trip ÷ the same budget;
// - with BENCH_STARLARK_TESTDATA (google/starlark-go's starlark/testdata, not in this repository),
//   the Starlark front end's MB/s (bench/starlark-parse.bench.mjs --json): >= 20;
// - kpt's floor ÷ krmfn, whole processes on 1,000 resources x 5 functions: kpt running five
//   `/bin/cat` exec functions (when `kpt` is on PATH) against `krmfn render` of the 5 built-ins: >= 10;
// - start-up: `krmfn render` of a 20-resource package ÷ `node -e 0`: <= 1.5, and ÷ `kpt version`: <= 1.
// Whole-process figures are medians of interleaved runs, CPU (user + system) beside wall time.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CAT_KPTFILE, files, generate, resourcesForMegabytes } from './package-gen.mjs';
import { ratio } from './figures.mjs';
import { interleaved, median, timeProcess } from './process-timing.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(repo, 'bin/krmfn.cjs');
const SIZES = (process.env.BENCH_SIZES ?? '100,1000,10000').split(',').map(Number);
const BIG_MB = Number(process.env.BENCH_BIG_MB ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const REPS = Math.max(1, Number(process.env.BENCH_REPS ?? 3));

async function child(mode, pkg) {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const cpuMs = () => {
    const c = process.cpuUsage(cpu0);
    return (c.user + c.system) / 1000;
  };
  if (mode === 'floor') {
    const { parseYamlFile, emitYamlFile } = await import(join(repo, 'dist/index.js'));
    const start = performance.now();
    const cpuStart = cpuMs();
    for (const f of files(pkg)) {
      const parsed = parseYamlFile(readFileSync(f, 'utf8'), { file: f });
      emitYamlFile(parsed.docs, parsed.seqIndent);
    }
    const ms = performance.now() - start;
    return { ms, cpu: cpuMs() - cpuStart, total: performance.now() - t0 };
  }
  const { createEngine } = await import(join(repo, 'dist/index.js'));
  const { NodeFs } = await import(join(repo, 'dist/node.js'));
  const engine = createEngine();
  const start = performance.now();
  const cpuStart = cpuMs();
  const outcome = await engine.render({ fs: new NodeFs(), root: pkg });
  const ms = performance.now() - start;
  if (!outcome.ok) throw new Error(outcome.failure.error.message);
  return { ms, cpu: cpuMs() - cpuStart, functions: outcome.functionsRun };
}

function measure(mode, pkg) {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', mode, pkg], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

const MB = 1024 * 1024;
const kptOnPath = () => spawnSync('kpt', ['version'], { encoding: 'utf8' }).status === 0;

/** Medians of each numeric field over `runs`. */
function medians(runs) {
  return Object.fromEntries(Object.keys(runs[0]).map((k) => [k, median(runs.map((r) => r[k]))]));
}

/**
 * In-process render against the floor, and peak RSS against its budget, at `n` resources: medians
 * of BENCH_REPS interleaved pairs (one sample of each swung the ratio by half on a loaded machine),
 * each render on a fresh copy of the generated package.
 */
function renderVsFloor(n, log, figures, key = String(n), reps = REPS) {
  const { dir, pkg, bytes } = generate(n);
  const work = join(dir, 'work');
  try {
    const floors = [];
    const renders = [];
    for (let r = 0; r < reps; r++) {
      floors.push(measure('floor', pkg));
      rmSync(work, { recursive: true, force: true });
      cpSync(pkg, work, { recursive: true });
      renders.push(measure('render', work));
    }
    const floor = medians(floors);
    const render = medians(renders);
    const budgetMB = (2.5 * bytes) / MB + 100;
    figures.raw[`render_${key}`] = { resources: n, inputMB: bytes / MB, floor, render, rssBudgetMB: budgetMB };
    figures.ratios[`render_over_floor_wall_${key}`] = ratio(render.ms / floor.ms, 1.3, 'lower');
    figures.ratios[`render_over_floor_cpu_${key}`] = ratio(render.cpu / floor.cpu, 1.3, 'lower');
    figures.ratios[`rss_over_budget_${key}`] = ratio(render.rssMB / budgetMB, 1, 'lower');
    const pair = (a, b) => `${a.toFixed(0)} (${b.toFixed(0)})`;
    log(
      `${String(n).padStart(9)} | ${(bytes / MB).toFixed(1).padStart(8)} | ${pair(floor.ms, floor.cpu).padStart(25)} | ${pair(render.ms, render.cpu).padStart(15)} | ${`${(render.ms / floor.ms).toFixed(2)} (${(render.cpu / floor.cpu).toFixed(2)})`.padStart(16)} | ${render.rssMB.toFixed(0).padStart(8)} / ${budgetMB.toFixed(0)}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Whole processes on fresh copies of one pristine package per contender. krmfn's code cache lives
 * in a scratch directory, warmed by one untimed run, as an installed krmfn's is after its first use.
 */
function wholeProcess(n, contenders, rounds) {
  const pristine = Object.fromEntries(
    Object.entries(contenders).map(([name, c]) => [
      name,
      c.kptfile ? generate(n, { kptfile: c.kptfile }) : generate(n),
    ]),
  );
  const scratch = mkdtempSync(join(tmpdir(), 'krmfn-bench-run-'));
  const work = join(scratch, 'pkg');
  const cacheDir = join(scratch, 'code-cache');
  const env = { ...process.env, KRMFN_CACHE_DIR: cacheDir };
  const fresh = (name) => {
    rmSync(work, { recursive: true, force: true });
    cpSync(pristine[name].pkg, work, { recursive: true });
  };
  try {
    for (const name of Object.keys(contenders)) {
      fresh(name);
      contenders[name].run(work, env);
    }
    return interleaved(
      Object.fromEntries(Object.entries(contenders).map(([name, c]) => [name, () => c.run(work, env)])),
      rounds,
      fresh,
    );
  } finally {
    for (const p of Object.values(pristine)) rmSync(p.dir, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  }
}

const krmfnRender = (work, env) => timeProcess(process.execPath, [bin, 'render', work], { env });
const fmt = (t) => `${t.wallMs.toFixed(0)} ms wall${t.cpuMs === null ? '' : `, ${t.cpuMs.toFixed(0)} ms CPU`}`;

async function main() {
  const json = process.argv.includes('--json');
  const log = (line) => (json ? process.stderr : process.stdout).write(`${line}\n`);
  const figures = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: cpus().length,
    loadavg: loadavg().map((l) => Number(l.toFixed(2))),
    ratios: {},
    raw: {},
  };
  const hasKpt = kptOnPath();
  log(
    'krmfn render benchmark: pipeline of 5 built-in mutators (set-namespace, set-labels, set-annotations, set-labels, set-namespace)',
  );
  log(
    `Every figure is a ratio of two measurements in this run. Load average ${figures.loadavg.join(' ')} on ${figures.cpus} CPUs.`,
  );
  log(
    'resources | input MB | floor parse+emit ms (cpu) | render ms (cpu) | ratio wall (cpu) | peak RSS MB / budget (2.5 x input + 100)',
  );
  for (const n of SIZES) renderVsFloor(n, log, figures);
  if (BIG_MB > 0) renderVsFloor(resourcesForMegabytes(BIG_MB), log, figures, `${BIG_MB}mb`, 1);

  log('\nYAML layer (bench/yaml.bench.mjs):');
  const yaml = spawnSync(process.execPath, [join(repo, 'bench/yaml.bench.mjs'), '--json'], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  for (const line of yaml.stderr.trimEnd().split('\n')) log(`  ${line}`);
  if (yaml.status !== 0) throw new Error('bench/yaml.bench.mjs failed');
  const yamlFigures = JSON.parse(yaml.stdout.trim().split('\n').pop());
  Object.assign(figures.ratios, yamlFigures.ratios);
  Object.assign(figures.raw, yamlFigures.raw);
  if (!process.env.BENCH_GOYAML)
    log('  go-yaml not measured: set BENCH_GOYAML to the go-yaml program (bench/README.md)');

  const starlarkDir = process.env.BENCH_STARLARK_TESTDATA;
  if (starlarkDir) {
    log('\nStarlark front end (bench/starlark-parse.bench.mjs):');
    const stars = readdirSync(starlarkDir)
      .filter((f) => f.endsWith('.star'))
      .map((f) => join(starlarkDir, f));
    const star = spawnSync(process.execPath, [join(repo, 'bench/starlark-parse.bench.mjs'), '--json', ...stars], {
      encoding: 'utf8',
    });
    for (const line of star.stderr.trimEnd().split('\n')) log(`  ${line}`);
    if (star.status !== 0) throw new Error('bench/starlark-parse.bench.mjs failed');
    const starFigures = JSON.parse(star.stdout.trim().split('\n').pop());
    Object.assign(figures.ratios, starFigures.ratios);
    Object.assign(figures.raw, starFigures.raw);
  } else {
    log("\nStarlark front end not measured: set BENCH_STARLARK_TESTDATA to starlark-go's starlark/testdata");
  }

  const contenders = { krmfn: { run: krmfnRender } };
  if (hasKpt) {
    contenders.kptCat = {
      kptfile: CAT_KPTFILE,
      run: (work) => timeProcess('kpt', ['fn', 'render', work, '--allow-exec']),
    };
  }
  const whole = wholeProcess(1000, contenders, Math.max(3, Math.floor(ROUNDS / 2)));
  figures.raw.whole_process_1000x5 = whole;
  log(`\nwhole process, 1,000 resources x 5 functions: krmfn render ${fmt(whole.krmfn)}`);
  if (hasKpt) {
    log(`  kpt fn render with 5 /bin/cat exec functions (kpt's floor): ${fmt(whole.kptCat)}`);
    figures.ratios.kpt_cat_floor_over_krmfn_wall_1000x5 = ratio(whole.kptCat.wallMs / whole.krmfn.wallMs, 10, 'higher');
    log(`  kpt floor ÷ krmfn: ${figures.ratios.kpt_cat_floor_over_krmfn_wall_1000x5.value}x wall (target >= 10x)`);
    if (whole.krmfn.cpuMs) {
      // GNU time counts the children a process waited for: kpt's five cat processes are in its figure.
      figures.ratios.kpt_cat_floor_over_krmfn_cpu_1000x5 = ratio(whole.kptCat.cpuMs / whole.krmfn.cpuMs, 10, 'higher');
    }
  } else {
    log('  kpt is not on PATH: kpt floor not measured');
  }

  const startup = { krmfn: { run: krmfnRender }, node: { run: () => timeProcess(process.execPath, ['-e', '0']) } };
  if (hasKpt) startup.kptVersion = { run: () => timeProcess('kpt', ['version']) };
  const start = wholeProcess(20, startup, ROUNDS);
  figures.raw.startup_20 = start;
  figures.ratios.startup_render20_over_node_wall = ratio(start.krmfn.wallMs / start.node.wallMs, 1.5, 'lower');
  if (start.node.cpuMs) {
    figures.ratios.startup_render20_over_node_cpu = ratio(start.krmfn.cpuMs / start.node.cpuMs, 1.5, 'lower');
  }
  log(`\nstart-up: krmfn render of 20 resources ${fmt(start.krmfn)}; node -e 0 ${fmt(start.node)}`);
  log(`  ÷ node -e 0: ${figures.ratios.startup_render20_over_node_wall.value}x wall (target <= 1.5x)`);
  if (hasKpt) {
    figures.ratios.startup_render20_over_kpt_version_wall = ratio(
      start.krmfn.wallMs / start.kptVersion.wallMs,
      1,
      'lower',
    );
    log(
      `  ÷ kpt version (${fmt(start.kptVersion)}): ${figures.ratios.startup_render20_over_kpt_version_wall.value}x (target <= 1x)`,
    );
  }

  log('\nratio                                         value   target   met');
  for (const [name, r] of Object.entries(figures.ratios)) {
    log(
      `${name.padEnd(44)} ${String(r.value).padStart(7)}   ${r.better === 'lower' ? '<=' : '>='} ${String(r.target).padEnd(4)}  ${r.met ? 'yes' : 'NO'}`,
    );
  }
  if (json) process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
}

if (process.argv[2] === '--generate') {
  // For profiling: node bench/render.bench.mjs --generate 1000 → prints the package path.
  console.log(generate(Number(process.argv[3])).pkg);
} else if (process.argv[2] === '--child') {
  const res = await child(process.argv[3], process.argv[4]);
  res.rssMB = process.resourceUsage().maxRSS / 1024;
  console.log(JSON.stringify(res));
} else {
  await main();
}
