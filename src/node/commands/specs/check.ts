/** `krmfn check`: config hints for built-in functions (implementation: src/node/commands/check.ts). */
import type { Command } from './types.ts';

export const checkSpec: Command = {
  name: 'check',
  summary: "Check a package's built-in function configs against their schemas",
  description:
    "Check, without running anything, that each built-in function in a package's pipelines (and its\nsubpackages') is given a config it reads: a config kind it accepts, only keys its schema declares\n(with the nearest declared key for a misspelt one), values of the declared types. The functions\nthemselves, like kpt's, ignore keys they do not read; render and eval print exactly what kpt prints.\nExits 1 when there is a problem.",
  usage: ['check [PKG_PATH] [flags]'],
  positionals: [{ name: 'PKG_PATH', help: 'the package to check (default: the current directory)' }],
  flags: [],
  examples: ['krmfn check', 'krmfn check pkg && krmfn render pkg'],
  load: () => import('../check.ts').then((m) => m.runCheck),
};
