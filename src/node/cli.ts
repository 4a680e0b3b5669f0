/**
 * `krmfn` entry: dispatches argv to a command of the registry. The bin shim (bin/krmfn.mjs) is the
 * only place that touches `process`; everything here works on the injected `CliIO`.
 */
import { COMMANDS } from './commands/index.ts';
import { write, type CliIO } from './io.ts';

export async function main(io: CliIO): Promise<number> {
  const [first, ...rest] = io.argv;
  if (!first || first === '--help' || first === '-h' || first === 'help') {
    await write(io.stdout, usage());
    return 0;
  }
  // kpt spellings: `krmfn fn render ...` is `krmfn render ...`.
  const [name, args] = first === 'fn' && rest.length > 0 ? [rest[0]!, rest.slice(1)] : [first, rest];
  const cmd = COMMANDS.find((c) => c.name === name || c.aliases?.includes(name));
  if (!cmd) {
    await write(io.stderr, `error: unknown command ${JSON.stringify(name)}\n\n${usage()}`);
    return 1;
  }
  return cmd.run(args, io);
}

function usage(): string {
  const lines = COMMANDS.map((c) => `  ${c.name.padEnd(12)} ${c.summary}`);
  return `krmfn: run KRM functions (kpt fn render / eval) in-process, no Docker.

Usage: krmfn <command> [flags]   (also: krmfn fn <command>, as kpt spells it)

Commands:
${lines.join('\n')}

Run 'krmfn <command> --help' for a command's flags.
`;
}
