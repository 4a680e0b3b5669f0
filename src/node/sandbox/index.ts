/**
 * The sandbox runtime as the CLI and `krmfn serve` build it (src/node/runtimes/options.ts): the
 * image source pulling from registries (src/node/sandbox/registry-source.ts) and the cache
 * directory of unpacked root filesystems, from the environment.
 */
import type { FunctionRuntime } from '../../core/function.ts';
import type { PullPolicy } from '../runtimes/container.ts';
import { registryImageSource, sandboxCacheDir } from './registry-source.ts';
import { createSandboxRuntime, type SandboxImageReport } from './runtime.ts';

export interface SandboxChoices {
  env: Record<string, string | undefined>;
  cwd: string;
  pullPolicy?: PullPolicy;
  mounts?: readonly string[];
  fnEnv?: readonly string[];
  asCurrentUser?: boolean;
  onImage?: (report: SandboxImageReport) => void;
}

export function createNodeSandboxRuntime(c: SandboxChoices): FunctionRuntime {
  return createSandboxRuntime({
    source: registryImageSource(c.env),
    cacheDir: sandboxCacheDir(c.env),
    hostEnv: c.env,
    cwd: c.cwd,
    ...(c.pullPolicy ? { pullPolicy: c.pullPolicy } : {}),
    ...(c.onImage ? { onImage: c.onImage } : {}),
    ...(c.mounts ? { mounts: c.mounts } : {}),
    ...(c.fnEnv ? { env: c.fnEnv } : {}),
    ...(c.asCurrentUser && process.getuid && process.getgid
      ? { asCurrentUser: { uid: process.getuid(), gid: process.getgid() } }
      : {}),
  });
}
