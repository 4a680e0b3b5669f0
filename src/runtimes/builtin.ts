/**
 * The in-process runtime: functions implemented natively, run as `objects` runners on the live
 * KubeObjects. The composition root (src/index.ts) hands it a `RunnerCatalog` (the built-in
 * catalog, sdk/runner.ts `builtinCatalog`, or a host's own functions, `functionCatalog`); this
 * layer knows neither builtins/ nor sdk/. `resolve` throws `NotFoundError` for an image the
 * catalog does not hold, so the chain moves on; the error carries the catalog's hint (unknown
 * version and the nearest one, misspelt name, digest it cannot place).
 *
 * Run as a validator (`rctx.validator`), a function is not told so, as a container is not: the
 * engine gives it clones and discards what it changed, exactly as kpt discards a container
 * validator's output.
 */
import { NotFoundError } from '../core/errors.ts';
import type {
  FunctionRuntime,
  PipelineFunction,
  ObjectsRunner,
  ResolveContext,
  RunnerCatalog,
} from '../core/function.ts';

/** A runtime named `name` (`builtin`, `functions`) over `catalog`. */
export function createCatalogRuntime(name: string, catalog: RunnerCatalog): FunctionRuntime {
  return {
    name,
    async resolve(spec: PipelineFunction, ctx: ResolveContext): Promise<ObjectsRunner> {
      const image = spec.image;
      if (!image) throw new NotFoundError(spec.exec ?? ctx.displayName ?? '');
      const runner = catalog.runner(image);
      if (!runner) throw new NotFoundError(image, undefined, catalog.explain(image));
      return runner;
    },
  };
}
