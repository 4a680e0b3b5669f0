/**
 * SDK functions as in-process runners (src/core/function.ts `RunnerCatalog`), for the composition
 * root to hand to the runtime layer (src/runtimes/builtin.ts): the built-in registry resolved the
 * way kpt spells catalog images (sdk/registry.ts), or a host's own functions by exact image.
 *
 * Failure semantics: `container` (built-ins) follows a catalog container: an exception thrown by
 * the function is exit 1 with its message on stderr and no extra result; otherwise the SDK's own
 * (`runCli`'s): exit 2, an error result, the stack. Results and exit codes otherwise follow the
 * function (which emulates its catalog SDK generation: builtins/lib/catalog-fn.ts).
 */
import type { ObjectsRunner, ResourceList, RunContext, RunnerCatalog } from '../src/core/function.ts';
import type { KrmFunction } from './define.ts';
import { executeFunction } from './execute.ts';
import {
  explainNotBuiltin,
  findBuiltin,
  type BuiltinDescriptor,
  type BuiltinMatch,
  type FindBuiltinOptions,
} from './registry.ts';

/** An objects runner for an SDK function (`container`: catalog-container failure semantics). */
export function sdkRunner(
  fn: KrmFunction,
  image: BuiltinMatch['image'] | undefined,
  container: boolean,
): ObjectsRunner {
  return {
    kind: 'objects',
    async run(input: ResourceList, rctx: RunContext) {
      const outcome = await executeFunction(fn, input, {
        env: rctx.env,
        now: rctx.now,
        signal: rctx.signal,
        ...(image ? { image } : {}),
        ...(container ? { uncaughtExitCode: 1, uncaughtResult: false, logStack: false, quoteYaml11: false } : {}),
      });
      return { output: input, stderr: outcome.log.join('\n'), exitCode: outcome.exitCode };
    },
  };
}

/**
 * The built-in catalog: any catalog registry prefix, short names, released/floating/newest tags,
 * digest pins under `options.digestPolicy`; the function sees the resolved image as `ctx.image`.
 */
export function builtinCatalog(
  registry: readonly BuiltinDescriptor[],
  options: FindBuiltinOptions = {},
): RunnerCatalog {
  return {
    runner(image) {
      const match = findBuiltin(registry, image, options);
      return match ? sdkRunner(match.descriptor.fn, match.image, true) : undefined;
    },
    explain: (image) => explainNotBuiltin(registry, image, options),
  };
}

/**
 * A host's own SDK functions keyed by exact image string (for example
 * `example.com/fns/set-owner:v1`): no catalog lookup, the same results and exit codes as the
 * function's `krmfn build` executable.
 */
export function functionCatalog(functions: Readonly<Record<string, KrmFunction>>): RunnerCatalog {
  return {
    runner(image) {
      const fn = Object.hasOwn(functions, image) ? functions[image] : undefined;
      return fn ? sdkRunner(fn, undefined, false) : undefined;
    },
    explain: () => undefined,
  };
}
