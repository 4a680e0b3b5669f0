/**
 * `krmfn serve`: run functions as an HTTP service (see src/node/serve/server.ts for the API).
 * Binds to loopback unless --host says otherwise; SIGTERM/SIGINT drain in-flight requests first.
 */
import { parsePullPolicy, pullPolicyError } from '../../core/oci/pull-policy.ts';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { BUILTINS } from '../../../builtins/index.ts';
import { bool, parseDuration, parseFlags, str, UsageError, type ParsedArgs } from '../cli-flags.ts';
import { write, type CliIO } from '../io.ts';
import { serveSpec } from './specs/serve.ts';
import { parseContainerEngine } from '../runtimes/container.ts';
import { nodeRuntimes } from '../runtimes/options.ts';
import { chosenRuntimeOrder, runtimesText } from '../runtime-order.ts';
import type { ServeConfig } from '../serve/config.ts';
import { startServer } from '../serve/server.ts';
import { chosenKptLevel } from '../kpt-level-args.ts';
import type { FunctionInfo } from '../serve/service.ts';
import { createWorkerService } from '../serve/worker-service.ts';

function intFlag(v: string | undefined, name: string, dflt: number): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0)
    throw new UsageError(`invalid value ${JSON.stringify(v)} for --${name}: want a whole number`);
  return n;
}

function durationFlag<K extends string>(p: ParsedArgs, name: string, key: K): Partial<Record<K, number>> {
  const v = str(p, name);
  return v === undefined ? {} : ({ [key]: parseDuration(v) } as Record<K, number>);
}

/** The runtime flags, as `krmfn render` reads them (src/node/cli-engine.ts, commands/render.ts). */
function serveConfig(p: ParsedArgs, io: CliIO): ServeConfig {
  const policyText = str(p, 'image-pull-policy');
  const policy = policyText === undefined ? undefined : parsePullPolicy(policyText);
  if (policyText !== undefined && !policy) throw new UsageError(pullPolicyError(policyText));
  const containerFlag = str(p, 'container-runtime');
  if (containerFlag !== undefined) parseContainerEngine(containerFlag);
  const remote = str(p, 'remote-config') ?? io.env.KRMFN_REMOTE_CONFIG;
  // The same choice and messages as render's (src/node/runtime-order.ts); exec only with --allow-exec.
  const { order, container } = chosenRuntimeOrder({
    ...runtimesText(str(p, 'runtimes'), io.env),
    allowWasm: bool(p, 'allow-alpha-wasm'),
    allowExec: bool(p, 'allow-exec'),
    remoteConfigured: remote !== undefined,
    containerFlag,
  });
  const containers = container === false ? undefined : (container ?? containerFlag);
  const env = Object.fromEntries(Object.entries(io.env).filter((kv): kv is [string, string] => kv[1] !== undefined));
  const config: ServeConfig = {
    timeoutMs: str(p, 'timeout') ? parseDuration(str(p, 'timeout')!) : 60_000,
    env,
    cwd: io.cwd,
    allowWasm: bool(p, 'allow-alpha-wasm'),
    allowExec: bool(p, 'allow-exec'),
    allowNetwork: bool(p, 'allow-network'),
    truncateOutput: bool(p, 'truncate-output', true),
    attribution: !io.env.KPT_DISABLE_ATTRIBUTION,
    // The same choice and message as render's (src/node/kpt-level-args.ts).
    kptVersion: chosenKptLevel(p, io).version,
  };
  if (remote !== undefined) config.remoteConfig = remote;
  if (order !== undefined) config.runtimeOrder = order;
  if (containers !== undefined) config.containerRuntime = containers;
  if (policy !== undefined) config.imagePullPolicy = policy;
  // Fail here, on the main thread, on an unreadable remote config rather than in every worker.
  nodeRuntimes({ env: io.env, cwd: io.cwd, remoteConfig: config.remoteConfig, containers: false });
  return config;
}

export async function runServe(args: string[], io: CliIO): Promise<number> {
  let p;
  try {
    p = parseFlags(args, serveSpec.flags);
    if (p.positional.length) throw new UsageError(`unexpected argument ${JSON.stringify(p.positional[0])}`);
  } catch (e) {
    await write(io.stderr, `error: ${(e as Error).message}\n`);
    return 1;
  }
  try {
    const token =
      str(p, 'token-file') !== undefined
        ? readFileSync(str(p, 'token-file')!, 'utf8').trim()
        : io.env.KRMFN_SERVE_TOKEN;
    const config = serveConfig(p, io);
    const functions: FunctionInfo[] = BUILTINS.map((b) => ({
      name: b.name,
      images: b.images,
      versions: b.versions,
      configKinds: b.configKinds,
      summary: b.summary,
    }));
    const maxConcurrent = intFlag(str(p, 'max-concurrent'), 'max-concurrent', 16);
    const maxBodyBytes = intFlag(str(p, 'max-body'), 'max-body', 16 * 1024 * 1024);
    if (str(p, 'grpc') === undefined && bool(p, 'grpc-only')) throw new UsageError('--grpc-only needs --grpc ADDR');
    const service = createWorkerService({
      config,
      functions,
      workers: intFlag(str(p, 'workers'), 'workers', Math.min(maxConcurrent, availableParallelism())) || 1,
    });
    service.pool.prewarm();
    const log = (entry: Record<string, unknown>): void =>
      void io.stderr.write(JSON.stringify({ time: new Date().toISOString(), ...entry }) + '\n');
    const servers: Array<{ close(): Promise<void> }> = [];
    try {
      if (str(p, 'grpc') !== undefined) {
        // Loaded only when asked for, so plain `krmfn` commands never load grpc-js.
        const { startGrpcFromFlags } = await import('../grpc/from-flags.ts');
        servers.push(
          await startGrpcFromFlags(p, {
            service,
            ...(token ? { token } : {}),
            timeoutMs: config.timeoutMs,
            maxConcurrent,
            maxMessageBytes: maxBodyBytes,
            log,
          }),
        );
      }
      if (!bool(p, 'grpc-only'))
        servers.push(
          await startServer({
            service,
            host: str(p, 'host') ?? '127.0.0.1',
            port: intFlag(str(p, 'port'), 'port', 8080),
            ...(token ? { token } : {}),
            maxBodyBytes,
            maxConcurrent,
            requestTimeoutMs: config.timeoutMs,
            ...durationFlag(p, 'header-timeout', 'headersTimeoutMs'),
            ...durationFlag(p, 'body-timeout', 'bodyTimeoutMs'),
            log,
          }),
        );
    } catch (e) {
      await Promise.all(servers.map((s) => s.close()));
      await service.close();
      throw e;
    }
    await new Promise<void>((resolve) => {
      const stop = (): void => {
        process.off('SIGTERM', stop);
        process.off('SIGINT', stop);
        void Promise.all(servers.map((s) => s.close())).then(() => resolve());
      };
      process.on('SIGTERM', stop);
      process.on('SIGINT', stop);
    });
    await service.close();
    log({ msg: 'stopped' });
    return 0;
  } catch (e) {
    await write(io.stderr, `error: ${(e as Error).message}\n`);
    return 1;
  }
}
