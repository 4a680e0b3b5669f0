/**
 * What a `krmfn serve` process runs, as plain data (it crosses into worker processes), and how it
 * becomes a `FunctionService`. Every render flag of the CLI that applies to a posted package has
 * a field here, built into the same runtime chain `krmfn render` uses (src/node/cli-engine.ts):
 * remote runtimes first, built-ins and Starlark, WASM with `allowWasm` (modules read from the
 * posted package, and registry WASM images pulled through the server's disk cache and Docker
 * credentials (docs/oci.md), in hard-deadline workers), exec with `allowExec`, containers last;
 * `runtimeOrder` (`--runtimes`, validated by src/node/runtime-order.ts) chooses and orders them.
 */
import { createEngine, defaultRuntimes } from '../../index.ts';
import { createRuntimeChain, selectRuntimes } from '../../engine/chain.ts';
import type { FunctionRuntime } from '../../core/function.ts';
import type { MemoryFs } from '../../core/memory-fs.ts';
import { KrmfnError } from '../../core/errors.ts';
import { createWasmRuntime, type WasmLoader } from '../../runtimes/wasm.ts';
import { ModuleCache } from '../../../wasm/module-cache.ts';
import { createExecRuntime } from '../exec-runtime.ts';
import { nodeOpenApiLoader } from '../open-api.ts';
import type { KptVersion } from '../../core/kpt-version.ts';
import type { PullPolicy } from '../runtimes/container.ts';
import { nodeRuntimes } from '../runtimes/options.ts';
import { createNodeWasmExecutor } from '../wasm/pool.ts';
import { nodeWasmImages } from '../oci/wasm-images.ts';
import { createEngineService } from './engine-service.ts';
import type { FunctionInfo, FunctionService } from './service.ts';

export interface ServeConfig {
  timeoutMs: number;
  env: Record<string, string>;
  cwd: string;
  remoteConfig?: string;
  containerRuntime?: string;
  /** Runtime names in chain order (`--runtimes`); undefined: every runtime the other fields enable. */
  runtimeOrder?: string[];
  imagePullPolicy?: PullPolicy;
  allowWasm: boolean;
  allowExec: boolean;
  allowNetwork: boolean;
  truncateOutput: boolean;
  attribution: boolean;
  /** The kpt release renders imitate unless a request names one (`--kpt-version`). */
  kptVersion?: KptVersion;
  /** URL of the WASM worker script, when the default location does not hold it (a bundled worker). */
  wasmWorkerScript?: string;
}

/**
 * Module files of a posted package: exec paths resolve against the server's working directory, as
 * kpt resolves them against its own, and a path under it names the package file at the same
 * relative path (`exec: fns/f.wasm` → `ROOT/fns/f.wasm`). Nothing outside the package is read.
 */
export function packageLoader(fs: MemoryFs, cwd: string, root: string): WasmLoader {
  const base = cwd.replace(/\/+$/, '');
  const inPackage = (path: string): string | undefined =>
    path.startsWith(`${base}/`) ? `${root}/${path.slice(base.length + 1)}` : undefined;
  return {
    readFile: async (path) => {
      const p = inPackage(path);
      if (!p) throw new KrmfnError({ code: 'path-escape', message: `${path}: not in the posted package`, file: path });
      return fs.readFile(p);
    },
    stat: async (path) => {
      const p = inPackage(path);
      return p ? fs.stat(p) : 'missing';
    },
  };
}

export interface ConfiguredService {
  service: FunctionService;
  close(): Promise<void>;
}

/**
 * Output budget of one function call on the server (stdout, stderr, Starlark print): a server
 * answers many clients, so one call may not hold the 256 MiB the CLI allows; past it the call fails
 * with the output limit's error.
 */
export const SERVE_MAX_OUTPUT_BYTES = 16 * 1024 * 1024;

/**
 * `list` in `order`, keeping only the names `list` has: the request chain without WASM (the engine's
 * own) keeps the others. `order` was checked against the flags before any chain was built.
 */
function ordered(list: FunctionRuntime[], order: readonly string[] | undefined): FunctionRuntime[] {
  if (!order) return list;
  const present = order.filter((name) => list.some((rt) => rt.name === name));
  return present.length === 0 ? [] : selectRuntimes(list, present, '--runtimes');
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
  const base = [...extra.first, ...defaultRuntimes({ openApi: nodeOpenApiLoader })];
  const engine = createEngine({
    runtimes: ordered([...base, ...exec, ...extra.last], config.runtimeOrder),
    limits: { timeoutMs: config.timeoutMs, maxOutputBytes: SERVE_MAX_OUTPUT_BYTES },
  });
  const executor = config.allowWasm
    ? createNodeWasmExecutor(config.wasmWorkerScript ? { workerScript: new URL(config.wasmWorkerScript) } : {})
    : undefined;
  const cache = new ModuleCache();
  const images = executor
    ? nodeWasmImages(config.env, config.imagePullPolicy, undefined, extra.last.length > 0)
    : undefined;
  const runtimeFor = executor
    ? (fs: MemoryFs, root: string) =>
        createRuntimeChain(
          ordered(
            [
              ...base,
              createWasmRuntime({
                loader: packageLoader(fs, config.cwd, root),
                executor,
                cache,
                ...(images ? { images } : {}),
              }),
              ...exec,
              ...extra.last,
            ],
            config.runtimeOrder,
          ),
        )
    : undefined;
  const service = createEngineService({
    engine,
    functions,
    limits: { timeoutMs: config.timeoutMs, maxOutputBytes: SERVE_MAX_OUTPUT_BYTES },
    allowWasm: config.allowWasm,
    allowExec: config.allowExec,
    allowNetwork: config.allowNetwork,
    truncateOutput: config.truncateOutput,
    attribution: config.attribution,
    ...(config.kptVersion ? { kptVersion: config.kptVersion } : {}),
    env: config.env,
    cwd: config.cwd,
    ...(runtimeFor ? { runtimeFor } : {}),
  });
  return { service, close: async () => void (await executor?.close()) };
}
