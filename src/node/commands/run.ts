/**
 * `krmfn run IMAGE`: one function as a container would run it — a ResourceList on stdin, the
 * output ResourceList on stdout, the function's stderr on stderr, its exit code as ours. This
 * lets kpt itself (or any orchestrator) use krmfn's built-ins and Starlark as `exec:` functions:
 *   exec: krmfn run gcr.io/kpt-fn/set-namespace:v0.4.1
 */
import { createEngine, runFunction } from '../../index.ts';
import { isKrmfnError } from '../../core/errors.ts';
import { bool, parseDuration, parseFlags, str, UsageError, type FlagSpec } from '../cli-flags.ts';
import { readAll, write, type CliIO, type Command } from '../io.ts';

const FLAGS: readonly FlagSpec[] = [
  { name: 'timeout', kind: 'string' },
  { name: 'help', short: 'h', kind: 'bool' },
];

const HELP = `Run one function on a ResourceList read from stdin, as its container would.

Usage:
  krmfn run IMAGE [--timeout DURATION] < resource-list.yaml > output.yaml

The output ResourceList goes to stdout, the function's messages to stderr, and the exit code is
the function's. Use it as a kpt exec function: exec: krmfn run gcr.io/kpt-fn/set-labels:v0.2.0
`;

export const runCommand: Command = {
  name: 'run',
  summary: 'Run one function on a ResourceList from stdin, as its container would',
  async run(args: string[], io: CliIO): Promise<number> {
    try {
      const p = parseFlags(args, FLAGS);
      if (bool(p, 'help')) {
        await write(io.stdout, HELP);
        return 0;
      }
      if (p.positional.length !== 1) throw new UsageError('want exactly one IMAGE argument');
      const timeout = str(p, 'timeout');
      const input = await readAll(io.stdin);
      const out = await runFunction(
        createEngine().runtime,
        p.positional[0],
        input,
        timeout ? { limits: { timeoutMs: parseDuration(timeout) } } : {},
      );
      await write(io.stdout, out.stdout);
      if (out.stderr) await write(io.stderr, out.stderr.endsWith('\n') ? out.stderr : out.stderr + '\n');
      return out.exitCode;
    } catch (e) {
      await write(io.stderr, `error: ${isKrmfnError(e) || e instanceof UsageError ? e.message : String(e)}\n`);
      return 1;
    }
  },
};
