/**
 * Web Worker entry: `new Worker(new URL('krmfn/wasm/worker', import.meta.url), { type: 'module' })`
 * (or the bundler's equivalent), then hand it to `createWebWorkerPool`.
 */
import { hardenRealm } from '../gojs/harden.ts';
import { createJobHandler } from './handler.ts';
import type { WorkerRequest } from './protocol.ts';

/** The dedicated worker scope, structurally (the core's lib has WebWorker, the test lib has DOM). */
declare const self: {
  onmessage: ((e: MessageEvent<WorkerRequest>) => void) | null;
  postMessage(message: unknown, transfer: Transferable[]): void;
};

hardenRealm();
const handler = createJobHandler((event) => self.postMessage(event, []));
self.onmessage = (e: MessageEvent<WorkerRequest>): void => {
  void handler.handle(e.data).then(({ response, transfer }) => self.postMessage(response, transfer));
};
