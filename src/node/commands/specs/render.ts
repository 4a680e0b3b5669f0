/** `krmfn render`: kpt fn render in process (implementation: src/node/commands/render.ts). */
import { KPT_RUN_FLAGS } from './kpt-run-flags.ts';
import type { Command } from './types.ts';

export const renderSpec: Command = {
  name: 'render',
  summary: 'Render a package: run its Kptfile pipelines (kpt fn render)',
  description: 'Render a package: run the Kptfile pipelines of the package and its subpackages, in process.',
  usage: ['render [PKG_PATH] [flags]', 'fn render [PKG_PATH] [flags]'],
  positionals: [{ name: 'PKG_PATH', help: 'Local package path to render (default: the current directory).' }],
  flags: [
    { name: 'allow-exec', kind: 'bool', help: 'allow exec functions (binaries named by exec: in the Kptfile)' },
    {
      name: 'diff',
      kind: 'bool',
      help: 'write nothing; print the changes as a unified diff on stdout',
    },
    {
      name: 'exit-code',
      kind: 'bool',
      help: 'with --diff: exit 1 when rendering would change the package (for CI)',
    },
    {
      name: 'watch',
      kind: 'bool',
      help: 'render again after each change under PKG_PATH (respects .krmignore),\nprinting the diff of each run; Ctrl-C stops',
    },
    {
      name: 'jobs',
      kind: 'string',
      value: 'N',
      help: 'hydrate up to N sibling subpackages at a time; output is the same\nas one at a time',
      default: '1',
    },
    ...KPT_RUN_FLAGS,
  ],
  examples: [
    'krmfn render my-package',
    'krmfn render --diff --exit-code .   # CI: fail when the committed package is not rendered',
    'krmfn render --watch my-package',
    'krmfn render -o unwrap . | kubectl apply -f -',
  ],
  notes: 'Environment: KPT_DISABLE_ATTRIBUTION disables the cnrm blueprint attribution; NO_COLOR disables colour.',
  kpt: true,
  load: () => import('../render.ts').then((m) => m.runRender),
};
