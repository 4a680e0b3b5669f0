/** `krmfn run IMAGE`: one function as its container would run (implementation: src/node/commands/run.ts). */
import type { Command } from './types.ts';

export const runSpec: Command = {
  name: 'run',
  summary: 'Run one function on a ResourceList from stdin, as its container would',
  description: 'Run one function on a ResourceList read from stdin, as its container would.',
  usage: ['run IMAGE [--timeout DURATION] < resource-list.yaml > output.yaml'],
  positionals: [{ name: 'IMAGE', help: 'the function image (built-in, Starlark or WASM)' }],
  flags: [
    { name: 'timeout', kind: 'string', value: 'DURATION', help: 'deadline of the call, e.g. 30s', default: '60s' },
  ],
  examples: ['krmfn source pkg | krmfn run set-namespace:v0.4.1'],
  notes:
    "The output ResourceList goes to stdout, the function's messages to stderr, and the exit code is\nthe function's. Use it as a kpt exec function: exec: krmfn run gcr.io/kpt-fn/set-labels:v0.2.0",
  load: () => import('../run.ts').then((m) => m.runRunCommand),
};
