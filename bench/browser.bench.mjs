// Browser benchmark: time to render the playground's sample package in Chromium (engine in a
// Web Worker), first and repeated, as the page reports it (Worker time, ms), plus the round trip
// as the page sees it. Baseline in the same run: the same package with its pipeline removed
// (read + write only), so the ratio shows what the functions themselves cost.
import { chromium } from 'playwright-core';
import { serveStatic } from '../scripts/static-server.mjs';

const REPEAT = Number(process.env.BENCH_REPEAT ?? 30);
const server = await serveStatic('web/dist');
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
try {
  const page = await browser.newPage();
  const t0 = Date.now();
  await page.goto(server.url);
  await page.waitForFunction(() => document.body.dataset.renderState === 'done', null, { timeout: 30_000 });
  const loadToFirst = Date.now() - t0;
  const first = Number((await page.textContent('#status')).match(/([\d.]+) ms/)?.[1]);
  const measure = (mutate) =>
    page.evaluate(
      async ({ n, mutate }) => {
        const pg = globalThis.krmfnPlayground;
        if (mutate) {
          const k = pg.files().Kptfile;
          pg.setFile('Kptfile', k.replace(/pipeline:[\s\S]*$/, ''));
        }
        const worker = [];
        const trip = [];
        for (let i = 0; i < n; i++) {
          const t = performance.now();
          const r = await pg.render();
          trip.push(performance.now() - t);
          worker.push(r.ms);
        }
        const med = (a) => a.sort((x, y) => x - y)[Math.floor(a.length / 2)];
        return { worker: med(worker), trip: med(trip) };
      },
      { n: REPEAT, mutate },
    );
  const repeated = await measure(false);
  const baseline = await measure(true);
  console.log(`playground sample "hello" (set-namespace, set-labels, starlark), Chromium, ${REPEAT} repeats`);
  console.log(
    `page load to first rendered diff: ${loadToFirst} ms (first render in the Worker: ${first.toFixed(1)} ms)`,
  );
  console.log(
    `repeated render, median: ${repeated.worker.toFixed(1)} ms in the Worker, ${repeated.trip.toFixed(1)} ms round trip`,
  );
  console.log(
    `baseline (same package, no pipeline): ${baseline.worker.toFixed(1)} ms in the Worker, ${baseline.trip.toFixed(1)} ms round trip`,
  );
  console.log(`ratio repeated/baseline: ${(repeated.worker / baseline.worker).toFixed(2)}x; one 60 Hz frame = 16.7 ms`);
} finally {
  await browser.close();
  await server.close();
}
