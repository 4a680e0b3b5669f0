/**
 * The `load()` table of the KRM `starlark` function (starlark.md §14): `encoding/json.star`,
 * `math.star`, `time.star` (host clock) and krmfn's own `krmfn.star` helpers. Other names load an
 * empty module, as in the kpt image (so `load("x.star", "y")` fails with `load: name y not found in
 * module x.star`); `http.star` is refused (no network).
 */
import { Builtin, Dict, JSON_MODULE, MATH_MODULE, Module, fail, fromHostString } from '../../starlark/index.ts';
import type { Value } from '../../starlark/index.ts';
import { createTimeModule } from '../../starlark/lib/time.ts';

function field(v: Value | undefined, ...path: string[]): Value | undefined {
  let cur = v;
  for (const k of path) {
    if (!(cur instanceof Dict)) return undefined;
    cur = cur.lookup(fromHostString(k));
  }
  return cur;
}

function matcher(name: string, arity: number, test: (r: Value, args: Value[]) => boolean): Builtin {
  return new Builtin(name, (_t, args, kwargs) => {
    if (kwargs !== null && kwargs.length > 0) fail(`${name}: unexpected keyword arguments`);
    if (args.length !== arity) fail(`${name}: got ${args.length} arguments, want ${arity}`);
    return test(args[0]!, args.slice(1));
  });
}

/** `krmfn.match_gvk(r, apiVersion, kind)`, `match_name(r, name)`, `match_namespace(r, ns)`. */
export const KRMFN_MODULE: Module = new Module(
  'krmfn',
  Object.freeze({
    match_gvk: matcher('match_gvk', 3, (r, [av, k]) => field(r, 'apiVersion') === av && field(r, 'kind') === k),
    match_name: matcher('match_name', 2, (r, [n]) => field(r, 'metadata', 'name') === n),
    match_namespace: matcher('match_namespace', 2, (r, [ns]) => (field(r, 'metadata', 'namespace') ?? '') === ns),
  }),
);

export function krmLoader(now: () => number, withKrmfn = true): (module: string) => Record<string, Value> {
  const time = createTimeModule({ now });
  return (module: string): Record<string, Value> => {
    switch (module) {
      case 'encoding/json.star':
        return { json: JSON_MODULE };
      case 'math.star':
        return { math: MATH_MODULE };
      case 'time.star':
        return { time };
      case 'krmfn.star':
        return withKrmfn ? { krmfn: KRMFN_MODULE } : {};
      case 'http.star':
        throw new Error('network access is not available to Starlark functions');
      default:
        return {};
    }
  };
}
