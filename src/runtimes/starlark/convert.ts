/**
 * Conversion between YAML nodes and Starlark values for the KRM `starlark` function
 * (docs/starlark.md, "The KRM `starlark` function").
 *
 * In: mapping → dict (scalar keys keep their type: string keys are strings), sequence → list,
 * `!!int` → int, `!!float` → float, `!!bool` → bool, `!!null` → None, every other scalar (timestamps
 * included) → string; aliases are expanded (bounded); document order is kept.
 *
 * Out (what kpt's function writes, re-marshalled from Go values): dict → mapping with sorted keys,
 * list/tuple → sequence, int → int, float → float but integral floats as ints, string, bool,
 * None → null; fresh nodes in plain/block style (multi-line strings literal). A set fails with
 * `sets aren't yet supported`, other values with `unrecognized starlark type: <type>`, an int
 * outside Go's `int` with `N out of range (want value in signed 64-bit range)` (v0.1.x's fork:
 * outside int32, `N out of range`); a failure inside a dict value or key is wrapped in
 * `unmarshaling starlark value: ` / `unmarshaling starlark key: ` per level, values before keys
 * (qri-io/starlib v0.5.0 util/util.go `Unmarshal`; kyaml v0.10.13's fork of it for v0.1.x).
 */
import { Dict, Float, List, None, Tuple, fromHostString, toHostString, typeName } from '../../starlark/index.ts';
import type { Value } from '../../starlark/index.ts';
import { formatG } from '../../starlark/value/float.ts';
import { KrmfnError, LimitExceededError } from '../../core/errors.ts';
import { scalarToJS } from '../../core/yaml/convert.ts';
import { mappingNode, newNode, sequenceNode, strNode, type YNode } from '../../core/yaml/node.ts';

export interface ToStarlarkOptions {
  maxAliases?: number;
  maxDepth?: number;
}

/** A YAML node (document, mapping, ...) as a fresh, unfrozen Starlark value. */
export function nodeToStarlark(node: YNode | undefined, opts: ToStarlarkOptions = {}): Value {
  if (!node) return None;
  const maxAliases = opts.maxAliases ?? 10_000;
  const maxDepth = opts.maxDepth ?? 1_000;
  let aliases = 0;
  const walk = (n: YNode, depth: number): Value => {
    if (depth > maxDepth) throw new LimitExceededError('depth', `YAML nesting deeper than ${maxDepth} levels`);
    switch (n.kind) {
      case 'document':
        return n.content[0] ? walk(n.content[0], depth) : None;
      case 'alias':
        if (++aliases > maxAliases)
          throw new LimitExceededError('aliases', `YAML document expands more than ${maxAliases} aliases`);
        return n.alias ? walk(n.alias, depth + 1) : None;
      case 'sequence':
        return new List(n.content.map((c) => walk(c, depth + 1)));
      case 'mapping': {
        const d = new Dict();
        const c = n.content;
        for (let i = 0; i + 1 < c.length; i += 2) {
          const k = c[i];
          if (k.kind === 'scalar' && k.tag === '!!merge' && k.value === '<<') {
            const src = walk(c[i + 1], depth + 1);
            const merges = src instanceof List ? src.elems : [src];
            for (const m of merges)
              if (m instanceof Dict) for (const [mk, mv] of m.entries()) if (!d.has(mk)) d.insert(mk, mv);
            continue;
          }
          d.insert(k.kind === 'scalar' ? scalarToStarlark(k) : walk(k, depth + 1), walk(c[i + 1], depth + 1));
        }
        return d;
      }
      case 'scalar':
        return scalarToStarlark(n);
    }
  };
  return walk(node, 0);
}

function scalarToStarlark(n: YNode): Value {
  switch (n.tag) {
    case '!!null':
      return None;
    case '!!bool':
      return scalarToJS(n) as boolean;
    case '!!int': {
      const v = scalarToJS(n);
      return typeof v === 'number' || typeof v === 'bigint' ? v : fromHostString(n.value);
    }
    case '!!float':
      return new Float(scalarToJS(n) as number);
    default:
      return fromHostString(n.value);
  }
}

/** Plain data (JSON-like JS values) as a Starlark value: for environment and OpenAPI dicts. */
export function jsToStarlark(v: unknown): Value {
  if (v === null || v === undefined) return None;
  switch (typeof v) {
    case 'string':
      return fromHostString(v);
    case 'boolean':
      return v;
    case 'bigint':
      return v;
    case 'number':
      return Number.isSafeInteger(v) ? v : new Float(v);
    case 'object': {
      if (Array.isArray(v)) return new List(v.map(jsToStarlark));
      const d = new Dict();
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) d.insert(fromHostString(k), jsToStarlark(x));
      return d;
    }
    default:
      return fromHostString(String(v));
  }
}

/** A conversion failure of the script's output (exit 1, one error result). */
export class OutputConversionError extends KrmfnError {
  constructor(message: string) {
    super({ code: 'function-output', message });
    this.name = 'OutputConversionError';
  }
}

/** The ints util.Unmarshal accepts: Go's 64-bit `int` (starlark.AsInt), or int32 (v0.1.x's fork, AsInt32). */
export type IntRange = 'int64' | 'int32';

const INT_LIMITS: Readonly<Record<IntRange, readonly [bigint, bigint, string]>> = {
  int64: [-(1n << 63n), (1n << 63n) - 1n, ' (want value in signed 64-bit range)'],
  int32: [-(1n << 31n), (1n << 31n) - 1n, ''],
};

