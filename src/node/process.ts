/**
 * Runs a subprocess with bytes on stdin and captures stdout/stderr, with a deadline and output
 * caps. The one place krmfn spawns processes for functions (exec and container runtimes).
 *
 * Contract: resolves with the exit code whatever it is; rejects only when the program cannot be
 * started (`spawnError` set) — never for a non-zero exit. At the deadline or on abort the child's
 * whole process group gets SIGKILL and the promise rejects with a LimitExceededError('deadline')
 * / cancelled error. Stdout beyond `maxOutputBytes` kills the group and rejects with
 * LimitExceededError('output'). Stderr is kept up to `maxStderrBytes` (cut at a line end) and
 * counted beyond it: memory does not grow with the output, and the kept text ends with a note
 * saying how much was dropped.
 *
 * Process groups (POSIX): the child leads its own group (`detached`), so a deadline kills what it
 * started too, and once the child exits, members of its group still running (a backgrounded
 * `sleep` holding the pipes) are killed so the run ends. While any group lives, SIGINT, SIGTERM
 * and SIGHUP that would end krmfn (no other listener) kill the groups first (they no longer share
 * the terminal's group), then take their default action; a host with its own handlers (krmfn
 * serve draining) decides itself, and the groups are killed when the process exits.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { MAX_TIMER_MS } from '../core/duration.ts';
import { isKrmfnError, KrmfnError, LimitExceededError } from '../core/errors.ts';
import { captureNote } from '../core/capture-note.ts';

/** Stderr kept per call by default (kpt shows 4 lines of it by default; results.yaml gets it all). */
export const DEFAULT_MAX_STDERR_BYTES = 1024 * 1024;

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
  /** Bytes of stdout beyond which the call fails. */
  maxOutputBytes?: number;
  /** Bytes of stderr kept (default DEFAULT_MAX_STDERR_BYTES); the rest is counted, not stored. */
  maxStderrBytes?: number;
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

const GROUPS = process.platform !== 'win32';
const liveGroups = new Set<number>();
const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

function killLiveGroups(): void {
  for (const pid of liveGroups) killGroup(pid);
  liveGroups.clear();
}

/** A signal that will end krmfn (nobody else listens): end the function groups first. */
function onTerminatingSignal(sig: NodeJS.Signals): void {
  if (process.listenerCount(sig) > 1) return;
  killLiveGroups();
  unlisten();
  process.kill(process.pid, sig);
}

function unlisten(): void {
  for (const s of FORWARDED) process.off(s, onTerminatingSignal);
  process.off('exit', killLiveGroups);
}

function trackGroup(pid: number): void {
  if (liveGroups.size === 0) {
    for (const s of FORWARDED) process.on(s, onTerminatingSignal);
    // A host that handles signals itself and then exits (krmfn serve) still ends the groups.
    process.on('exit', killLiveGroups);
  }
  liveGroups.add(pid);
}

function untrackGroup(pid: number): void {
  if (!liveGroups.delete(pid)) return;
  if (liveGroups.size === 0) unlisten();
}

/** Kills the child and everything in its group, and lets go of the pipes. */
function stopChild(child: ChildProcess): void {
  if (GROUPS && child.pid !== undefined) {
    killGroup(child.pid);
    untrackGroup(child.pid);
  } else child.kill('SIGKILL');
  child.stdout?.destroy();
  child.stderr?.destroy();
  child.stdin?.destroy();
}

/**
 * Keeps the first `max` bytes, cut after the last line end inside them (or mid-line when they hold
 * none), and counts the rest. The note is appended right after the kept bytes, with no separator,
 * so `lineCount(kept + note) - 1 + droppedLines` is exactly the line count of the whole output
 * wherever the cut falls (src/engine/text-output.ts relies on it).
 */
class CappedText {
  private chunks: Buffer[] = [];
  private kept = 0;
  private droppedBytes = 0;
  private droppedLines = 0;
  private readonly max: number;
  constructor(max: number) {
    this.max = max;
  }

