/**
 * Test helpers for `krmfn serve --grpc`: a gRPC client built straight from krmfn's proto copy with
 * @grpc/grpc-js and @grpc/proto-loader (independent of src/node/grpc/client.ts), and a TCP peer
 * that accepts connections and never answers (a function that hangs, through the remote runtime).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer as createTcpServer, type Socket } from 'node:net';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';

const ROOT = join(import.meta.dirname, '..', '..');
const PROTO_DIR = join(ROOT, 'src', 'node', 'grpc', 'proto');

const def = protoLoader.loadSync(['evaluator.proto', 'health.proto'], {
  includeDirs: [PROTO_DIR],
  keepCase: true,
  enums: String,
  defaults: true,
});
const pkg = grpc.loadPackageDefinition(def) as unknown as {
  evaluator: { FunctionEvaluator: grpc.ServiceClientConstructor };
  grpc: { health: { v1: { Health: grpc.ServiceClientConstructor } } };
};

export interface Answer {
  code: number;
  details: string;
  resourceList?: string;
  log?: string;
}

type Unary = (
  req: object,
  md: grpc.Metadata,
  opts: grpc.CallOptions,
  cb: (err: grpc.ServiceError | null, res?: Record<string, unknown>) => void,
) => grpc.ClientUnaryCall;

export class TestClient {
  readonly evaluator: grpc.Client;
  readonly health: grpc.Client;
  constructor(target: string, creds = grpc.credentials.createInsecure(), options: grpc.ClientOptions = {}) {
    this.evaluator = new pkg.evaluator.FunctionEvaluator(target, creds, options);
    this.health = new pkg.grpc.health.v1.Health(target, creds, options);
  }

  /** EvaluateFunction; `onCall` sees the call (to cancel it). */
  evaluate(
    image: string,
    resourceList: string | Uint8Array,
    o: { token?: string; deadlineMs?: number; onCall?: (c: grpc.ClientUnaryCall) => void } = {},
  ): Promise<Answer> {
    const md = new grpc.Metadata();
    if (o.token) md.set('authorization', `Bearer ${o.token}`);
    const opts: grpc.CallOptions = { deadline: Date.now() + (o.deadlineMs ?? 30_000) };
    const call = (this.evaluator as unknown as { EvaluateFunction: Unary }).EvaluateFunction.bind(this.evaluator);
    return new Promise((resolve) => {
      const c = call(
        { resource_list: typeof resourceList === 'string' ? Buffer.from(resourceList) : resourceList, image },
        md,
        opts,
        (err, res) => {
          if (err) resolve({ code: err.code, details: err.details });
          else
            resolve({
              code: 0,
              details: '',
              resourceList: Buffer.from(res!.resource_list as Uint8Array).toString('utf8'),
              log: Buffer.from(res!.log as Uint8Array).toString('utf8'),
            });
        },
      );
      o.onCall?.(c);
    });
  }

  check(service = ''): Promise<{ code: number; status?: string; details: string }> {
    const call = (this.health as unknown as { Check: Unary }).Check.bind(this.health);
    return new Promise((resolve) => {
      call({ service }, new grpc.Metadata(), { deadline: Date.now() + 30_000 }, (err, res) =>
        resolve(
          err ? { code: err.code, details: err.details } : { code: 0, status: res!.status as string, details: '' },
        ),
      );
    });
  }

  close(): void {
    this.evaluator.close();
    this.health.close();
  }
}

/** A TCP peer that accepts connections and never answers. */
export async function hangingPeer(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createTcpServer((s) => void sockets.add(s));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/v1/run`,
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

export async function until(cond: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const BIN = join(ROOT, 'bin', 'krmfn.mjs');

/** `krmfn ARGS` with `stdin`; resolves with its exit code, stdout and stderr. */
export function krmfn(args: string[], stdin = ''): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [BIN, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    p.on('error', reject);
    p.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    p.stdin.end(stdin);
  });
}

/** `krmfn serve ARGS` as a subprocess; resolves once its gRPC listener logged its address. */
export function serveProcess(
  args: string[],
): Promise<{ target: string; proc: ChildProcess; logs: Record<string, unknown>[]; stop(): Promise<number> }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [BIN, 'serve', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    const logs: Record<string, unknown>[] = [];
    let buf = '';
    const exited = new Promise<number>((r) => proc.on('close', (code) => r(code ?? -1)));
    proc.stderr.on('data', (d: Buffer) => {
      buf += d.toString();
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        let entry: Record<string, unknown>;
        try {
          entry = JSON.parse(line) as Record<string, unknown>;
        } catch {
          reject(new Error(`not a JSON log line: ${line}`));
          continue;
        }
        logs.push(entry);
        if (entry.msg === 'listening' && entry.protocol === 'grpc') {
          const port = String(entry.address).split(':').pop();
          resolve({
            target: `127.0.0.1:${port}`,
            proc,
            logs,
            stop: () => {
              proc.kill('SIGTERM');
              return exited;
            },
          });
        }
      }
    });
    void exited.then((code) => reject(new Error(`krmfn serve exited with ${code}: ${buf}`)));
  });
}

/** The catalog images the gRPC suites evaluate. */
export const SET_NAMESPACE = 'gcr.io/kpt-fn/set-namespace:v0.4.1';
export const STARLARK = 'gcr.io/kpt-fn/starlark:v0.4.3';

/** A ResourceList: `items` is the YAML text of its item list, one `- ` entry per item. */
function resourceList(items: string, functionConfig: string): string {
  return `apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n${items}functionConfig:\n${functionConfig}`;
}

/** A ResourceList whose functionConfig asks set-namespace for `prod`. */
export function setNamespaceList(items: string): string {
  return resourceList(
    items,
    '  apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: function-input\n  data:\n    namespace: prod\n',
  );
}

/** A ResourceList whose functionConfig is a StarlarkRun of `source`. */
export function starlarkList(items: string, source: string): string {
  const body = source
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');
  return resourceList(
    items,
    `  apiVersion: fn.kpt.dev/v1alpha1\n  kind: StarlarkRun\n  metadata:\n    name: fn\n  source: |\n${body}\n`,
  );
}
