/** `krmfn build`: bundle an SDK function (implementation: src/node/commands/build.ts). */
import type { Command } from './types.ts';

export const buildSpec: Command = {
  name: 'build',
  summary: 'Bundle a function written with krmfn/sdk into one runnable JS file',
  description: 'Bundle a KRM function written with krmfn/sdk into one JS file runnable by node (needs esbuild).',
  usage: ['build [ENTRY] [flags]'],
  positionals: [{ name: 'ENTRY', help: 'the module default-exporting the function (default: src/fn.ts)' }],
  flags: [
    {
      name: 'target',
      kind: 'string',
      value: 'T',
      help: "exec: an executable for kpt's exec: and containers\nmodule: an ES module default-exporting the function descriptor\nbrowser: module for browsers (no Node built-ins), for createFunctionRuntime\ncontainer: exec plus a Dockerfile and metadata.yaml next to it\nwasm-js: a script defining globalThis.processResourceList (JS-global ABI)",
      default: 'exec',
      choices: ['exec', 'module', 'browser', 'container', 'wasm-js'],
    },
    {
      name: 'out',
      short: 'o',
      kind: 'string',
      value: 'FILE',
      help: 'output file (default: dist/fn.mjs, dist/fn.module.mjs, dist/fn.browser.mjs,\ndist/container/fn.mjs or dist/fn.global.js by target)',
    },
    { name: 'minify', kind: 'bool', help: 'minify the bundle' },
  ],
  examples: [
    'krmfn build',
    'krmfn build src/fn.ts --target container',
    'krmfn build --target module -o dist/fn.module.mjs',
    'krmfn build --target browser',
  ],
  load: () => import('../build.ts').then((m) => m.runBuild),
};
