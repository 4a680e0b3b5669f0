/**
 * The built-in runtime: catalog images implemented natively (builtins/), run as `objects` runners
 * on the live KubeObjects. `resolve` maps `spec.image` (any catalog registry prefix, short names,
 * released/floating/newest tags, digest pins under the digest policy) to a descriptor and throws
 * `NotFoundError` for anything else, so the chain moves on; for a catalog image it cannot run the
 * error carries a hint (unknown version and the nearest one, misspelt name, digest it cannot
 * place: sdk/registry.ts `explainNotBuiltin`). The function sees the resolved image as `ctx.image`
 * ({name, tag, version, digest}) and follows that version's behaviour.
 *
 * Run as a validator (`rctx.validator`), a function is not told so, as a container is not: the
 * engine gives it clones and discards what it changed, exactly as kpt discards a container
 * validator's output (a `defineValidator` function still gets read-only items, by its own kind).
 *
 * Failure semantics follow a catalog container: an exception thrown by the function gives exit
 * code 1 with its message on stderr and no extra result; results and exit codes otherwise follow
 * the function (which emulates its SDK generation, catalog.md §3.2).
 */
import { NotFoundError } from '../core/errors.ts';
import type {
  FunctionRuntime,
  FunctionSpec,
  ObjectsRunner,
  ResolveContext,
  ResourceList,
  RunContext,
} from '../core/function.ts';
import { BUILTINS } from '../../builtins/index.ts';
import { executeFunction } from '../../sdk/execute.ts';
import {
  explainNotBuiltin,
  findBuiltin,
  type BuiltinDescriptor,
  type BuiltinMatch,
  type FindBuiltinOptions,
} from '../../sdk/registry.ts';
import type { KrmFunction } from '../../sdk/define.ts';

/**
 * An objects runner for an SDK function. `container` semantics (built-ins): an exception is exit 1
 * with its message on stderr; otherwise the SDK's (`runCli`'s): exit 2, an error result, the stack.
 */
function sdkRunner(fn: KrmFunction, image: BuiltinMatch['image'] | undefined, container: boolean): ObjectsRunner {
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
 * A runtime for SDK functions of the host's own, keyed by exact image string (for example
 * `example.com/fns/set-owner:v1`): they run in-process like built-ins, with no catalog lookup and
 * the same results and exit codes as the function's `krmfn build` executable.
 */
export function createFunctionRuntime(functions: Readonly<Record<string, KrmFunction>>): FunctionRuntime {
  return {
    name: 'functions',
    async resolve(spec: FunctionSpec): Promise<ObjectsRunner> {
      const fn = spec.image !== undefined ? functions[spec.image] : undefined;
      if (!fn) throw new NotFoundError(spec.image ?? spec.exec ?? '');
      return sdkRunner(fn, undefined, false);
    },
  };
}

/** Options of the built-in runtime: `digestPolicy` (default `tag`) says what `name:tag@sha256:…` means. */
export type BuiltinRuntimeOptions = FindBuiltinOptions;

export function createBuiltinRuntime(
  registry: readonly BuiltinDescriptor[] = BUILTINS,
  options: BuiltinRuntimeOptions = {},
): FunctionRuntime {
  return {
    name: 'builtin',
    async resolve(spec: FunctionSpec, ctx: ResolveContext): Promise<ObjectsRunner> {
      const image = spec.image;
      if (!image) throw new NotFoundError(spec.exec ?? ctx.displayName ?? '');
      const match = findBuiltin(registry, image, options);
      if (!match) throw new NotFoundError(image, undefined, explainNotBuiltin(registry, image, options));
      return sdkRunner(match.descriptor.fn, match.image, true);
    },
  };
}
