/**
 * The engine the `render` and `eval` commands run: optional remote runtimes first (an explicit
 * mapping beats a built-in), then built-ins and Starlark, WASM with --allow-alpha-wasm, exec
 * processes, and an opt-in container engine last; `--runtimes` chooses and orders them for the run
 * (src/node/runtime-order.ts). The engine records which runtime took each function and which
 * registry images ran (for --json and --verbose). The Starlark and WASM runtimes load their modules
 * at first need (src/engine/lazy-runtime.ts). `close()` ends the WASM worker pool if one started.
 */
import { createEngine, defaultRuntimes, type Engine } from '../create-engine.ts';
import type { RuntimeChoice } from '../engine/chain.ts';
import { bool, str, UsageError, type ParsedArgs } from './cli-flags.ts';
import { createExecRuntime } from './exec-runtime.ts';
import { nodeOpenApiLoader } from './open-api.ts';
import type { CliIO } from './io.ts';
import type { NodeRuntimes } from './runtimes/options.ts';
import { createLazyRuntime } from '../engine/lazy-runtime.ts';
import type { WasmImageReport } from '../runtimes/wasm.ts';
import { parsePullPolicy, pullPolicyError } from '../core/oci/pull-policy.ts';
import { chosenRuntimeOrder, containerFollows, runtimesText } from './runtime-order.ts';

export interface CliEngine {
  engine: Engine;
  /** The environment handed to exec functions (defined values only). */
  env: Record<string, string>;
  /** Registry images the run used, WASM and sandboxed containers (runtime, reference, digest, pulled or cached). */
  images: WasmImageReport[];
  /** Which runtime took each function call, in call order. */
  runtimes: RuntimeChoice[];
  close(): Promise<void>;
}

/** kpt fn eval's container flags (`--mount`, `--env`, `--as-current-user`); render has none. */
export interface ContainerFlags {
  mounts: string[];
  fnEnv: string[];
  asCurrentUser: boolean;
}

/** Rejects with UsageError (or KrmfnError for an unreadable remote config) on bad flags. */
export async function createCliEngine(p: ParsedArgs, io: CliIO, container?: ContainerFlags): Promise<CliEngine> {
  const policyText = str(p, 'image-pull-policy');
  const policy = policyText === undefined ? undefined : parsePullPolicy(policyText);
  if (policyText !== undefined && !policy) throw new UsageError(pullPolicyError(policyText));
  const allowWasm = bool(p, 'allow-alpha-wasm');
  const remoteConfig = str(p, 'remote-config');
  const remoteWanted = Boolean(remoteConfig ?? io.env.KRMFN_REMOTE_CONFIG);
  const { order, container: containerName } = chosenRuntimeOrder({
    ...runtimesText(str(p, 'runtimes'), io.env),
    allowWasm,
    remoteConfigured: remoteWanted,
    containerFlag: str(p, 'container-runtime'),
  });
  const images: WasmImageReport[] = [];
  const runtimes: RuntimeChoice[] = [];
  // The remote, container and sandbox runtimes (and the OCI client) load only when a flag or the
  // environment asks for one: the conditions under which nodeRuntimes (src/node/runtimes/options.ts)
  // returns any runtime.
  const containerWanted = containerName !== false && Boolean(containerName ?? io.env.KRMFN_CONTAINER_RUNTIME);
  const none: NodeRuntimes = { first: [], last: [] };
  const extra = !(remoteWanted || containerWanted)
    ? none
    : (await import('./runtimes/options.ts')).nodeRuntimes({
        env: io.env,
        cwd: io.cwd,
        remoteConfig,
        containers: containerName,
        ...container,
        // A sandbox report carries `runtime: 'sandbox'`, which wins over the default the JSON adds.
        onImage: (r) => images.push(r),
        ...(policy ? { pullPolicy: policy } : {}),
      });
  const env = Object.fromEntries(Object.entries(io.env).filter((kv): kv is [string, string] => kv[1] !== undefined));
  // WASM modules run only with --allow-alpha-wasm (as kpt); the WASM host and its OCI client load,
  // and the worker pool exists, only when a function first reaches the WASM runtime.
  // Deliberate deviation from kpt: `exec: *.wasm` (and OCI layouts) run as WASM, other exec
  // functions still run as processes, so one pipeline can mix both (kpt treats every exec as WASM).
  const wasm =
    allowWasm && (!order || order.includes('wasm'))
      ? createLazyRuntime('wasm', async () => {
          const [{ createNodeWasmRuntime }, { nodeWasmImages }] = await Promise.all([
            import('./wasm/index.ts'),
            import('./oci/wasm-images.ts'),
          ]);
          return createNodeWasmRuntime({
            images: nodeWasmImages(
              io.env,
              policy,
              (r) => images.push(r),
              containerFollows(order, 'wasm', extra.last.length > 0),
            ),
          });
        })
      : undefined;
  const engine = createEngine({
    runtimes: [
      ...extra.first,
      ...defaultRuntimes({
        digestPolicy: bool(p, 'strict-digests') ? 'strict' : 'tag',
        openApi: nodeOpenApiLoader,
      }),
      ...(wasm ? [wasm] : []),
      createExecRuntime({ env }),
      ...extra.last,
    ],
    ...(order ? { runtimeOrder: order } : {}),
    onRuntime: (choice) => runtimes.push(choice),
  });
  return { engine, env, images, runtimes, close: async () => void (await wasm?.loaded()?.close()) };
}
