/**
 * Runs a subprocess with bytes on stdin and captures stdout/stderr, with a deadline and an output
 * cap. The one place krmfn spawns processes for functions (exec and container runtimes).
 *
 * Contract: resolves with the exit code whatever it is; rejects only when the program cannot be
 * started (`spawnError` set) — never for a non-zero exit. At the deadline or on abort the child
 * gets SIGKILL and the promise rejects with a LimitExceededError('deadline') / cancelled error.
 * Output beyond `maxOutputBytes` kills the child and rejects with LimitExceededError('output').
 */
import { spawn } from 'node:child_process';
import { isKrmfnError, KrmfnError, LimitExceededError } from '../core/errors.ts';

export interface ProcessRequest {
  program: string;
  args: readonly string[];
  stdin: Uint8Array;
  cwd?: string;
  env?: Readonly<Record<string, string | undefined>>;
  /** Epoch ms; omitted = no deadline. */
  deadline?: number;
  now?: () => number;
  signal?: AbortSignal;
  maxOutputBytes?: number;
  /** Shown in error messages (defaults to the program). */
  displayName?: string;
  /** Program name as the user wrote it, for start-up errors (defaults to the program). */
  writtenAs?: string;
  /** Prefix of the start-up error message (kpt's exec runtime says `unexpected function error: `). */
  spawnErrorPrefix?: string;
}

export interface ProcessResult {
  exitCode: number;
  stdout: Uint8Array;
  stderr: Uint8Array;
  /** Set when the child was ended by a signal. */
  signal: string | null;
}

export function runProcess(req: ProcessRequest): Promise<ProcessResult> {
  const name = req.displayName ?? req.program;
  const now = req.now ?? Date.now;
  const max = req.maxOutputBytes ?? Infinity;
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (err: unknown, value?: ProcessResult): void => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      req.signal?.removeEventListener('abort', onAbort);
      if (err) reject(err);
      else resolve(value!);
    };
    const child = spawn(req.program, [...req.args], {
      cwd: req.cwd,
      env: req.env as NodeJS.ProcessEnv | undefined,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const errs: Buffer[] = [];
    let size = 0;
    const take = (into: Buffer[]) => (c: Buffer) => {
      size += c.length;
      if (size > max) {
        child.kill('SIGKILL');
        finish(
          new LimitExceededError(
            'output',
            `function ${JSON.stringify(name)} wrote more than ${max} bytes of output`,
            name,
          ),
        );
        return;
      }
      into.push(c);
    };
    child.stdout.on('data', take(out));
    child.stderr.on('data', take(errs));
    child.on('error', (e: NodeJS.ErrnoException) => {
      const message = `${req.spawnErrorPrefix ?? ''}fork/exec ${req.writtenAs ?? req.program}: ${describeSpawnError(e)}`;
      finish(new KrmfnError({ code: 'function-failed', message, function: name, cause: e }));
    });
    child.on('close', (code, sig) => {
      finish(undefined, {
        exitCode: code ?? (sig ? 128 + signalNumber(sig) : 1),
        stdout: new Uint8Array(Buffer.concat(out)),
        stderr: new Uint8Array(Buffer.concat(errs)),
        signal: sig,
      });
    });
    // A child that exits without reading stdin gives EPIPE: not an error of ours.
    child.stdin.on('error', () => {});
    child.stdin.end(req.stdin);

    const onAbort = (): void => {
      child.kill('SIGKILL');
      // The aborting party's reason (e.g. the engine's deadline error) wins when it is ours.
      const reason: unknown = req.signal?.reason;
      finish(
        isKrmfnError(reason)
          ? reason
          : new KrmfnError({
              code: 'cancelled',
              message: `function ${JSON.stringify(name)} was cancelled`,
              function: name,
            }),
      );
    };
    if (req.signal?.aborted) onAbort();
    else req.signal?.addEventListener('abort', onAbort, { once: true });
    let timer: ReturnType<typeof setTimeout> | undefined;
    if (req.deadline !== undefined) {
      const ms = Math.max(0, req.deadline - now());
      timer = setTimeout(() => {
        child.kill('SIGKILL');
        finish(
          new LimitExceededError('deadline', `function ${JSON.stringify(name)} timed out after ${formatMs(ms)}`, name),
        );
      }, ms);
    }
  });
}

function describeSpawnError(e: NodeJS.ErrnoException): string {
  if (e.code === 'ENOENT') return 'no such file or directory';
  if (e.code === 'EACCES') return 'permission denied';
  return e.message;
}

function signalNumber(sig: string): number {
  return (
    ({ SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGSEGV: 11, SIGPIPE: 13, SIGTERM: 15 } as Record<string, number>)[
      sig
    ] ?? 0
  );
}

function formatMs(ms: number): string {
  return ms >= 1000 && ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}
