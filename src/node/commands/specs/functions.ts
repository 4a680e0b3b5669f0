/** `krmfn functions`: the built-in catalog (implementation: src/node/commands/functions.ts). */
import type { Command } from './types.ts';

export const functionsSpec: Command = {
  name: 'functions',
  summary: 'List the built-in catalog functions',
  description: 'List the built-in catalog functions krmfn runs in-process.',
  usage: ['functions [--json]'],
  positionals: [],
  flags: [{ name: 'json', kind: 'bool', help: "print the list as JSON (with each function's config schema)" }],
  examples: ['krmfn functions', 'krmfn functions --json'],
  load: () => import('../functions.ts').then((m) => m.runFunctions),
};
