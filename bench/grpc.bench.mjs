// Load benchmark for `krmfn serve --grpc`: starts the server as a child process on loopback, drives
// it from this process with a real gRPC client (@grpc/grpc-js, krmfn's proto copy) for a bounded
// time at 8 and 64 concurrent streams over one channel, and prints requests per second and p50/p99
// latency for a small ResourceList through a built-in and a Starlark function. Baseline in the same
// run: grpc.health.v1.Health/Check (gRPC overhead alone). Never run in CI.
import { spawn } from 'node:child_process';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { LIST, STARLARK } from './fixtures.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const LEVELS = (process.env.BENCH_CONCURRENCY ?? '8,64').split(',').map(Number);

const def = protoLoader.loadSync(['evaluator.proto', 'health.proto'], {
  includeDirs: ['src/node/grpc/proto'],
  keepCase: true,
  enums: String,
  defaults: true,
});
const pkg = grpc.loadPackageDefinition(def);

const server = spawn(
  process.execPath,
  ['bin/krmfn.mjs', 'serve', '--grpc', '127.0.0.1:0', '--grpc-only', '--max-concurrent', '128'],
  { stdio: ['ignore', 'ignore', 'pipe'] },
);
const target = await new Promise((resolve, reject) => {
  let buf = '';
  server.stderr.on('data', (c) => {
    buf += c;
    const m = /"protocol":"grpc","address":"[^"]*:(\d+)"/.exec(buf);
    if (m) resolve(`127.0.0.1:${m[1]}`);
  });
  server.on('exit', (code) => reject(new Error(`server exited with ${code}: ${buf}`)));
});
const creds = grpc.credentials.createInsecure();
const evaluator = new pkg.evaluator.FunctionEvaluator(target, creds);
const health = new pkg.grpc.health.v1.Health(target, creds);

function once(call) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    call((err) => resolve({ ok: !err, ms: performance.now() - t0, err }));
  });
}

const health0 = (cb) => health.Check({ service: '' }, cb);
const evaluate = (image, list) => (cb) => evaluator.EvaluateFunction({ resource_list: Buffer.from(list), image }, cb);

async function scenario(name, call, concurrency) {
  const first = await once(call);
  if (!first.ok) throw new Error(`${name}: ${first.err.message}`);
  const lat = [];
  let errors = 0;
  const end = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const r = await once(call);
        if (r.ok) lat.push(r.ms);
        else errors++;
      }
    }),
  );
  lat.sort((a, b) => a - b);
  const q = (p) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))];
  return { name, concurrency, rps: lat.length / SECONDS, p50: q(0.5), p99: q(0.99), n: lat.length, errors };
}

try {
  console.log(`krmfn serve --grpc, one channel, ${SECONDS}s per scenario`);
  console.log('scenario                       streams   req/s    p50 ms   p99 ms   requests  errors  vs baseline');
  for (const c of LEVELS) {
    const rows = [
      await scenario('Health/Check (baseline)', health0, c),
      await scenario('set-namespace v0.4.1', evaluate('gcr.io/kpt-fn/set-namespace:v0.4.1', LIST), c),
      await scenario('starlark v0.5.0', evaluate('gcr.io/kpt-fn/starlark:v0.5.0', STARLARK), c),
    ];
    const base = rows[0].rps;
    for (const r of rows)
      console.log(
        `${r.name.padEnd(30)} ${String(r.concurrency).padStart(7)} ${r.rps.toFixed(0).padStart(7)} ${r.p50.toFixed(2).padStart(9)} ${r.p99.toFixed(2).padStart(8)} ${String(r.n).padStart(10)} ${String(r.errors).padStart(7)}   ${(r.rps / base).toFixed(2)}x`,
      );
  }
} finally {
  evaluator.close();
  health.close();
  server.kill('SIGTERM');
}
