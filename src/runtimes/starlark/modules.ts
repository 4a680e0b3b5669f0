/**
 * The `load()` table of the KRM `starlark` function: `third_party/.../fn/runtime/starlark/loadlib.go`
 * at tags `starlark/v0.3.0`+ (kptdev/krm-functions-catalog), i.e. qri-io/starlib v0.5.0's modules
 * plus `krmfn.star` (v0.4.1+). Implemented: `encoding/json.star`, `encoding/yaml.star`,
 * `encoding/base64.star`, `encoding/csv.star`, `hash.star`, `math.star`, `re.star`, `time.star`
 * (host clock) and `krmfn.star`. `http.star` is refused (no network in the sandbox); `bsoup.star`,
 * `html.star`, `geo.star`, `xlsx.star` and `zipfile.star` exist upstream but are not implemented
 * (a clear `cannot load` error). Any other name loads an empty module, as upstream's loader returns
 * `nil, nil` (so `load("x.star", "y")` fails with `load: name y not found in module x.star`).
 */
import {
  Builtin,
  Dict,
  JSON_MODULE,
  MATH_MODULE,
  Module,
  fail,
  fromHostString,
  jsonModuleOf,
  type StarlarkGoRelease,
} from '../../starlark/index.ts';
import type { Value } from '../../starlark/index.ts';
import { createTimeModule } from '../../starlark/lib/time.ts';
import { BASE64_MODULE } from '../../starlark/lib/starlib/base64.ts';
import { CSV_MODULE } from '../../starlark/lib/starlib/csv.ts';
import { HASH_MODULE } from '../../starlark/lib/starlib/hash.ts';
import { RE_MODULE } from './starlib-re.ts';
import { createYamlModule } from './starlib-yaml.ts';

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
    return test(args[0], args.slice(1));
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

/** Modules of starlib v0.5.0 that krmfn does not implement, and why. */
const UNAVAILABLE: Readonly<Record<string, string>> = {
  'http.star': 'http.star is not available: Starlark functions run without network access',
  'bsoup.star': 'bsoup.star (HTML scraping) is not implemented by krmfn',
  'html.star': 'html.star (HTML parsing) is not implemented by krmfn',
  'geo.star': 'geo.star is not implemented by krmfn',
  'xlsx.star': 'xlsx.star is not implemented by krmfn',
  'zipfile.star': 'zipfile.star is not implemented by krmfn',
};

export interface KrmLoaderOptions {
  now: () => number;
  /** v0.4.1+: `krmfn.star`. */
  krmfn?: boolean;
  /** Bounds for `yaml.loads`. */
  maxAliases?: number;
  maxDepth?: number;
  /** The google/starlark-go release the image embeds (default HEAD): picks the `json` members. */
  release?: StarlarkGoRelease;
}

export function krmLoader(opts: KrmLoaderOptions): (module: string) => Record<string, Value> {
  const time = createTimeModule({ now: opts.now });
  let yaml: Module | undefined;
  return (module: string): Record<string, Value> => {
    switch (module) {
      case 'encoding/json.star':
        return { json: opts.release === undefined ? JSON_MODULE : jsonModuleOf(opts.release) };
      case 'encoding/yaml.star':
        yaml ??= createYamlModule({ maxAliases: opts.maxAliases ?? 10_000, maxDepth: opts.maxDepth ?? 1_000 });
        return { yaml };
      case 'encoding/base64.star':
        return { base64: BASE64_MODULE };
      case 'encoding/csv.star':
        return { csv: CSV_MODULE };
      case 'hash.star':
        return { hash: HASH_MODULE };
      case 're.star':
        return { re: RE_MODULE };
      case 'math.star':
        return { math: MATH_MODULE };
      case 'time.star':
        return { time };
      case 'krmfn.star':
        return opts.krmfn === false ? {} : { krmfn: KRMFN_MODULE };
    }
    const why = UNAVAILABLE[module];
    if (why !== undefined) throw new Error(why);
    return {};
  };
}
