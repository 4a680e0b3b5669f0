/** `krmfn test`: a function project's golden cases (implementation: src/node/commands/test.ts). */
import type { Command } from './types.ts';

export const testSpec: Command = {
  name: 'test',
  summary: "Run a function project's golden cases (no test framework)",
  description: "Run a function project's golden cases (testdata/<case>/) without a test framework.",
  usage: ['test [DIR] [flags]'],
  positionals: [{ name: 'DIR', help: 'the function project (default: the current directory)' }],
  flags: [
    { name: 'entry', kind: 'string', value: 'FILE', help: 'the function module (default: DIR/src/fn.ts)' },
    {
      name: 'update',
      kind: 'bool',
      help: "rewrite each case's _expected.yaml and _expected_status.yaml\n(also WRITE_GOLDEN_OUTPUT=1)",
    },
  ],
  examples: ['krmfn test', 'krmfn test --update'],
  notes:
    'A case is a directory testdata/<case>/ holding the input resources, an optional _fnconfig.yaml,\n_expected.yaml (the whole output ResourceList) and _expected_status.yaml (exitCode, stderr).\nOn a terminal the diffs are coloured (NO_COLOR turns that off).',
  load: () => import('../test.ts').then((m) => m.runTest),
};
