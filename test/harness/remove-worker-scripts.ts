// A vitest setup file. Tests running from sources bundle the worker scripts into temp directories
// (src/node/wasm/worker-script.ts) that the process's 'exit' event removes, but vitest ends each
// test file's thread with Worker.terminate(), which runs no 'exit' handler: remove them after the
// file's own afterAll hooks (setup hooks run last).
import { afterAll } from 'vitest';
import { removeBundledWorkerScripts } from '../../src/node/wasm/worker-script.ts';

afterAll(() => {
  removeBundledWorkerScripts();
});
