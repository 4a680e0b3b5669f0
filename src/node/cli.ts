/**
 * `krmfn` entry: dispatches argv to a command of the command table (commands/specs/). The table's
 * flags are parsed here first, so every command answers `--help` with its generated help
 * (commands/help.ts) and every usage error the same way (`error: unknown flag: --x` and a
 * did-you-mean line); only then is the command's implementation imported and run. `main` works on
 * the injected `CliIO`; `runAsProcess` (called by the bin shim, bin/krmfn.mjs) binds it to the real
 * process and is the top-level handler: no error ever reaches the user as a Node stack trace.
 *
 * Contract of the process: an error nothing else reported prints one line, `error: <message>`, and
 * exits 1; a closed stdout (EPIPE, e.g. `krmfn fn source | head`) ends the process quietly with
 * status 141, the status kpt (a Go program, killed by SIGPIPE) ends with; a directory given as
 * stdin fails as kpt's read does (`error: read /dev/stdin: is a directory`, exit 1).
 */
import { fstatSync } from 'node:fs';
import { Readable } from 'node:stream';
import { bool, parseFlags, UsageError } from './cli-flags.ts';
import { fnHelp, formatHelp, rootHelp } from './commands/help.ts';
import { COMMANDS, KPT_COMMANDS, findCommand } from './commands/specs/index.ts';
import type { Command } from './commands/specs/types.ts';
import { nearestName } from '../core/nearest-name.ts';
import { errorLine } from './error-line.ts';
import { write, type CliIO } from './io.ts';

/** 128 + SIGPIPE: how a shell reports kpt killed by writing to a closed pipe. */
export const BROKEN_PIPE_STATUS = 141;

function isBrokenPipe(e: unknown): boolean {
  return (e as { code?: unknown } | null)?.code === 'EPIPE';
}

export async function main(io: CliIO): Promise<number> {
  try {
    return await dispatch(io);
  } catch (e) {
    if (isBrokenPipe(e)) return BROKEN_PIPE_STATUS;
    await write(io.stderr, errorLine(e)).catch(() => {});
    return 1;
  }
}

const HELP_WORDS = new Set(['--help', '-h', 'help']);

async function dispatch(io: CliIO): Promise<number> {
  const [first, ...rest] = io.argv;
  // cobra's `help COMMAND`: the command's --help.
  if (first === 'help' && rest.length > 0) {
    const words = rest[0] === 'fn' ? rest.slice(1) : rest;
    return words.length > 0 ? dispatch({ ...io, argv: [...words, '--help'] }) : dispatch({ ...io, argv: ['fn'] });
  }
  if (first === undefined || HELP_WORDS.has(first)) {
    await write(io.stdout, rootHelp());
    return 0;
  }
  if (first === '--version') return runCommand(findCommand('version')!, rest, io);
  // kpt spellings: `krmfn fn render ...` is `krmfn render ...`.
  if (first === 'fn') {
    if (rest[0] === undefined || HELP_WORDS.has(rest[0])) {
      await write(io.stdout, fnHelp());
      return 0;
    }
    return dispatchIn(KPT_COMMANDS, rest[0], rest.slice(1), io, 'krmfn fn');
  }
  return dispatchIn(COMMANDS, first, rest, io, 'krmfn');
}

async function dispatchIn(
  table: readonly Command[],
  name: string,
  args: string[],
  io: CliIO,
  parent: string,
): Promise<number> {
  const cmd = findCommand(name, table);
  if (!cmd) {
    // cobra's message and suggestion (spf13/cobra command.go findSuggestions).
    const near = nearestName(
      name,
      table.map((c) => c.name),
    );
    const hint = near !== undefined ? `\n\nDid you mean this?\n\t${near}` : '';
    await write(
      io.stderr,
      `error: unknown command ${JSON.stringify(name)} for "${parent}"${hint}\n\nRun '${parent} --help' for usage.\n`,
    );
    return 1;
  }
  return runCommand(cmd, args, io);
}

/** Parses `args` against the command's table entry (help, usage errors), then loads and runs it. */
async function runCommand(cmd: Command, args: string[], io: CliIO): Promise<number> {
  const sub = cmd.subcommands?.find((s) => s.name === args[0]);
  const spec = sub ?? cmd;
  try {
    const parsed = parseFlags(sub ? args.slice(1) : args, spec.flags, { singleDashLong: spec.singleDashLong === true });
    if (bool(parsed, 'help')) {
      await write(io.stdout, formatHelp(spec));
      return 0;
    }
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    await write(io.stderr, `error: ${e.message}\n${e.hint !== undefined ? `${e.hint}\n` : ''}`);
    return spec.usageExitCode ?? 1;
  }
  const run = await cmd.load();
  return run(args, io);
}

/** Standard input, or a stream that fails as Go's read does when fd 0 is a directory. */
function processStdin(): Readable {
  let isDir = false;
  try {
    isDir = fstatSync(0).isDirectory();
  } catch {
    // A closed fd 0 reads as empty, as in kpt.
  }
  if (!isDir) return process.stdin;
  return new Readable({
    read() {
      this.destroy(new Error('read /dev/stdin: is a directory'));
    },
  });
}

/** Runs `krmfn` as this process (argv, streams, environment, exit status) with the top-level handler. */
export async function runAsProcess(): Promise<void> {
  const fail = (e: unknown): void => {
    if (isBrokenPipe(e)) process.exit(BROKEN_PIPE_STATUS);
    try {
      process.stderr.write(errorLine(e));
    } finally {
      process.exit(1);
    }
  };
  process.on('uncaughtException', fail);
  process.on('unhandledRejection', fail);
  process.stdout.on('error', fail);
  process.stderr.on('error', (e) => process.exit(isBrokenPipe(e) ? BROKEN_PIPE_STATUS : 1));
  let stdin: Readable | undefined;
  const code = await main({
    argv: process.argv.slice(2),
    // Made at first use: process.stdin builds a stream (loading Node's fs streams) that most
    // commands never read, milliseconds of every start.
    get stdin(): Readable {
      return (stdin ??= processStdin());
    },
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
  });
  process.exitCode = code;
}
