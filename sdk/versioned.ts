/**
 * `versionedApi`: one function whose config API evolves, with an implementation per config
 * apiVersion (kyaml's `VersionedAPIProcessor`, docs/sdk.md, "Design"). The returned function
 * dispatches on the functionConfig's apiVersion; each implementation binds its own config.
 * A ConfigMap (or no config) goes to `options.default` when given, else it is a config error.
 */
import { ConfigError } from './results.ts';
import { defineFunction, type FnContext, type KrmFunction } from './define.ts';
import { executeFunction } from './execute.ts';

export interface VersionedApiOptions {
  name: string;
  /** The apiVersion whose implementation handles ConfigMaps and a missing config. */
  default?: string;
  usage?: string;
}

export function versionedApi(
  versions: Readonly<Record<string, KrmFunction>>,
  options: VersionedApiOptions,
): KrmFunction {
  const impls = Object.values(versions);
  const kind = impls[0]?.kind ?? 'mutator';
  if (impls.some((f) => f.kind !== kind))
    throw new TypeError('versionedApi: every version must be the same kind of function');
  return defineFunction(kind, {
    name: options.name,
    ...(options.usage ? { usage: options.usage } : {}),
    async run(ctx: FnContext<undefined>) {
      const fc = ctx.functionConfig;
      const key = fc && fc.kind !== 'ConfigMap' ? fc.apiVersion : options.default;
      const impl = key !== undefined ? versions[key] : undefined;
      if (!impl) {
        throw new ConfigError(
          `unsupported functionConfig apiVersion ${JSON.stringify(fc?.apiVersion ?? '')}: expected one of ${Object.keys(versions).join(', ')}`,
        );
      }
      const list = { items: ctx.items.all, results: [], ...(fc ? { functionConfig: fc } : {}) };
      const outcome = await executeFunction(impl, list, {
        env: ctx.env,
        now: ctx.now,
        signal: ctx.signal,
        ...(ctx.image ? { image: ctx.image } : {}),
      });
      // Mirror the inner item list (adds and removals) into the outer one.
      const inner = new Set(list.items);
      for (const o of ctx.items.all) if (!inner.has(o)) ctx.items.remove(o);
      const outer = new Set(ctx.items.all);
      for (const o of list.items) if (!outer.has(o)) ctx.items.add(o);
      for (const r of outcome.results) ctx.results.add(r);
      for (const line of outcome.log) ctx.log(line);
      ctx.exitCode = outcome.exitCode;
    },
  });
}
