/**
 * One function call on a serialized ResourceList, as a container would answer it: resolve the
 * image through the runtime chain, run it (objects runners through `toBytesRunner`) under the
 * deadline, return stdout, stderr and the exit code. Used by `krmfn serve`'s /v1/run and by
 * `krmfn run` (which lets kpt itself use krmfn's built-ins as `exec:` functions).
 */
import type { BytesOutcome, FunctionRuntime, ResolveContext, RunContext } from '../core/function.ts';
import { withLimits, type Limits } from '../core/limits.ts';
import { runWithDeadline } from './deadline.ts';
import { toBytesRunner } from './to-bytes-runner.ts';

export interface RunFunctionOptions {
  limits?: Partial<Limits>;
  signal?: AbortSignal;
  now?: () => number;
}

export async function runFunction(
  runtime: FunctionRuntime,
  image: string,
  input: Uint8Array,
  opts: RunFunctionOptions = {},
): Promise<BytesOutcome> {
  const now = opts.now ?? Date.now;
  const limits = withLimits(opts.limits);
  const ctx: ResolveContext = {
    displayName: image,
    packagePath: '',
    cwd: '/',
    allowExec: false,
    allowWasm: false,
    allowNetwork: false,
    limits,
  };
  const resolved = await runtime.resolve({ image }, ctx);
  const runner = resolved.kind === 'objects' ? toBytesRunner(resolved) : resolved;
  return runWithDeadline(
    image,
    limits.timeoutMs,
    opts.signal,
    (signal, deadline) => {
      const rc: RunContext = { limits, signal, deadline, now, env: {}, validator: false };
      return runner.run(input, rc);
    },
    now,
  );
}
