/** `krmfn version` (also `krmfn --version`) (implementation: src/node/commands/version.ts). */
import type { Command } from './types.ts';

export const versionSpec: Command = {
  name: 'version',
  summary: 'Print the version, the kpt releases krmfn imitates and the built-in functions',
  description: "Print krmfn's version, the kpt releases it imitates (--kpt-version) and the built-in functions.",
  usage: ['version [--json]', '--version'],
  positionals: [],
  flags: [{ name: 'json', kind: 'bool', help: 'print the same as JSON' }],
  load: () => import('../version.ts').then((m) => m.runVersion),
};
