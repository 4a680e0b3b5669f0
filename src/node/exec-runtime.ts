/**
 * The exec runtime (kpt-compat.md §15.2): `exec:` functions run as subprocesses with the
 * ResourceList on stdin and the output on stdout; stderr is captured verbatim; the environment is
 * inherited; the working directory is the process's (kpt resolves relative programs against it,
 * not the package). Render requires `--allow-exec` (ResolveContext.allowExec); eval grants it.
 * At the deadline (or on cancel) the child gets SIGKILL.
 */
import { spawn } from 'node:child_process';
import * as nodePath from 'node:path';
import { KrmfnError, NotFoundError } from '../core/errors.ts';
import type { BytesOutcome, BytesRunner, FunctionRuntime, FunctionSpec, ResolveContext, RunContext } from '../core/function.ts';
import { splitCommandLine } from '../engine/shlex.ts';

export interface ExecRuntimeOptions {
  /** Environment of the child (default: this process's). */
  env?: Readonly<Record<string, string | undefined>>;
}

export function createExecRuntime(options: ExecRuntimeOptions = {}): FunctionRuntime {
  return {
    name: 'exec',
    async resolve(spec: FunctionSpec, ctx: ResolveContext): Promise<BytesRunner> {
      if (!spec.exec) throw new NotFoundError(spec.image ?? ctx.displayName);
      if (!ctx.allowExec) {
        throw new KrmfnError({
          code: 'exec-not-allowed',
          message: 'must run with `--allow-exec` option to allow running function binaries',
          function: ctx.displayName,
        });
      }
      const argv = splitCommandLine(spec.exec);
      if (argv.length === 0) throw new KrmfnError({ code: 'usage', message: `empty exec command ${JSON.stringify(spec.exec)}` });
      const cwd = ctx.cwd;
      return {
        kind: 'bytes',
        run: (stdin, rctx) => runProcess(argv, stdin, rctx, cwd, options.env ?? process.env),
      };
    },
  };
}

function runProcess(
  argv: string[],
  stdin: Uint8Array,
  ctx: RunContext,
  cwd: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<BytesOutcome> {
  const [program, ...args] = argv as [string, ...string[]];
  const file = program.includes('/') ? nodePath.resolve(cwd, program) : program;
  return new Promise<BytesOutcome>((resolve, reject) => {
    const child = spawn(file, args, { cwd, env: env as NodeJS.ProcessEnv, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let settled = false;
    const finish = (f: () => void): void => {
      if (settled) return;
      settled = true;
      ctx.signal.removeEventListener('abort', onAbort);
      f();
    };
    const onAbort = (): void => {
      child.kill('SIGKILL');
      finish(() => reject(ctx.signal.reason));
    };
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (c: Buffer) => {
      outBytes += c.length;
      if (outBytes > ctx.limits.maxOutputBytes) {
        child.kill('SIGKILL');
        finish(() => reject(new KrmfnError({ code: 'limit-exceeded', message: `function ${JSON.stringify(argv.join(' '))} wrote more than ${ctx.limits.maxOutputBytes} bytes to stdout` })));
        return;
      }
      out.push(c);
    });
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', (e: NodeJS.ErrnoException) => {
      const what = e.code === 'ENOENT' ? 'no such file or directory' : e.code === 'EACCES' ? 'permission denied' : e.message;
      finish(() =>
        reject(new KrmfnError({ code: 'function-failed', message: `unexpected function error: fork/exec ${program}: ${what}`, cause: e })),
      );
    });
    child.on('close', (code, signal) => {
      finish(() =>
        resolve({
          stdout: new Uint8Array(Buffer.concat(out)),
          stderr: Buffer.concat(err).toString('utf8'),
          exitCode: code ?? (signal ? 128 + 9 : 1),
        }),
      );
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(Buffer.from(stdin.buffer, stdin.byteOffset, stdin.byteLength));
  });
}
