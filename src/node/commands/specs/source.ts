/** `krmfn source`: kpt fn source (implementation: src/node/commands/source.ts). */
import { KPT_VERSION_FLAG } from './kpt-run-flags.ts';
import type { Command } from './types.ts';

export const sourceSpec: Command = {
  name: 'source',
  summary: 'Print a package as a ResourceList on stdout (kpt fn source)',
  description: 'Print the resources of a package as a ResourceList on stdout (kpt fn source).',
  usage: ['fn source [DIR] [flags]', 'source [DIR] [flags]'],
  positionals: [{ name: 'DIR', help: 'Package directory or resource file (default: the current directory).' }],
  flags: [
    { name: 'fn-config', kind: 'string', value: 'FILE', help: 'add FILE as the functionConfig of the ResourceList' },
    {
      name: 'output',
      short: 'o',
      kind: 'string',
      value: 'OUT',
      help: 'stdout (a ResourceList) or unwrap (plain YAML stream)',
      default: 'stdout',
      choices: ['stdout', 'unwrap'],
    },
    {
      name: 'include-meta-resources',
      kind: 'bool',
      help: 'no longer needed: meta resources are included by default (an error, as in kpt)',
    },
    KPT_VERSION_FLAG,
  ],
  examples: ['krmfn source my-package | krmfn eval - -i set-namespace:v0.4.1 -- namespace=prod | krmfn sink out'],
  kpt: true,
  load: () => import('../source.ts').then((m) => m.runSource),
};
