// Load benchmark for `krmfn serve`: starts the server as a child process, drives it from this
// process for a bounded time with a fixed number of concurrent keep-alive clients, and prints
// requests per second and p50/p99 latency for a small ResourceList through a built-in and a
// Starlark function. Baseline in the same run: GET /healthz (HTTP overhead alone).
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { LIST, STARLARK } from './fixtures.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);

const server = spawn(process.execPath, ['bin/krmfn.mjs', 'serve', '--port', '0', '--max-concurrent', '64'], {
  stdio: ['ignore', 'ignore', 'pipe'],
});
const url = await new Promise((resolve, reject) => {
  let buf = '';
  server.stderr.on('data', (c) => {
    buf += c;
    const m = /"url":"([^"]+)"/.exec(buf);
    if (m) resolve(m[1]);
  });
  server.on('exit', (code) => reject(new Error(`server exited with ${code}: ${buf}`)));
});
const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function once(method, path, body) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = request(
      `${url}${path}`,
      { method, agent, headers: body ? { 'content-type': 'application/yaml' } : {} },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode, ms: performance.now() - t0 }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function scenario(name, method, path, body) {
  const first = await once(method, path, body);
  if (first.status !== 200) throw new Error(`${name}: HTTP ${first.status}`);
  const lat = [];
  let errors = 0;
  const end = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        const r = await once(method, path, body);
        if (r.status === 200) lat.push(r.ms);
        else errors++;
      }
    }),
  );
  lat.sort((a, b) => a - b);
  const q = (p) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))];
  return { name, rps: lat.length / SECONDS, p50: q(0.5), p99: q(0.99), n: lat.length, errors };
}

try {
  const rows = [];
  rows.push(await scenario('GET /healthz (baseline)', 'GET', '/healthz'));
  rows.push(await scenario('set-namespace v0.4.1', 'POST', '/v1/run?image=gcr.io/kpt-fn/set-namespace:v0.4.1', LIST));
  try {
    rows.push(await scenario('starlark v0.5.0', 'POST', '/v1/run?image=gcr.io/kpt-fn/starlark:v0.5.0', STARLARK));
  } catch (e) {
    console.log(`starlark scenario skipped: ${e.message}`);
  }
  console.log(`krmfn serve, ${CONCURRENCY} concurrent keep-alive clients, ${SECONDS}s per scenario`);
  console.log('scenario                      req/s     p50 ms   p99 ms   requests  errors  vs baseline');
  const base = rows[0].rps;
  for (const r of rows) {
    console.log(
      `${r.name.padEnd(28)} ${r.rps.toFixed(0).padStart(7)} ${r.p50.toFixed(2).padStart(9)} ${r.p99.toFixed(2).padStart(8)} ${String(r.n).padStart(10)} ${String(r.errors).padStart(7)}   ${(r.rps / base).toFixed(2)}x`,
    );
  }
} finally {
  agent.destroy();
  server.kill('SIGTERM');
}
