/**
 * What a `krmfn serve` process runs, as plain data (it crosses into worker threads), and how it
 * becomes a `FunctionService`. Every render flag of the CLI that applies to a posted package has
 * a field here, built into the same runtime chain `krmfn render` uses (src/node/cli-engine.ts):
 * remote runtimes first, built-ins and Starlark, WASM with `allowWasm` (modules read from the
 * posted package, in hard-deadline workers), exec with `allowExec`, containers last.
 */
import { createEngine, defaultRuntimes } from '../../index.ts';
import { createRuntimeChain } from '../../engine/chain.ts';
import type { MemoryFs } from '../../core/memory-fs.ts';
import { createWasmRuntime } from '../../runtimes/wasm.ts';
import { ModuleCache } from '../../../wasm/module-cache.ts';
import { createExecRuntime } from '../exec-runtime.ts';
import type { PullPolicy } from '../runtimes/container.ts';
import { nodeRuntimes } from '../runtimes/options.ts';
import { createNodeWasmExecutor } from '../wasm/pool.ts';
import { createEngineService } from './engine-service.ts';
import type { FunctionInfo, FunctionService } from './service.ts';

export interface ServeConfig {
  timeoutMs: number;
  env: Record<string, string>;
  cwd: string;
  remoteConfig?: string;
  containerRuntime?: string;
  imagePullPolicy?: PullPolicy;
  allowWasm: boolean;
  allowExec: boolean;
  allowNetwork: boolean;
  truncateOutput: boolean;
  attribution: boolean;
}

export interface ConfiguredService {
  service: FunctionService;
  close(): Promise<void>;
}

export function createConfiguredService(config: ServeConfig, functions: FunctionInfo[]): ConfiguredService {
  const extra = nodeRuntimes({
    env: config.env,
    cwd: config.cwd,
    remoteConfig: config.remoteConfig,
    containers: config.containerRuntime ?? false,
    ...(config.imagePullPolicy ? { pullPolicy: config.imagePullPolicy } : {}),
  });
  const exec = config.allowExec ? [createExecRuntime({ env: config.env })] : [];
  const base = [...extra.first, ...defaultRuntimes()];
  const engine = createEngine({ runtimes: [...base, ...exec, ...extra.last], limits: { timeoutMs: config.timeoutMs } });
  const executor = config.allowWasm ? createNodeWasmExecutor() : undefined;
  const cache = new ModuleCache();
  const runtimeFor = executor
    ? (fs: MemoryFs) =>
        createRuntimeChain([...base, createWasmRuntime({ loader: fs, executor, cache }), ...exec, ...extra.last])
    : undefined;
  const service = createEngineService({
    engine,
    functions,
    limits: { timeoutMs: config.timeoutMs },
    allowWasm: config.allowWasm,
    allowExec: config.allowExec,
    allowNetwork: config.allowNetwork,
    truncateOutput: config.truncateOutput,
    attribution: config.attribution,
    env: config.env,
    ...(runtimeFor ? { runtimeFor } : {}),
  });
  return { service, close: async () => void (await executor?.close()) };
}
