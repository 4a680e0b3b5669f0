/** `krmfn completion SHELL`: shell completion from the command table (src/node/commands/completion.ts). */
import type { Command } from './types.ts';

export const completionSpec: Command = {
  name: 'completion',
  summary: 'Print a shell completion script (bash, zsh or fish)',
  description: 'Print a completion script for bash, zsh or fish, generated from the command table.',
  usage: ['completion bash|zsh|fish'],
  positionals: [{ name: 'SHELL', help: 'bash, zsh or fish' }],
  flags: [],
  examples: [
    'source <(krmfn completion bash)',
    'krmfn completion zsh > "${fpath[1]}/_krmfn"',
    'krmfn completion fish > ~/.config/fish/completions/krmfn.fish',
  ],
  load: () => import('../completion.ts').then((m) => m.runCompletion),
};
