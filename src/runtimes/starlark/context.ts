/**
 * The `ctx` global of the KRM `starlark` function (docs/starlark.md, "The KRM `starlark` function"): a read-only struct with
 * `resource_list` (a mutable dict the host reads back), `open_api` (converted lazily on first
 * access) and `environment`. `type(ctx) == "struct"`, `dir(ctx)` is sorted, assignments fail with
 * `can't assign to .x field of struct`.
 */
import type { Value } from '../../starlark/index.ts';
import { Dict } from '../../starlark/index.ts';
import { jsToStarlark } from './convert.ts';

export class KrmContext {
  readonly starlarkType = 'struct';
  private openApiValue: Value | undefined;
  readonly resourceList: Dict;
  private readonly environment: Value;
  private readonly openApi: (() => unknown) | undefined;

  constructor(resourceList: Dict, env: Readonly<Record<string, string>>, openApi: (() => unknown) | undefined) {
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
        if (this.openApiValue === undefined)
          this.openApiValue = this.openApi ? jsToStarlark(this.openApi() ?? {}) : new Dict();
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
}
