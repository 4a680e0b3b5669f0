/** `krmfn init`: scaffold a function project (implementation: src/node/commands/init.ts). */
import type { Command } from './types.ts';

export const initSpec: Command = {
  name: 'init',
  summary: 'Scaffold a new function project (source, schema, golden test, build)',
  description: 'Create a new KRM function project written with krmfn/sdk.',
  usage: ['init NAME [flags]'],
  positionals: [{ name: 'NAME', help: 'the function name (lowercase letters, digits and dashes), e.g. set-owner' }],
  flags: [
    {
      name: 'kind',
      kind: 'string',
      value: 'K',
      help: 'mutator, validator or generator',
      default: 'mutator',
      choices: ['mutator', 'validator', 'generator'],
    },
    { name: 'dir', kind: 'string', value: 'DIR', help: 'where to create the project (default: ./NAME)' },
    {
      name: 'krmfn',
      kind: 'string',
      value: 'SPEC',
      help: 'npm spec of the krmfn dependency (default: file: path of this krmfn)',
    },
  ],
  examples: ['krmfn init set-owner', 'krmfn init require-owner --kind validator'],
  notes: 'Then: cd NAME && npm install && npm test && npm run typecheck && npm run build',
  load: () => import('../init.ts').then((m) => m.runInit),
};