/** Runs `convert`, prefixing the message of an OutputConversionError it throws (util.Unmarshal's wrapping). */
export function wrapped<T>(prefix: string, convert: () => T): T {
  try {
    return convert();
  } catch (e) {
    if (e instanceof OutputConversionError) throw new OutputConversionError(prefix + e.message);
    throw e;
  }
}

/** A Starlark value as a fresh YAML node tree, as kpt's function marshals it. */
export function starlarkToNode(v: Value, depth = 0, ints: IntRange = 'int64'): YNode {
  if (depth > 10_000) throw new OutputConversionError('value nested too deeply');
  if (v === None) return newNode('scalar', { tag: '!!null', value: 'null' });
  switch (typeof v) {
    case 'boolean':
      return newNode('scalar', { tag: '!!bool', value: v ? 'true' : 'false' });
    case 'number':
    case 'bigint': {
      const [min, max, want] = INT_LIMITS[ints];
      const big = BigInt(v);
      if (big < min || big > max) throw new OutputConversionError(`${v} out of range${want}`);
      return newNode('scalar', { tag: '!!int', value: v.toString() });
    }
    case 'string':
      return stringNode(toHostString(v));
  }
  if (v instanceof Float) return floatNode(v.value);
  if (v instanceof List || v instanceof Tuple) {
    return sequenceNode(v.elems.map((e) => starlarkToNode(e, depth + 1, ints)));
  }
  if (v instanceof Dict) {
    const pairs = v.entries().map(([k, x]) => {
      const value = wrapped('unmarshaling starlark value: ', () => starlarkToNode(x, depth + 1, ints));
      return [wrapped('unmarshaling starlark key: ', () => keyNode(k, ints)), value] as const;
    });
    pairs.sort((a, b) => naturalCompare(a[0].value, b[0].value));
    return mappingNode(pairs.flatMap(([k, x]) => [k, x]));
  }
  const t = typeName(v);
  if (t === 'set') throw new OutputConversionError("sets aren't yet supported");
  throw new OutputConversionError(`unrecognized starlark type: ${t}`);
}

/** YAML 1.1 booleans and base-60 numbers: go-yaml double-quotes them although YAML 1.2 reads them as strings. */
const YAML11_SPECIAL =
  /^(?:[yYnN]|yes|Yes|YES|no|No|NO|on|On|ON|off|Off|OFF|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?)$/;

function stringNode(s: string): YNode {
  if (s.includes('\n')) return strNode(s, 'literal');
  return strNode(s, YAML11_SPECIAL.test(s) ? 'double' : '');
}

function keyNode(k: Value, ints: IntRange): YNode {
  if (typeof k === 'string') return stringNode(toHostString(k));
  if (typeof k === 'number' || typeof k === 'bigint' || typeof k === 'boolean' || k === None || k instanceof Float) {
    return starlarkToNode(k, 0, ints);
  }
  throw new OutputConversionError(`unrecognized starlark type: ${typeName(k)}`);
}

function floatNode(x: number): YNode {
  if (Number.isNaN(x)) return newNode('scalar', { tag: '!!float', value: '.nan' });
  if (!Number.isFinite(x)) return newNode('scalar', { tag: '!!float', value: x > 0 ? '.inf' : '-.inf' });
  // Go's FormatFloat(x, 'g', -1, 64): integral values print without a fraction and read back as ints.
  const text = formatG(x);
  return newNode('scalar', { tag: /^-?[0-9]+$/.test(text) ? '!!int' : '!!float', value: text });
}

/**
 * go-yaml's map key order (its key sorter, for string keys): at the first differing character,
 * two letters compare by code point; a letter and a non-letter put the letter first only right
 * after a run of digits (else the non-letter first); otherwise the digit runs starting there
 * compare by numeric value (`a2` < `a10`), then by length, then by code point. A prefix sorts first.
 */
export function naturalCompare(a: string, b: string): number {
  const ar = [...a],
    br = [...b];
  const isLetter = (c: string): boolean => /\p{L}/u.test(c);
  const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
  let digits = false;
  for (let i = 0; i < ar.length && i < br.length; i++) {
    const ca = ar[i],
      cb = br[i];
    if (ca === cb) {
      digits = isDigit(ca);
      continue;
    }
    const al = isLetter(ca),
      bl = isLetter(cb);
    if (al && bl) return ca < cb ? -1 : 1;
    if (al || bl) return (digits ? al : bl) ? -1 : 1;
    let an = 0n,
      bn = 0n;
    if (ca === '0' || cb === '0') {
      for (let j = i - 1; j >= 0 && isDigit(ar[j]); j--) {
        if (ar[j] !== '0') {
          an = 1n;
          bn = 1n;
          break;
        }
      }
    }
    let ai = i,
      bi = i;
    for (; ai < ar.length && isDigit(ar[ai]); ai++) an = an * 10n + BigInt(ar[ai].charCodeAt(0) - 48);
    for (; bi < br.length && isDigit(br[bi]); bi++) bn = bn * 10n + BigInt(br[bi].charCodeAt(0) - 48);
    if (an !== bn) return an < bn ? -1 : 1;
    if (ai !== bi) return ai - bi;
    return ca < cb ? -1 : 1;
  }
  return ar.length - br.length;
}
