/**
 * The `ctx` global of the KRM `starlark` function (docs/starlark.md, "The KRM `starlark` function"): a read-only struct with
 * `resource_list` (a mutable dict the host reads back), `open_api` and `environment`.
 * `type(ctx) == "struct"`, `dir(ctx)` is sorted, assignments fail with
 * `can't assign to .x field of struct`.
 *
 * `open_api` is the tag's OpenAPI document (./open-api.ts), loaded and converted only when a
 * script first reads `ctx.open_api` (nothing is read or parsed for a script that does not): a dict
 * up to v0.4.0, kyaml's lazy mapping from v0.4.1 (./open-api-mapping.ts); an empty dict when the
 * host supplies no document. A loader that throws fails the script with its message.
 */
import type { Value } from '../../starlark/index.ts';
import { Dict, fail } from '../../starlark/index.ts';
import { jsToStarlark } from './convert.ts';
import { OpenApiMapping } from './open-api-mapping.ts';

export interface OpenApiSource {
  /** Answers the document as JSON data; undefined when the host has none. */
  load: () => unknown;
  /** v0.4.1+: expose it as kyaml's `LazyInitializationOpenapi` mapping rather than a dict. */
  mapping: boolean;
}

export class KrmContext {
  readonly starlarkType = 'struct';
  private openApiValue: Value | undefined;
  readonly resourceList: Dict;
  private readonly environment: Value;
  private readonly openApi: OpenApiSource | undefined;

  constructor(resourceList: Dict, env: Readonly<Record<string, string>>, openApi: OpenApiSource | undefined) {
    this.resourceList = resourceList;
    this.environment = jsToStarlark(env);
    this.openApi = openApi;
  }

  attr(name: string): Value | undefined {
    switch (name) {
      case 'resource_list':
        return this.resourceList;
      case 'environment':
        return this.environment;
      case 'open_api':
        this.openApiValue ??= this.openApiAttr();
        return this.openApiValue;
      default:
        return undefined;
    }
  }

  attrNames(): string[] {
    return ['environment', 'open_api', 'resource_list'];
  }

  repr(out: string[]): void {
    out.push('struct(environment = ..., open_api = ..., resource_list = ...)');
  }

  private openApiAttr(): Value {
    const source = this.openApi;
    if (!source) return new Dict();
    const convert = (): Dict => {
      let document: unknown;
      try {
        document = source.load();
      } catch (e) {
        return fail(`ctx.open_api: ${e instanceof Error ? e.message : String(e)}`);
      }
      const value = document === undefined ? new Dict() : jsToStarlark(document);
      return value instanceof Dict ? value : fail('ctx.open_api: the OpenAPI document is not a mapping');
    };
    return source.mapping ? new OpenApiMapping(convert) : convert();
  }
}
