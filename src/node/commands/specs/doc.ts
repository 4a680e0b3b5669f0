/** `krmfn doc`: kpt fn doc for built-ins (implementation: src/node/commands/doc.ts). */
import type { Command } from './types.ts';

export const docSpec: Command = {
  name: 'doc',
  summary: "Print a built-in function's documentation (kpt fn doc)",
  description: 'Print the documentation of a built-in function (kpt fn doc).',
  usage: ['fn doc --image IMAGE', 'doc IMAGE'],
  positionals: [{ name: 'IMAGE', help: 'the function image, as --image (krmfn only; kpt takes no argument)' }],
  flags: [
    {
      name: 'image',
      short: 'i',
      kind: 'string',
      value: 'IMAGE',
      help: 'function image (short names get gcr.io/kpt-fn/)',
    },
  ],
  examples: ['krmfn fn doc --image set-namespace:v0.4.1', 'krmfn doc set-labels'],
  kpt: true,
  load: () => import('../doc.ts').then((m) => m.runDoc),
};
