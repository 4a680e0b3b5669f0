/**
 * `krmfn run IMAGE`: one function as a container would run it — a ResourceList on stdin, the
 * output ResourceList on stdout, the function's stderr on stderr, its exit code as ours. This
 * lets kpt itself (or any orchestrator) use krmfn's built-ins and Starlark as `exec:` functions:
 *   exec: krmfn run gcr.io/kpt-fn/set-namespace:v0.4.1
 */
import { createEngine, defaultRuntimes, runFunction } from '../../index.ts';
import { isKrmfnError } from '../../core/errors.ts';
import { parseDuration, parseFlags, str, UsageError } from '../cli-flags.ts';
import { readAll, write, type CliIO } from '../io.ts';
import { nodeOpenApiLoader } from '../open-api.ts';
import { runSpec } from './specs/run.ts';

export async function runRunCommand(args: string[], io: CliIO): Promise<number> {
  try {
    const p = parseFlags(args, runSpec.flags);
    if (p.positional.length !== 1) throw new UsageError('want exactly one IMAGE argument');
    const timeout = str(p, 'timeout');
    const input = await readAll(io.stdin);
    const out = await runFunction(
      createEngine({ runtimes: defaultRuntimes({ openApi: nodeOpenApiLoader }) }).runtime,
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
}
