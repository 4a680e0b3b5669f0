/** A `WorkerPool` over browser Web Workers. `create` makes one worker running web-entry.ts. */
import { WorkerPool, type WorkerLike } from './pool.ts';

export interface WebWorkerPoolOptions {
  create: () => Worker;
  maxWorkers?: number;
  reuse?: boolean;
}

export function webWorkerLike(w: Worker): WorkerLike {
  return {
    postMessage: (m, t) => w.postMessage(m, t),
    listen(onMessage, onError) {
      w.onmessage = (e: MessageEvent) => onMessage(e.data);
      w.onerror = (e: ErrorEvent) => {
        e.preventDefault();
        onError(e.error ?? new Error(e.message));
      };
    },
    terminate: () => w.terminate(),
  };
}

export function createWebWorkerPool(opts: WebWorkerPoolOptions): WorkerPool {
  return new WorkerPool({
    spawn: () => webWorkerLike(opts.create()),
    ...(opts.maxWorkers !== undefined ? { maxWorkers: opts.maxWorkers } : {}),
    ...(opts.reuse !== undefined ? { reuse: opts.reuse } : {}),
  });
}
