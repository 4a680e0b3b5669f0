/**
 * `krmfn serve`: run functions as an HTTP service (see src/node/serve/server.ts for the API).
 * Binds to loopback unless --host says otherwise; SIGTERM/SIGINT drain in-flight requests first.
 */
import { readFileSync } from 'node:fs';
import { createEngine, defaultRuntimes } from '../../index.ts';
import { BUILTINS } from '../../../builtins/index.ts';
import { bool, parseDuration, parseFlags, str, UsageError, type FlagSpec } from '../cli-flags.ts';
import { write, type CliIO, type Command } from '../io.ts';
import { createEngineService } from '../serve/engine-service.ts';
import { startServer } from '../serve/server.ts';
import type { FunctionInfo } from '../serve/service.ts';
import { nodeRuntimes } from '../runtimes/options.ts';
import { GRPC_FLAGS, GRPC_HELP } from '../grpc/flags.ts';

const FLAGS: readonly FlagSpec[] = [
  { name: 'host', kind: 'string' },
  { name: 'port', short: 'p', kind: 'string' },
  { name: 'token-file', kind: 'string' },
  { name: 'max-body', kind: 'string' },
  { name: 'max-concurrent', kind: 'string' },
  { name: 'timeout', kind: 'string' },
  { name: 'allow-alpha-wasm', kind: 'bool' },
  { name: 'remote-config', kind: 'string' },
  { name: 'help', short: 'h', kind: 'bool' },
  ...GRPC_FLAGS,
];

const HELP = `Serve KRM functions over HTTP.

Usage:
  krmfn serve [flags]

Endpoints:
  POST /v1/run?image=IMAGE   run one function on a ResourceList (application/yaml or application/json)
  POST /v1/render            render a package: {"files": {"path": "content"}} (JSON) or a tar
  GET  /v1/functions         the functions this server runs
  GET  /healthz, /readyz     liveness and readiness

Flags:
      --host HOST              address to bind (default 127.0.0.1; use 0.0.0.0 in a container)
  -p, --port PORT              port (default 8080; 0 picks a free one)
      --token-file FILE        require "Authorization: Bearer <token>" on /v1/* (or set KRMFN_SERVE_TOKEN)
      --max-body BYTES         largest request body (default 16777216); larger gets 413
      --max-concurrent N       requests served at once (default 16); more get 429
      --timeout DURATION       deadline of each request (default 60s)
      --allow-alpha-wasm       let posted packages run the WASM modules they contain
      --remote-config FILE     forward images to remote endpoints (see docs/serve.md)
  -h, --help                   show this help

Logs are JSON lines on stderr.
${GRPC_HELP}`;

function intFlag(v: string | undefined, name: string, dflt: number): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0)
    throw new UsageError(`invalid value ${JSON.stringify(v)} for --${name}: want a whole number`);
  return n;
}

export const serveCommand: Command = {
  name: 'serve',
  summary: 'Serve functions over HTTP (run, render, list)',
  async run(args: string[], io: CliIO): Promise<number> {
    let p;
    try {
      p = parseFlags(args, FLAGS);
      if (p.positional.length) throw new UsageError(`unexpected argument ${JSON.stringify(p.positional[0])}`);
    } catch (e) {
      await write(io.stderr, `error: ${(e as Error).message}\n`);
      return 1;
    }
    if (bool(p, 'help')) {
      await write(io.stdout, HELP);
      return 0;
    }
    try {
      const token =
        str(p, 'token-file') !== undefined
          ? readFileSync(str(p, 'token-file')!, 'utf8').trim()
          : io.env.KRMFN_SERVE_TOKEN;
      const timeoutMs = str(p, 'timeout') ? parseDuration(str(p, 'timeout')!) : 60_000;
      const extra = nodeRuntimes({
        env: io.env,
        cwd: io.cwd,
        remoteConfig: str(p, 'remote-config'),
        containers: false,
      });
      const engine = createEngine({
        runtimes: [...extra.first, ...defaultRuntimes(), ...extra.last],
        limits: { timeoutMs },
      });
      const functions: FunctionInfo[] = BUILTINS.map((b) => ({
        name: b.name,
        images: b.images,
        versions: b.versions,
        configKinds: b.configKinds,
        summary: b.summary,
      }));
      const log = (entry: Record<string, unknown>): void =>
        void io.stderr.write(JSON.stringify({ time: new Date().toISOString(), ...entry }) + '\n');
      const service = createEngineService({
        engine,
        functions,
        limits: { timeoutMs },
        allowWasm: bool(p, 'allow-alpha-wasm'),
      });
      const maxBodyBytes = intFlag(str(p, 'max-body'), 'max-body', 16 * 1024 * 1024);
      const maxConcurrent = intFlag(str(p, 'max-concurrent'), 'max-concurrent', 16);
      const servers: Array<{ close(): Promise<void> }> = [];
      if (str(p, 'grpc') !== undefined) {
        // Loaded only when asked for, so plain `krmfn` commands never load grpc-js.
        const { startGrpcFromFlags } = await import('../grpc/from-flags.ts');
        const grpcServer = await startGrpcFromFlags(p, {
          service,
          ...(token ? { token } : {}),
          timeoutMs,
          maxConcurrent,
          maxMessageBytes: maxBodyBytes,
          log,
        });
        servers.push(grpcServer);
      } else if (bool(p, 'grpc-only')) throw new UsageError('--grpc-only needs --grpc ADDR');
      if (!bool(p, 'grpc-only'))
        servers.push(
          await startServer({
            service,
            host: str(p, 'host') ?? '127.0.0.1',
            port: intFlag(str(p, 'port'), 'port', 8080),
            ...(token ? { token } : {}),
            maxBodyBytes,
            maxConcurrent,
            requestTimeoutMs: timeoutMs,
            log,
          }),
        );
      await new Promise<void>((resolve) => {
        const stop = (): void => {
          process.off('SIGTERM', stop);
          process.off('SIGINT', stop);
          void Promise.all(servers.map((s) => s.close())).then(() => resolve());
        };
        process.on('SIGTERM', stop);
        process.on('SIGINT', stop);
      });
      log({ msg: 'stopped' });
      return 0;
    } catch (e) {
      await write(io.stderr, `error: ${(e as Error).message}\n`);
      return 1;
    }
  },
};
