/**
 * `ctx.open_api` from starlark v0.4.1 on: kyaml's `LazyInitializationOpenapi` (the catalog's
 * third_party/sigs.k8s.io/kustomize/kyaml/fn/runtime/starlark/context.go at starlark/v0.4.1 and
 * later tags). A `starlark.Mapping` that converts the schema on first use and then delegates
 * `String`, `Type`, `Freeze`, `Truth`, `Hash` and `Get` to the dict: `type()` is `dict`,
 * `x[k]` and `k in x` work, printing shows the dict, `hash()` fails as for a dict; it has no
 * length, iteration, item assignment or dict methods, so `len()`, `for`, `.keys()` and
 * `x[k] = v` fail as they do on any value without them.
 */
import type { Dict, Value } from '../../starlark/index.ts';
import { repr } from '../../starlark/index.ts';

export class OpenApiMapping {
  readonly starlarkType = 'dict';
  readonly unhashable = true;
  private value: Dict | undefined;
  private readonly load: () => Dict;

  constructor(load: () => Dict) {
    this.load = load;
  }

  private dict(): Dict {
    this.value ??= this.load();
    return this.value;
  }

  getKey(k: Value): Value | undefined {
    return this.dict().lookup(k);
  }

  truth(): boolean {
    return this.dict().size > 0;
  }

  freeze(): void {
    this.dict().freeze();
  }

  repr(out: string[]): void {
    out.push(repr(this.dict()));
  }
}
