/**
 * `krmfn starlark`: Starlark files, a REPL and chunked test files, with starlark-go's flag
 * spellings (implementation: src/node/commands/starlark.ts).
 */
import type { Command } from './types.ts';

const load = () => import('../starlark.ts').then((m) => m.runStarlark);

const starlarkTestSpec: Command = {
  name: 'test',
  summary: 'Run chunked Starlark test files',
  description: 'Run chunked Starlark test files (chunks separated by ---, expected errors as ### comments).',
  usage: ['starlark test [flags] FILE...'],
  positionals: [{ name: 'FILE', help: 'a chunked test file' }],
  flags: [
    { name: 'run', kind: 'string', value: 'REGEXP', help: 'run only chunks whose title or text matches' },
    {
      name: 'known-failures',
      kind: 'string',
      value: 'FILE',
      help: 'JSON object "<file>: <chunk title>" -> reason; listed chunks run but do not fail',
    },
    { name: 'max-steps', kind: 'string', value: 'N', help: 'stop each chunk after N interpreter steps' },
    { name: 'timeout', kind: 'string', value: 'DURATION', help: 'stop each chunk after DURATION (e.g. 10s, 500ms)' },
  ],
  singleDashLong: true,
  usageExitCode: 2,
  load,
};

export const starlarkSpec: Command = {
  name: 'starlark',
  summary: 'Run Starlark files, chunked Starlark tests, or a Starlark REPL',
  description: 'Run Starlark programs and chunked Starlark test files (flags: one dash or two, as starlark-go).',
  usage: [
    'starlark [flags] FILE.star',
    'starlark run [flags] FILE.star',
    'starlark [flags]',
    'starlark test [flags] FILE...',
  ],
  positionals: [{ name: 'FILE.star', help: 'the program to run; none starts an interactive read-eval-print loop' }],
  flags: [
    { name: 'set', kind: 'bool', help: 'allow the set builtin', default: 'true' },
    { name: 'globalreassign', kind: 'bool', help: 'allow re-binding globals, top-level if/for and while' },
    { name: 'recursion', kind: 'bool', help: 'allow recursive functions' },
    { name: 'max-steps', kind: 'string', value: 'N', help: 'stop after N interpreter steps' },
    {
      name: 'max-output',
      kind: 'string',
      value: 'BYTES',
      help: 'stop once print has written BYTES',
      default: '268435456',
    },
    { name: 'timeout', kind: 'string', value: 'DURATION', help: 'stop after DURATION (e.g. 10s, 500ms)' },
  ],
  subcommands: [starlarkTestSpec],
  examples: ['krmfn starlark -recursion fib.star', 'krmfn starlark test -run dict testdata/*.star'],
  notes: 'Exit status: 0 on success, 1 on a Starlark error or failing chunks, 2 on usage or harness errors.',
  singleDashLong: true,
  usageExitCode: 2,
  load,
};
