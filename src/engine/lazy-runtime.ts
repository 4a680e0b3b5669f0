/**
 * A runtime whose module loads on first need (issue #17 start-up item: a command loads only the
 * runtimes its pipeline uses). `createLazyRuntime(name, load, options)` has the `name` the loaded
 * runtime will have, so the chain (src/engine/chain.ts) orders, selects and names it in messages
 * before anything loads. `load` runs once, at the first `resolve` that `mayTake` (default: every
 * function) lets through; a function `mayTake` refuses gets `options.refuse(spec)` (default a plain
 * NotFoundError naming the image or exec), which must be what the loaded runtime would throw for
 * it, so the chain's results and messages are the same whether or not the module was loaded.
 * `loaded()` is the runtime once loaded (for hosts that must close it), else undefined.
 */
import { NotFoundError } from '../core/errors.ts';
import type { FunctionRunner, FunctionRuntime, PipelineFunction, ResolveContext } from '../core/function.ts';

export interface LazyRuntimeOptions {
  /** False when the loaded runtime would certainly refuse the function (a cheap superset check). */
  mayTake?: (spec: PipelineFunction) => boolean;
  /** The error for a function `mayTake` refused; default `new NotFoundError(image ?? exec ?? '')`. */
  refuse?: (spec: PipelineFunction) => Error;
}

export interface LazyRuntime<R extends FunctionRuntime = FunctionRuntime> extends FunctionRuntime {
  /** The runtime, once a `resolve` has loaded it. */
  loaded(): R | undefined;
}

export function createLazyRuntime<R extends FunctionRuntime>(
  name: string,
  load: () => Promise<R>,
  options: LazyRuntimeOptions = {},
): LazyRuntime<R> {
  let pending: Promise<R> | undefined;
  let runtime: R | undefined;
  return {
    name,
    loaded: () => runtime,
    async resolve(spec: PipelineFunction, ctx: ResolveContext): Promise<FunctionRunner> {
      if (options.mayTake && !options.mayTake(spec)) {
        throw options.refuse ? options.refuse(spec) : new NotFoundError(spec.image ?? spec.exec ?? '');
      }
      runtime ??= await (pending ??= load());
      return runtime.resolve(spec, ctx);
    },
  };
}
