/**
 * The exec runtime (kptdev/kpt internal/fnruntime/exec.go at v1.0.0-beta.56): `exec:` functions
 * run as subprocesses with the ResourceList on stdin and the output on stdout; stderr is captured
 * (capped while read, src/node/process.ts); the environment is inherited, as kpt never sets
 * `ExecFn.Env`; the working directory is the process's (kpt resolves relative programs against
 * it, not the package). Render requires `--allow-exec` (ResolveContext.allowExec); eval grants it.
 * At the deadline (or on cancel) the child's whole process group gets SIGKILL.
 */
import * as nodePath from 'node:path';
import { KrmfnError, NotFoundError } from '../core/errors.ts';
import type {
  BytesOutcome,
  BytesRunner,
  FunctionRuntime,
  PipelineFunction,
  ResolveContext,
  RunContext,
} from '../core/function.ts';
import { splitCommandLine } from '../engine/shlex.ts';
import { runProcess } from './process.ts';

export interface ExecRuntimeOptions {
  /** Environment of the child (default: this process's). */
  env?: Readonly<Record<string, string | undefined>>;
}

export function createExecRuntime(options: ExecRuntimeOptions = {}): FunctionRuntime {
  return {
    name: 'exec',
    async resolve(spec: PipelineFunction, ctx: ResolveContext): Promise<BytesRunner> {
      if (!spec.exec) throw new NotFoundError(spec.image ?? ctx.displayName);
      if (!ctx.allowExec) {
        throw new KrmfnError({
          code: 'exec-not-allowed',
          message: 'must run with `--allow-exec` option to allow running function binaries',
          function: ctx.displayName,
        });
      }
      const argv = splitCommandLine(spec.exec);
      if (argv.length === 0)
        throw new KrmfnError({ code: 'usage', message: `empty exec command ${JSON.stringify(spec.exec)}` });
      const cwd = ctx.cwd;
      return {
        kind: 'bytes',
        run: (stdin, rctx) => runExec(argv, stdin, rctx, cwd, options.env ?? process.env),
      };
    },
  };
}

function runExec(
  argv: string[],
  stdin: Uint8Array,
  ctx: RunContext,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<BytesOutcome> {
  const [program, ...args] = argv as [string, ...string[]];
  return runProcess({
    program: program.includes('/') ? nodePath.resolve(cwd, program) : program,
    writtenAs: program,
    spawnErrorPrefix: 'unexpected function error: ',
    args,
    stdin,
    cwd,
    env,
    signal: ctx.signal,
    maxOutputBytes: ctx.limits.maxOutputBytes,
    displayName: argv.join(' '),
  }).then((r) => ({ stdout: r.stdout, stderr: new TextDecoder().decode(r.stderr), exitCode: r.exitCode }));
}
