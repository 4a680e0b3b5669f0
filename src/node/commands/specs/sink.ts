/** `krmfn sink`: kpt fn sink (implementation: src/node/commands/sink.ts). */
import { KPT_VERSION_FLAG } from './kpt-run-flags.ts';
import type { Command } from './types.ts';

export const sinkSpec: Command = {
  name: 'sink',
  summary: 'Write a ResourceList from stdin into a new directory (kpt fn sink)',
  description: 'Write the resources read from stdin into a new directory (kpt fn sink).',
  usage: ['fn sink DIR', 'sink DIR'],
  positionals: [{ name: 'DIR', help: 'Directory to create; it must not exist yet.' }],
  flags: [KPT_VERSION_FLAG],
  examples: ['krmfn source pkg | krmfn eval - -i set-namespace:v0.4.1 -- namespace=prod | krmfn sink out'],
  kpt: true,
  load: () => import('../sink.ts').then((m) => m.runSink),
};
