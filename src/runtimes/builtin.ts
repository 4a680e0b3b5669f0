/**
 * The built-in runtime: catalog images implemented natively (builtins/), run as `objects` runners
 * on the live KubeObjects. `resolve` maps `spec.image` (any catalog registry prefix, short names,
 * exact/floating/newest tags, known digests) to a descriptor and throws `NotFoundError` for
 * anything else, so the chain moves on. The function sees the resolved image as `ctx.image`
 * ({name, tag, version}) and follows that version's behaviour.
 *
 * Failure semantics follow a catalog container: an exception thrown by the function gives exit
 * code 1 with its message on stderr and no extra result; results and exit codes otherwise follow
 * the function (which emulates its SDK generation, catalog.md §3.2).
 */
import { NotFoundError } from '../core/errors.ts';
import type { FunctionRuntime, FunctionSpec, ObjectsRunner, ResolveContext, ResourceList, RunContext } from '../core/function.ts';
import { BUILTINS } from '../../builtins/index.ts';
import { executeFunction } from '../../sdk/execute.ts';
import { findBuiltin, type BuiltinDescriptor } from '../../sdk/registry.ts';

export function createBuiltinRuntime(registry: readonly BuiltinDescriptor[] = BUILTINS): FunctionRuntime {
  return {
    name: 'builtin',
    async resolve(spec: FunctionSpec, ctx: ResolveContext): Promise<ObjectsRunner> {
      const image = spec.image;
      if (!image) throw new NotFoundError(spec.exec ?? ctx.displayName ?? '');
      const match = findBuiltin(registry, image);
      if (!match) throw new NotFoundError(image);
      const { descriptor, image: info } = match;
      return {
        kind: 'objects',
        async run(input: ResourceList, rctx: RunContext) {
          const outcome = await executeFunction(descriptor.fn, input, {
            env: rctx.env,
            now: rctx.now,
            signal: rctx.signal,
            image: info,
            validator: rctx.validator,
            uncaughtExitCode: 1,
            uncaughtResult: false,
            logStack: false,
          });
          return { output: input, stderr: outcome.log.join('\n'), exitCode: outcome.exitCode };
        },
      };
    },
  };
}
