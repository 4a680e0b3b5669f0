/**
 * Argument unpacking for builtins, with starlark-go's messages:
 * `len: got 0 arguments, want 1`, `replace: got 1 arguments, want at least 2`,
 * `<fn>: unexpected keyword arguments` (positional-only), `<fn>: unexpected keyword argument "x"`,
 * `<fn>: missing argument for x`, `<fn>: got multiple values for keyword argument "x"`,
 * `<fn>: for parameter <p>: got <type>, want <type>`.
 */
import { STARLARK_GO_HEAD, type StarlarkGoRelease } from '../release.ts';
import type { Callable, Kwargs, Value } from '../value/contract.ts';
import { isCallable } from '../value/capabilities.ts';
import { None } from '../value/contract.ts';
import { failIn } from '../value/errors.ts';
import { typeNameOf } from '../value/repr.ts';
import { Float } from '../value/float.ts';
import { nearest } from '../spell.ts';
import { quote } from '../value/string.ts';

/** Checks a positional-only call: no keywords, min..max arguments. */
export function positional(fn: string, args: readonly Value[], kwargs: Kwargs, min: number, max: number): void {
  if (kwargs !== null && kwargs.length > 0) failIn(fn, 'unexpected keyword arguments');
  const n = args.length;
  if (n < min) failIn(fn, `got ${n} arguments, want ${min < max ? 'at least ' : ''}${min}`);
  if (n > max) failIn(fn, `got ${n} arguments, want ${max > min ? 'at most ' : ''}${max}`);
}

/**
 * Unpacks positional and keyword arguments onto named parameters. A trailing `?` marks an
 * optional parameter (all parameters after the first optional one are optional). Returns values
 * aligned with `params` (undefined when not given) and, in `labels`, how each was supplied for
 * error messages (`x` positionally, `"x"` by keyword).
 */
export function unpack(
  fn: string,
  args: readonly Value[],
  kwargs: Kwargs,
  params: readonly string[],
  release: StarlarkGoRelease = STARLARK_GO_HEAD,
): { values: (Value | undefined)[]; labels: string[] } {
  const names = params.map((p) => (p.endsWith('?') ? p.slice(0, -1) : p));
  const values: (Value | undefined)[] = new Array<Value | undefined>(params.length).fill(undefined);
  const labels = names.slice();
  if (args.length > params.length) failIn(fn, `got ${args.length} arguments, want at most ${params.length}`);
  for (let i = 0; i < args.length; i++) values[i] = args[i];
  if (kwargs !== null) {
    for (const [k, v] of kwargs) {
      const i = names.indexOf(k);
      if (i < 0) {
        // google/starlark-go starlark/unpack.go (UnpackArgs, since #393) offers only the first
        // ceil(n/2) parameter names as spelling candidates: its loop steps by 2 over indices below
        // n into the name/pointer pairs. Reproduced on purpose (docs/starlark.md).
        // The hint itself exists since google/starlark-go #393 (src/starlark/release.ts).
        const hint = release.has('keywordSpellingHint') ? nearest(k, names.slice(0, Math.ceil(names.length / 2))) : '';
        failIn(fn, `unexpected keyword argument ${quote(k)}${hint ? ` (did you mean ${hint}?)` : ''}`);
      }
      if (values[i] !== undefined) failIn(fn, `got multiple values for keyword argument ${quote(k)}`);
      values[i] = v;
      labels[i] = quote(k);
    }
  }
  // From the first parameter not given positionally, as google/starlark-go starlark/unpack.go does:
  // a required parameter after an optional one is required only once a positional argument reaches
  // past the optional one (qri-io/starlib v0.5.0's csv.read_all(source, ";") misses `comment`).
  for (let i = args.length; i < params.length; i++) {
    if (params[i].endsWith('?')) break;
    if (values[i] === undefined) failIn(fn, `missing argument for ${names[i]}`);
  }
  return { values, labels };
}

/** `<fn>: for parameter <label>: got <type>, want <want>`. */
export function wrongType(fn: string, label: string | number, v: Value, want: string): never {
  return failIn(fn, `for parameter ${label}: got ${typeNameOf(v)}, want ${want}`);
}

/** A callable argument (`key` of `sorted`, `min`, `max`); None is not one. */
export function wantCallable(fn: string, label: string | number, v: Value): Callable {
  return isCallable(v) ? v : wrongType(fn, label, v, 'callable');
}

export function wantString(fn: string, label: string | number, v: Value): string {
  if (typeof v !== 'string') wrongType(fn, label, v, 'string');
  return v;
}

export function wantBool(fn: string, label: string | number, v: Value): boolean {
  if (typeof v !== 'boolean') wrongType(fn, label, v, 'bool');
  return v;
}

/** An int argument as a JS number (bigints saturate to ±Infinity, which callers clamp). */
export function wantInt(fn: string, label: string | number, v: Value): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return v < 0n ? -Infinity : Infinity;
  return wrongType(fn, label, v, 'int');
}

/** An int-or-None argument; None gives `dflt`. */
export function wantIntOrNone(fn: string, label: string | number, v: Value | undefined, dflt: number): number {
  if (v === undefined || v === None) return dflt;
  return wantInt(fn, label, v);
}

export function isNumber(v: Value): boolean {
  return typeof v === 'number' || typeof v === 'bigint' || v instanceof Float;
}
