import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const r = (p: string): string => fileURLToPath(new URL(p, import.meta.url));

// Tests import the package by its public names. By default they resolve to the sources;
// KRMFN_TEST_DIST=1 points them at the built dist/ instead, so one suite covers both.
const dist = process.env.KRMFN_TEST_DIST === '1';
const entry = (src: string, built: string): string => r(dist ? built : src);

export default defineConfig({
  resolve: {
    alias: [
      { find: /^krmfn$/, replacement: entry('./src/index.ts', './dist/index.js') },
      { find: /^krmfn\/sdk$/, replacement: entry('./sdk/index.ts', './dist/sdk.js') },
      { find: /^krmfn\/sdk\/testing$/, replacement: entry('./sdk/testing.ts', './dist/sdk-testing.js') },
      { find: /^krmfn\/sdk\/node$/, replacement: entry('./src/node/sdk.ts', './dist/sdk-node.js') },
      { find: /^krmfn\/builtins$/, replacement: entry('./builtins/index.ts', './dist/builtins.js') },
      { find: /^krmfn\/starlark$/, replacement: entry('./src/starlark/index.ts', './dist/starlark.js') },
      { find: /^krmfn\/wasm$/, replacement: entry('./wasm/index.ts', './dist/wasm.js') },
      { find: /^krmfn\/node$/, replacement: entry('./src/node/index.ts', './dist/node.js') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    // The suites were written against kpt v1.0.0-beta.56 (the real kpt here, their oracle); the
    // default level is 1.0.0-beta.67 (src/core/kpt-version.ts). Subprocesses inherit this pin; a
    // test of another level says so with --kpt-version, KRMFN_KPT_VERSION or kptVersion.
    env: { KRMFN_KPT_VERSION: '1.0.0-beta.56' },
    pool: 'threads',
    // Removes the worker scripts bundled from sources into temp directories (the thread's end runs no 'exit' handler).
    setupFiles: ['test/harness/remove-worker-scripts.ts'],
    testTimeout: 20_000,
  },
});
