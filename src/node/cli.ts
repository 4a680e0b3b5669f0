/**
 * `krmfn` entry: dispatches argv to a command of the registry. `main` works on the injected
 * `CliIO`; `runAsProcess` (called by the bin shim, bin/krmfn.mjs) binds it to the real process and
 * is the top-level handler: no error ever reaches the user as a Node stack trace.
 *
 * Contract of the process: an error nothing else reported prints one line, `error: <message>`, and
 * exits 1; a closed stdout (EPIPE, e.g. `krmfn fn source | head`) ends the process quietly with
 * status 141, the status kpt (a Go program, killed by SIGPIPE) ends with; a directory given as
 * stdin fails as kpt's read does (`error: read /dev/stdin: is a directory`, exit 1).
 */
import { fstatSync } from 'node:fs';
import { Readable } from 'node:stream';
import { COMMANDS } from './commands/index.ts';
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

async function dispatch(io: CliIO): Promise<number> {
  const [first, ...rest] = io.argv;
  if (!first || first === '--help' || first === '-h' || first === 'help') {
    await write(io.stdout, usage());
    return 0;
  }
  // kpt spellings: `krmfn fn render ...` is `krmfn render ...`.
  const [name, args] = first === 'fn' && rest.length > 0 ? [rest[0], rest.slice(1)] : [first, rest];
  const cmd = COMMANDS.find((c) => c.name === name || c.aliases?.includes(name));
  if (!cmd) {
    await write(io.stderr, `error: unknown command ${JSON.stringify(name)}\n\n${usage()}`);
    return 1;
  }
  return cmd.run(args, io);
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
  const code = await main({
    argv: process.argv.slice(2),
    stdin: processStdin(),
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
  });
  process.exitCode = code;
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
