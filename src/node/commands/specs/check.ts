/** `krmfn check`: config hints for built-in functions (implementation: src/node/commands/check.ts). */
import type { Command } from './types.ts';

export const checkSpec: Command = {
  name: 'check',
  summary: "Check a package's built-in function configs against their schemas",
  description:
    "Check, without running anything, that each built-in function in a package's pipelines (and its\nsubpackages') is given a config it reads (its configPath file or inline configMap; with --image and\n--fn-config, the one config eval would pass): a config kind it accepts, only keys its schema\ndeclares (with the nearest declared key for a misspelt one), values of the declared types. The\nfunctions themselves, like kpt's, ignore keys they do not read; render and eval print exactly what\nkpt prints. Exits 1 when there is a problem.",
  usage: ['check [PKG_PATH] [flags]', 'check --image IMAGE --fn-config FILE [flags]'],
  positionals: [{ name: 'PKG_PATH', help: 'the package to check (default: the current directory)' }],
  flags: [
    {
      name: 'image',
      short: 'i',
      kind: 'string',
      value: 'IMAGE',
      help: 'with --fn-config: the image eval would run (no package is walked)',
    },
    { name: 'fn-config', kind: 'string', value: 'FILE', help: 'with --image: the config file eval would pass to it' },
    { name: 'json', kind: 'bool', help: 'print {configs, problems: [...]} as JSON' },
  ],
  examples: [
    'krmfn check',
    'krmfn check pkg && krmfn render pkg',
    'krmfn check --image set-labels:v0.2.0 --fn-config labels.yaml',
    'krmfn check --json',
  ],
  load: () => import('../check.ts').then((m) => m.runCheck),
};