  push(c: Buffer): void {
    if (this.droppedBytes === 0 && this.kept + c.length <= this.max) {
      this.chunks.push(c);
      this.kept += c.length;
      return;
    }
    if (this.droppedBytes === 0) {
      const room = c.subarray(0, this.max - this.kept);
      const lineEnd = room.lastIndexOf(0x0a);
      if (lineEnd >= 0) {
        this.chunks.push(room.subarray(0, lineEnd + 1));
        this.kept += lineEnd + 1;
        c = c.subarray(lineEnd + 1);
      } else if (!this.cutAtLastLineEnd()) {
        this.chunks.push(room);
        this.kept += room.length;
        c = c.subarray(room.length);
      }
    }
    this.droppedBytes += c.length;
    for (let i = c.indexOf(0x0a); i >= 0; i = c.indexOf(0x0a, i + 1)) this.droppedLines++;
  }

  /** Moves the kept bytes after the last kept line end to the dropped count; false when none. */
  private cutAtLastLineEnd(): boolean {
    for (let k = this.chunks.length - 1; k >= 0; k--) {
      const at = this.chunks[k].lastIndexOf(0x0a);
      if (at < 0) continue;
      const tail = this.chunks.slice(k + 1).reduce((n, b) => n + b.length, this.chunks[k].length - at - 1);
      this.chunks = [...this.chunks.slice(0, k), this.chunks[k].subarray(0, at + 1)];
      this.kept -= tail;
      this.droppedBytes += tail;
      return true;
    }
    return false;
  }

  bytes(): Uint8Array {
    const kept = Buffer.concat(this.chunks);
    if (this.droppedBytes === 0) return new Uint8Array(kept);
    const note = captureNote(this.droppedBytes, this.droppedLines);
    return new Uint8Array(Buffer.concat([kept, Buffer.from(note)]));
  }
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
      if (child.pid !== undefined) untrackGroup(child.pid);
      if (err) {
        stopChild(child);
        reject(err instanceof Error ? err : new Error(String(err)));
      } else resolve(value!);
    };
    const child = spawn(req.program, [...req.args], {
      cwd: req.cwd,
      env: req.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: GROUPS,
    });
    if (GROUPS && child.pid !== undefined) trackGroup(child.pid);
    const out: Buffer[] = [];
    const errs = new CappedText(req.maxStderrBytes ?? DEFAULT_MAX_STDERR_BYTES);
    let size = 0;
    child.stdout.on('data', (c: Buffer) => {
      size += c.length;
      if (size > max) {
        finish(
          new LimitExceededError(
            'output',
            `function ${JSON.stringify(name)} wrote more than ${max} bytes of output`,
            name,
          ),
        );
        return;
      }
      out.push(c);
    });
    child.stderr.on('data', (c: Buffer) => errs.push(c));
    child.on('error', (e: NodeJS.ErrnoException) => {
      const message = `${req.spawnErrorPrefix ?? ''}fork/exec ${req.writtenAs ?? req.program}: ${describeSpawnError(e)}`;
      finish(new KrmfnError({ code: 'function-failed', message, function: name, cause: e }));
    });
    // The child is done: whatever it left running in its group would only hold the pipes open.
    child.on('exit', () => {
      if (GROUPS && child.pid !== undefined) {
        killGroup(child.pid);
        untrackGroup(child.pid);
      }
    });
    child.on('close', (code, sig) => {
      finish(undefined, {
        exitCode: code ?? (sig ? 128 + signalNumber(sig) : 1),
        stdout: new Uint8Array(Buffer.concat(out)),
        stderr: errs.bytes(),
        signal: sig,
      });
    });
    // A child that exits without reading stdin gives EPIPE: not an error of ours.
    child.stdin.on('error', () => {});
    child.stdin.end(req.stdin);

    const onAbort = (): void => {
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
      timer = setTimeout(
        () =>
          finish(
            new LimitExceededError(
              'deadline',
              `function ${JSON.stringify(name)} timed out after ${formatMs(ms)}`,
              name,
            ),
          ),
        Math.min(ms, MAX_TIMER_MS),
      );
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
