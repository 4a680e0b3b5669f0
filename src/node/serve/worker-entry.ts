/**
 * A render worker of `krmfn serve` (a `worker_threads` entry): builds the configured service once
 * from `workerData` (config.ts) and answers one job at a time. Built to dist/serve-worker.js; from
 * sources it is bundled on demand (../wasm/worker-script.ts). The main thread terminates the
 * worker at a job's deadline or when its client goes away, so nothing here watches the clock.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { createConfiguredService } from './config.ts';
import { errorToData, type WorkerAnswer, type WorkerMessage, type WorkerSetup } from './worker-protocol.ts';

const port = parentPort;
if (!port) throw new Error('serve worker-entry must run in a worker thread');
const setup = workerData as WorkerSetup;
const { service } = createConfiguredService(setup.config, setup.functions);
const never = new AbortController().signal;

port.on('message', (m: WorkerMessage) => {
  const job = m.op === 'run' ? service.run({ ...m.req, signal: never }) : service.render({ ...m.req, signal: never });
  void job.then(
    (value) => port.postMessage({ id: m.id, ok: true, value } satisfies WorkerAnswer),
    (e: unknown) => port.postMessage({ id: m.id, ok: false, error: errorToData(e) } satisfies WorkerAnswer),
  );
});
