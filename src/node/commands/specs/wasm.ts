/** `krmfn wasm push|pull`: kpt's WASM images (implementation: src/node/commands/wasm.ts). */
import type { Command } from './types.ts';

export const wasmSpec: Command = {
  name: 'wasm',
  summary: 'Push and pull kpt WASM function images (kpt alpha wasm push/pull)',
  description:
    'Push and pull kpt WASM function images, in the format `kpt alpha wasm push` writes (an index with a js/wasm entry).',
  usage: ['wasm push FILE.wasm IMAGE', 'wasm pull IMAGE FILE.wasm [--image-pull-policy P]'],
  positionals: [
    { name: 'push|pull', help: 'push a module to IMAGE, or pull the module of IMAGE into FILE.wasm' },
    { name: 'ARGS', help: 'push: FILE.wasm IMAGE; pull: IMAGE FILE.wasm' },
  ],
  flags: [
    {
      name: 'image-pull-policy',
      kind: 'string',
      value: 'P',
      help: 'pull: Always, IfNotPresent or Never',
      default: 'IfNotPresent',
      choices: ['Always', 'IfNotPresent', 'Never'],
    },
  ],
  examples: [
    'krmfn wasm push fn.wasm localhost:5000/fns/my-fn:v1',
    'krmfn wasm pull localhost:5000/fns/my-fn:v1 fn.wasm',
  ],
  notes:
    'Credentials come from the Docker config file ($DOCKER_CONFIG/config.json or ~/.docker/config.json);\npulled blobs are cached under $KRMFN_CACHE_DIR, $XDG_CACHE_HOME/krmfn or ~/.cache/krmfn.',
  load: () => import('../wasm.ts').then((m) => m.runWasm),
};
