/**
 * `--help` texts, generated from the command table (specs/*.ts): a command's description, usage
 * lines, positionals, every flag it accepts (with its default) and examples; the root help
 * (`krmfn --help`) and the kpt group's (`krmfn fn --help`).
 */
import { COMMANDS, KPT_COMMANDS } from './specs/index.ts';
import type { Command, FlagDef } from './specs/types.ts';

const HELP_DEF: FlagDef = { name: 'help', short: 'h', kind: 'bool', help: 'show this help' };

function flagLabel(f: FlagDef, dash: string): string {
  const short = f.short ? `-${f.short}, ` : '    ';
  const value = f.kind === 'bool' ? '' : ` ${f.value ?? 'VALUE'}`;
  return `${short}${dash}${f.name}${value}`;
}

/** Two columns: labels padded to the widest, continuation lines of the text aligned under it. */
function columns(rows: readonly (readonly [string, string])[], indent = '  '): string {
  const width = Math.max(...rows.map(([l]) => l.length)) + 3;
  return rows
    .map(([label, text]) =>
      text
        .split('\n')
        .map((line, i) => `${indent}${(i === 0 ? label : '').padEnd(width)}${line}`.trimEnd())
        .join('\n'),
    )
    .join('\n');
}

function flagText(f: FlagDef): string {
  return f.default !== undefined ? `${f.help} (default ${f.default})` : f.help;
}

/** The help of a command or subcommand: its usage lines already spell the words that reach it. */
export function formatHelp(cmd: Command): string {
  const dash = cmd.singleDashLong ? '-' : '--';
  const out: string[] = [cmd.description, '', 'Usage:', ...cmd.usage.map((u) => `  krmfn ${u}`)];
  if (cmd.positionals.length) out.push('', 'Args:', columns(cmd.positionals.map((p) => [p.name, p.help])));
  if (cmd.subcommands?.length)
    out.push(
      '',
      'Commands:',
      columns(cmd.subcommands.map((s) => [s.name, `${s.summary} (krmfn ${cmd.name} ${s.name} --help)`])),
    );
  out.push('', 'Flags:', columns([...cmd.flags, HELP_DEF].map((f) => [flagLabel(f, dash), flagText(f)])));
  if (cmd.examples?.length) out.push('', 'Examples:', ...cmd.examples.map((e) => `  ${e}`));
  if (cmd.notes) out.push('', cmd.notes);
  return out.join('\n') + '\n';
}

export function rootHelp(): string {
  return `krmfn: run KRM functions (kpt fn render / eval) in-process, no Docker.

Usage: krmfn <command> [flags]   (also: krmfn fn <command>, as kpt spells it)

Commands:
${columns(COMMANDS.map((c) => [c.name, c.summary]))}

Flags:
${columns([
  ['-h, --help', 'show this help'],
  ['    --version', "print krmfn's version (krmfn version)"],
])}

Run 'krmfn <command> --help' (or 'krmfn help <command>') for a command's flags.
`;
}

export function fnHelp(): string {
  return `The kpt fn commands, as kpt spells them (each is also a krmfn command of the same name).

Usage: krmfn fn <command> [flags]

Commands:
${columns(KPT_COMMANDS.map((c) => [c.name, c.summary]))}

Run 'krmfn fn <command> --help' for a command's flags.
`;
}
