/**
 * One function call on a serialized ResourceList, as a container would answer it: resolve the
 * image through the runtime chain, run it (objects runners through `toBytesRunner`) under the
 * deadline, return stdout, stderr and the exit code. Used by `krmfn serve`'s /v1/run and by
 * `krmfn run` (which lets kpt itself use krmfn's built-ins as `exec:` functions). The call context
 * is the engine's one (src/engine/call-env.ts): no exec, WASM or network grants, an empty env.
 */
import type { BytesOutcome, FunctionRuntime } from '../core/function.ts';
import type { Limits } from '../core/limits.ts';
import { createCallEnv, resolveContext, runContext } from './call-env.ts';
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
  const env = createCallEnv({ runtime, limits: opts.limits, signal: opts.signal, now: opts.now }, false);
  const resolved = await runtime.resolve({ image }, resolveContext(env, image, ''));
  const runner = resolved.kind === 'objects' ? toBytesRunner(resolved) : resolved;
  return runWithDeadline(
    image,
    env.limits.timeoutMs,
    env.signal,
    (signal, deadline) => runner.run(input, runContext(env, signal, deadline, false)),
    env.now,
  );
}
