/**
 * The runtime chain (the seams are described in src/core/function.ts): runtimes are tried in order and the chain moves on only
 * when one throws NotFoundError; any other error stops it. When no runtime takes the function the
 * chain fails with a NotFoundError naming the function and what could run it.
 */
import { NotFoundError, isNotFoundError } from '../core/errors.ts';
import type { FunctionRunner, FunctionRuntime, PipelineFunction, ResolveContext } from '../core/function.ts';

export function createRuntimeChain(runtimes: readonly FunctionRuntime[]): FunctionRuntime {
  const list = [...runtimes];
  return {
    name: `chain(${list.map((r) => r.name).join(',')})`,
    async resolve(spec: PipelineFunction, ctx: ResolveContext): Promise<FunctionRunner> {
      let hint: string | undefined;
      for (const rt of list) {
        try {
          return await rt.resolve(spec, ctx);
        } catch (e) {
          if (!isNotFoundError(e)) throw e;
          hint = (e instanceof NotFoundError ? e.hint : undefined) ?? hint;
        }
      }
      throw new NotFoundError(ctx.displayName, notFoundMessage(spec, ctx, list, hint), hint);
    },
  };
}

/**
 * The chain's error; `hint` (the explanation of the last runtime that gave one, so a specialised
 * runtime later in the chain overrides the built-in catalog's) comes right after the cause.
 */
function notFoundMessage(
  spec: PipelineFunction,
  ctx: ResolveContext,
  runtimes: readonly FunctionRuntime[],
  hint: string | undefined,
): string {
  const tried = runtimes.map((r) => r.name).join(', ') || 'none';
  if (spec.exec !== undefined && spec.exec !== '') {
    return `function ${JSON.stringify(ctx.displayName)} cannot run here: exec functions need a host that can start processes (the krmfn CLI or krmfn/node); runtimes tried: ${tried}`;
  }
  return (
    `function ${JSON.stringify(ctx.displayName)} is not built into krmfn and no runtime can run it (tried: ${tried})` +
    (hint ? `: ${hint}${/[.?!]$/.test(hint) ? '' : '.'} ` : '. ') +
    `Use a catalog image krmfn has built in (e.g. gcr.io/kpt-fn/set-namespace:v0.4.1), a Starlark or WASM function, ` +
    `run the function as an executable with exec, send it to a function server (krmfn CLI: --remote-config), ` +
    `or let a container engine run it (krmfn CLI: --container-runtime docker|podman)`
  );
}
