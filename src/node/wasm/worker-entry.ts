/**
 * The `worker_threads` entry of the Node WASM pool: the same job handler the Web Worker entry uses.
 * Built to dist/wasm-worker.js; when running from sources it is bundled on demand (worker-script.ts).
 */
import { parentPort } from 'node:worker_threads';
import { hardenRealm } from '../../../wasm/gojs/harden.ts';
import { createJobHandler } from '../../../wasm/worker/handler.ts';
import type { WorkerRequest } from '../../../wasm/worker/protocol.ts';

const port = parentPort;
if (!port) throw new Error('wasm worker-entry must run in a worker thread');
hardenRealm();
const handler = createJobHandler((event) => port.postMessage(event));
port.on('message', (req: WorkerRequest) => {
  void handler.handle(req).then(({ response, transfer }) => port.postMessage(response, transfer));
});
