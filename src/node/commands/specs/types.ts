/**
 * The command table's types: every `krmfn` command is declared once, as a `Command` (name,
 * summary, usage lines, positionals, flags with kinds, defaults and help, examples). The table
 * drives argument parsing (src/node/cli-flags.ts), `--help` (src/node/commands/help.ts) and shell
 * completion (src/node/commands/completion.ts); `load` imports the implementation only when the
 * command runs, so start-up loads only what the command needs.
 */
import type { FlagSpec } from '../../cli-flags.ts';
import type { CliIO } from '../../io.ts';

/** A command's entry point: argv after the command name, the exit code back. */
export type CommandRun = (args: string[], io: CliIO) => Promise<number>;

/** A flag as the parser reads it and as `--help` and completion show it. */
export interface FlagDef extends FlagSpec {
  /** Placeholder of the value in help (`--output OUT`); string and list flags only. */
  value?: string;
  /** One or more lines of help; the default, when there is one, is appended as `(default X)`. */
  help: string;
  /** The default as help shows it. */
  default?: string;
  /** The values completion offers. */
  choices?: readonly string[];
}

export interface Positional {
  name: string;
  help: string;
}

export interface Command {
  name: string;
  /** One line, for `krmfn --help` and completion. */
  summary: string;
  /** The first paragraph of `--help`. */
  description: string;
  /** Usage lines without the leading `krmfn ` (e.g. `render [PKG_PATH] [flags]`). */
  usage: readonly string[];
  positionals: readonly Positional[];
  /** Every flag the command accepts except `-h/--help`, which every command has. */
  flags: readonly FlagDef[];
  examples?: readonly string[];
  /** Trailing paragraphs of `--help`. */
  notes?: string;
  /** A kpt command, also spelled `krmfn fn NAME`. */
  kpt?: boolean;
  /** Nested commands (`krmfn starlark test`), each with its own flags and help. */
  subcommands?: readonly Command[];
  /** starlark-go style: `-flag` is `--flag` (Go's flag package). */
  singleDashLong?: boolean;
  /** Exit code of a usage error (default 1; starlark-go's is 2). */
  usageExitCode?: number;
  load(): Promise<CommandRun>;
}
