/**
 * The streams and environment a CLI command runs with. The bin shim passes the real process's;
 * tests pass their own, so every command is a plain function of its inputs.
 */
import type { Readable, Writable } from 'node:stream';

export interface CliIO {
  argv: string[];
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
  env: Record<string, string | undefined>;
  cwd: string;
}

export async function readAll(stream: Readable): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
  return new Uint8Array(Buffer.concat(chunks));
}

export function write(stream: Writable, text: string | Uint8Array): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.write(text, (err) => (err ? reject(err) : resolve()));
  });
}
