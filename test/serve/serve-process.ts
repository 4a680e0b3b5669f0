/**
 * `krmfn serve` as a real process (bin/krmfn.mjs over dist/, built first when missing) on a free
 * loopback port: its URL (from the "listening" log line), its JSON log lines, its resident memory
 * and a way to signal it. For the CLI and soak tests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { ensureBuilt } from '../harness/built-cli.ts';
import * as path from 'node:path';

const repo = path.resolve(import.meta.dirname, '../..');

export interface ServeProcess {
  url: string;
  proc: ChildProcess;
  logs: Array<Record<string, unknown>>;
  /** Resident set size of the server process (not its workers), in bytes. */
  rss(): number;
  /** Sends `signal` and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export { ensureBuilt } from '../harness/built-cli.ts';

/** `nodeArgs` go to the server's own Node (e.g. a heap limit); its workers set their own. */
export async function startServeProcess(args: string[], nodeArgs: string[] = []): Promise<ServeProcess> {
  ensureBuilt();
  const proc = spawn(process.execPath, [...nodeArgs, 'bin/krmfn.mjs', 'serve', '-p', '0', ...args], {
    cwd: repo,
    env: { PATH: process.env.PATH },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const logs: Array<Record<string, unknown>> = [];
  let buffered = '';
  const exited = new Promise<number | null>((r) => proc.on('exit', (code) => r(code)));
  const url = await new Promise<string>((resolve, reject) => {
    proc.stderr.setEncoding('utf8');
    proc.stderr.on('data', (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        let entry: Record<string, unknown>;
        try {
          entry = JSON.parse(line) as Record<string, unknown>;
        } catch {
          entry = { text: line };
        }
        logs.push(entry);
        if (entry.msg === 'listening') resolve(entry.url as string);
      }
    });
    void exited.then((code) => reject(new Error(`krmfn serve exited with ${code}: ${JSON.stringify(logs)}`)));
  });
  return {
    url,
    proc,
    logs,
    rss() {
      const status = readFileSync(`/proc/${proc.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
    },
    async stop(signal = 'SIGTERM') {
      if (proc.exitCode === null) proc.kill(signal);
      return exited;
    },
  };
}
