/**
 * The optional runtimes of the Node edge, chosen by flags and environment:
 * - remote: `--remote-config FILE` or `KRMFN_REMOTE_CONFIG` maps images to HTTP or gRPC endpoints. It goes
 *   FIRST in the chain, because mapping an image is an explicit choice that beats a built-in.
 * - container: `--container-runtime docker|podman|nerdctl` or `KRMFN_CONTAINER_RUNTIME` enables
 *   running images that nothing else runs with a container engine, as kpt does; `sandbox` runs
 *   them with no daemon, pulled and unpacked by krmfn, under bubblewrap (src/node/sandbox/). It
 *   goes LAST. Off by default: krmfn never needs Docker unless the user asks for it.
 */
import { readFileSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { KrmfnError } from '../../core/errors.ts';
import type { FunctionRuntime } from '../../core/function.ts';
import { createRemoteRuntime, parseRemoteConfig } from '../../runtimes/remote.ts';
import { createNodeSandboxRuntime } from '../sandbox/index.ts';
import type { SandboxImageReport } from '../sandbox/runtime.ts';
import { createContainerRuntime, parseContainerEngine, type PullPolicy } from './container.ts';

export interface NodeRuntimeChoices {
  env: Record<string, string | undefined>;
  cwd: string;
  remoteConfig?: string | undefined;
  /** Engine name from the flag; false disables containers even if the environment enables them. */
  containers?: string | false | undefined;
  pullPolicy?: PullPolicy;
  /** kpt's `--mount`, `--env` and `--as-current-user` (eval), for container functions. */
  mounts?: readonly string[];
  fnEnv?: readonly string[];
  asCurrentUser?: boolean;
  /** Registry images the sandbox runtime used (for `--json`). */
  onImage?: (report: SandboxImageReport) => void;
}

export interface NodeRuntimes {
  first: FunctionRuntime[];
  last: FunctionRuntime[];
}

export function nodeRuntimes(c: NodeRuntimeChoices): NodeRuntimes {
  const first: FunctionRuntime[] = [];
  const last: FunctionRuntime[] = [];
  const remoteFile = c.remoteConfig ?? c.env.KRMFN_REMOTE_CONFIG;
  if (remoteFile) {
    const path = resolvePath(c.cwd, remoteFile);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (e) {
      throw new KrmfnError({
        code: 'usage',
        message: `cannot read remote config ${path}: ${(e as Error).message}`,
        file: path,
      });
    }
    first.push(
      createRemoteRuntime({
        endpoints: parseRemoteConfig(text, path, c.env),
        // grpc-js loads only when a grpc:// endpoint is called.
        grpc: async (call) => (await import('../grpc/remote-transport.ts')).grpcEvaluate(call),
      }),
    );
  }
  const engineName = c.containers === false ? undefined : (c.containers ?? c.env.KRMFN_CONTAINER_RUNTIME);
  if (engineName === 'sandbox') {
    last.push(
      createNodeSandboxRuntime({
        env: c.env,
        cwd: c.cwd,
        ...(c.pullPolicy ? { pullPolicy: c.pullPolicy } : {}),
        ...(c.mounts ? { mounts: c.mounts } : {}),
        ...(c.fnEnv ? { fnEnv: c.fnEnv } : {}),
        ...(c.asCurrentUser ? { asCurrentUser: true } : {}),
        ...(c.onImage ? { onImage: c.onImage } : {}),
      }),
    );
  } else if (engineName) {
    last.push(
      createContainerRuntime({
        engine: parseContainerEngine(engineName),
        hostEnv: c.env,
        ...(c.pullPolicy ? { pullPolicy: c.pullPolicy } : {}),
      }),
    );
  }
  return { first, last };
}

/** Convenience for hosts that only append: remote and container runtimes in one list. */
export function nodeExtraRuntimes(c: NodeRuntimeChoices): FunctionRuntime[] {
  const r = nodeRuntimes(c);
  return [...r.first, ...r.last];
}
