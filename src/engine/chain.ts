/**
 * The runtime chain (the seams are described in src/core/function.ts): runtimes are tried in order and the chain moves on only
 * when one throws NotFoundError; any other error stops it. When no runtime takes the function the
 * chain fails with a NotFoundError naming the function and what could run it. `onResolved` hears
 * which runtime took each function (for verbose reports).
 *
 * `selectRuntimes` is the per-run choice of the chain (the library's `runtimeOrder`, the CLI's
 * `--runtimes`): the runtimes named, by their `name`, in the order named; an unknown or repeated
 * name is a `usage` error naming what there is.
 */
import { KrmfnError, NotFoundError, isNotFoundError } from '../core/errors.ts';
import type { FunctionRunner, FunctionRuntime, PipelineFunction, ResolveContext } from '../core/function.ts';

/** Which runtime took a function. */
export interface RuntimeChoice {
  /** The function as messages name it (its image or exec). */
  function: string;
  /** The `image:` the function names, when it names one. */
  image?: string;
  /** The runtime's `name` (`builtin`, `starlark`, `wasm`, `exec`, `remote`, `sandbox`, `docker`, …). */
  runtime: string;
}

export interface RuntimeChainOptions {
  onResolved?: (choice: RuntimeChoice) => void;
}

export function createRuntimeChain(
  runtimes: readonly FunctionRuntime[],
  options: RuntimeChainOptions = {},
): FunctionRuntime {
  const list = [...runtimes];
  return {
    name: `chain(${list.map((r) => r.name).join(',')})`,
    async resolve(spec: PipelineFunction, ctx: ResolveContext): Promise<FunctionRunner> {
      let hint: string | undefined;
      for (const rt of list) {
        let runner: FunctionRunner;
        try {
          runner = await rt.resolve(spec, ctx);
        } catch (e) {
          if (!isNotFoundError(e)) throw e;
          hint = (e instanceof NotFoundError ? e.hint : undefined) ?? hint;
          continue;
        }
        options.onResolved?.({
          function: ctx.displayName,
          ...(spec.image ? { image: spec.image } : {}),
          runtime: rt.name,
        });
        return runner;
      }
      throw new NotFoundError(ctx.displayName, notFoundMessage(spec, ctx, list, hint), hint);
    },
  };
}

/**
 * The runtimes `names` names, in that order. `what` names the option in messages (`runtimeOrder`,
 * `--runtimes`).
 */
export function selectRuntimes(
  runtimes: readonly FunctionRuntime[],
  names: readonly string[],
  what = 'runtimeOrder',
): FunctionRuntime[] {
  const byName = new Map<string, FunctionRuntime>();
  for (const rt of runtimes) if (!byName.has(rt.name)) byName.set(rt.name, rt);
  const known = [...byName.keys()].join(', ') || 'none';
  if (names.length === 0) throw usage(`${what} names no runtime (this engine has: ${known})`);
  const seen = new Set<string>();
  return names.map((name) => {
    const rt = byName.get(name);
    if (!rt) throw usage(`unknown runtime ${JSON.stringify(name)} in ${what} (this engine has: ${known})`);
    if (seen.has(name)) throw usage(`runtime ${JSON.stringify(name)} is named twice in ${what}`);
    seen.add(name);
    return rt;
  });
}

function usage(message: string): KrmfnError {
  return new KrmfnError({ code: 'usage', message });
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
