/**
 * `load("encoding/yaml.star", "yaml")`: qri-io/starlib v0.5.0 `encoding/yaml/yaml.go`, which the
 * catalog function builds with gopkg.in/yaml.v2 v2.4.0 and starlib's `util.Marshal`/`Unmarshal`.
 *
 * `yaml.loads(source)`: the first document, with yaml.v2's YAML 1.1 resolution of plain scalars
 * (`yes`/`on`/`y` → True, `0777` → 511, `1_000` → 1000, `08` → 8.0, `.inf`, `~` → None;
 * timestamps stay strings; quoted scalars are strings); merge keys and aliases expanded; only the
 * first document is read (starlib-yaml-document.ts). Errors read as yaml.v2's (starlib-yaml-errors.ts). Go's map
 * iteration order makes upstream's dict order random; krmfn keeps document order.
 *
 * `yaml.dumps(value)`: yaml.v2's `Marshal`: keys sorted (go-yaml's natural order), block style,
 * sequences not indented under their key, multi-line strings literal, YAML 1.1 keywords quoted,
 * integral floats written as ints; a set fails with `sets aren't yet supported`, other values with
 * `unrecognized starlark type: <type>`. Plain and quoted strings are folded at a space past
 * column 80, as yaml.v2's emitter does.
 */
import { KrmfnError } from '../../core/errors.ts';
import { parseYamlFile, emitYamlDocument } from '../../core/yaml/index.ts';
import { documentNode, newNode, type YNode } from '../../core/yaml/node.ts';
import { Builtin, Dict, Float, List, Module, None, fail, fromHostString, toHostString } from '../../starlark/index.ts';
import type { Value } from '../../starlark/index.ts';
import { unpack, wantString } from '../../starlark/lib/args.ts';
import { STANDARD_BASE64, base64Decode } from '../../starlark/lib/starlib/base64.ts';
import { OutputConversionError, starlarkToNode } from './convert.ts';
import {
  CONTROL_CHARACTERS,
  refusedCharacterFirst,
  refusedCharacterOffset,
  yamlV2ErrorText,
} from './starlib-yaml-errors.ts';
import { firstDocument } from './starlib-yaml-document.ts';
import { utf8Length } from '../../core/yaml/emit.ts';
import { formatG } from '../../starlark/value/float.ts';

const BOOLS: Readonly<Record<string, boolean>> = {
  y: true,
  Y: true,
  yes: true,
  Yes: true,
  YES: true,
  true: true,
  True: true,
  TRUE: true,
  on: true,
  On: true,
  ON: true,
  n: false,
  N: false,
  no: false,
  No: false,
  NO: false,
  false: false,
  False: false,
  FALSE: false,
  off: false,
  Off: false,
  OFF: false,
};
const NULLS = new Set(['', '~', 'null', 'Null', 'NULL']);
const FLOATS: Readonly<Record<string, number>> = {
  '.nan': NaN,
  '.NaN': NaN,
  '.NAN': NaN,
  '.inf': Infinity,
  '.Inf': Infinity,
  '.INF': Infinity,
  '+.inf': Infinity,
  '+.Inf': Infinity,
  '+.INF': Infinity,
  '-.inf': -Infinity,
  '-.Inf': -Infinity,
  '-.INF': -Infinity,
};
const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const GO_FLOAT = /^[-+]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?|inf(?:inity)?|nan)$/i;
/** yaml.v2's `yaml.Marshal` emitter width (go-yaml/yaml emitterc.go `yaml_emitter_emit_stream_start` at v2.4.0). */
const YAML_V2_BEST_WIDTH = 80;
const INT64_MIN = -(2n ** 63n);
const UINT64_MAX = 2n ** 64n - 1n;

/** Go `strconv.ParseInt(s, 0, 64)` then `ParseUint`: the integer or undefined. */
function parseGoInt(s: string): bigint | undefined {
  const m = /^([-+]?)(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/.exec(s);
  if (!m) return undefined;
  const body = m[2];
  let v: bigint;
  if (/^0[oO]/.test(body)) v = BigInt('0o' + body.slice(2));
  else if (/^0[0-7]+$/.test(body)) v = BigInt('0o' + body.slice(1));
  else v = BigInt(body);
  if (m[1] === '-') v = -v;
  if (v < INT64_MIN || v > UINT64_MAX || (m[1] === '-' && v < INT64_MIN)) return undefined;
  return v;
}

function intValue(v: bigint): Value {
  return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
}

/** yaml.v2 `resolve("", in)` for a plain scalar. */
function resolvePlain(s: string): Value {
  if (NULLS.has(s)) return None;
  if (Object.prototype.hasOwnProperty.call(BOOLS, s)) return BOOLS[s];
  if (Object.prototype.hasOwnProperty.call(FLOATS, s)) return new Float(FLOATS[s]);
  const c = s[0];
  if (c === '.') return GO_FLOAT.test(s) ? new Float(Number(s)) : fromHostString(s);
  if (c === '+' || c === '-' || (c >= '0' && c <= '9')) {
    const plain = s.replace(/_/g, '');
    const n = parseGoInt(plain);
    if (n !== undefined) return intValue(n);
    if (YAML_STYLE_FLOAT.test(plain)) return new Float(Number(plain));
    const bin = /^(-?)0b([01]+)$/.exec(plain);
    if (bin) return intValue((bin[1] ? -1n : 1n) * BigInt('0b' + bin[2]));
  }
  return fromHostString(s);
}

/** The tag yaml.v2 resolves a plain scalar's value to. */
function resolvedTag(v: Value): string {
  if (v === None) return '!!null';
  if (typeof v === 'boolean') return '!!bool';
  if (typeof v === 'number' || typeof v === 'bigint') return '!!int';
  return v instanceof Float ? '!!float' : '!!str';
}

/**
 * An explicit `!!null`/`!!bool`/`!!int`/`!!float` scalar (yaml.v2 v2.4.0 resolve.go `resolve`): the value
 * must resolve to that tag (an int is accepted as a float), else `cannot decode !!str \`x\` as a !!int`.
 */
function resolveTagged(tag: string, text: string): Value {
  const v = resolvePlain(text);
  const rtag = resolvedTag(v);
  if (rtag === tag) return v;
  if (tag === '!!float' && rtag === '!!int') return new Float(Number(v));
  return fail(`yaml: cannot decode ${rtag} \`${text}\` as a ${tag}`);
}

function scalarValue(n: YNode): Value {
  if (n.style !== '' && !n.tagged) return fromHostString(n.value);
  if (!n.tagged) return resolvePlain(n.value);
  switch (n.tag) {
    case '!!str':
      return fromHostString(n.value);
    case '!!binary':
      // yaml.v2 decodes the base64 text (line breaks and spaces ignored).
      return base64Decode(n.value.replace(/[\s]/g, ''), STANDARD_BASE64);
    case '!!null':
    case '!!bool':
    case '!!int':
    case '!!float':
      return resolveTagged(n.tag, n.value);
    default:
      return fromHostString(n.value);
  }
}

/** Go's `strconv.Quote` of a binary (UTF-8 byte) string, as a binary string. */
function goQuote(binary: string): string {
  const text = toHostString(binary);
  let out = '"';
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    const esc: Record<string, string> = {
      '"': '\\"',
      '\\': '\\\\',
      '\x07': '\\a',
      '\b': '\\b',
      '\f': '\\f',
      '\n': '\\n',
      '\r': '\\r',
      '\t': '\\t',
      '\v': '\\v',
    };
    if (esc[ch] !== undefined) out += esc[ch];
    else if (cp === 0xfffd) out += '\\ufffd';
    else if (/[\p{L}\p{M}\p{N}\p{P}\p{S} ]/u.test(ch)) out += ch;
    else if (cp < 0x80) out += '\\x' + cp.toString(16).padStart(2, '0');
    else if (cp < 0x10000) out += '\\u' + cp.toString(16).padStart(4, '0');
    else out += '\\U' + cp.toString(16).padStart(8, '0');
  }
  return fromHostString(out + '"');
}

/**
 * Go's `%#v` of what yaml.v2 decodes (`[]interface {}`, `map[interface {}]interface {}` with its
 * keys sorted as fmt sorts them, strings, ints, float64, bools, nil), for yaml.v2's
 * `invalid map key: %#v` (decode.go `d.mapping`).
 */
function goSharpV(v: Value): string {
  if (v === None) return 'interface {}(nil)';
  if (typeof v === 'boolean' || typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (typeof v === 'string') return goQuote(v);
  if (v instanceof Float) {
    if (Number.isNaN(v.value)) return 'NaN';
    if (!Number.isFinite(v.value)) return v.value > 0 ? '+Inf' : '-Inf';
    return formatG(v.value);
  }
  if (v instanceof List) return `[]interface {}{${v.elems.map((e) => goSharpV(e)).join(', ')}}`;
  if (v instanceof Dict) {
    const entries = v.entries();
    const sortable = entries.every(([k]) => typeof k === 'string') || entries.every(([k]) => typeof k === 'number');
    if (sortable) entries.sort(([a], [b]) => ((a as string | number) < (b as string | number) ? -1 : 1));
    return `map[interface {}]interface {}{${entries.map(([k, x]) => `${goSharpV(k)}:${goSharpV(x)}`).join(', ')}}`;
  }
  return String(v);
}

const isMap = (n: YNode): boolean => n.kind === 'mapping' || (n.kind === 'alias' && n.alias?.kind === 'mapping');

/**
 * The mappings a merge key's value writes into its mapping, in writing order (go-yaml/yaml
 * decode.go at v2.4.0, `decoder.merge`): a mapping or an alias of one, or a sequence of them
 * written last to first (earlier ones win). Each overwrites the keys written before it, and the
 * keys after it overwrite it. Anything else fails as yaml.v2 does.
 */
function mergeSources(v: YNode): YNode[] {
  if (v.kind === 'sequence' && v.content.every(isMap)) return [...v.content].reverse();
  if (isMap(v)) return [v];
  return fail('yaml: map merge requires map or sequence of maps as the value');
}

interface LoadBudget {
  aliases: number;
  maxAliases: number;
  maxDepth: number;
}

function toValue(n: YNode, depth: number, budget: LoadBudget): Value {
  if (depth > budget.maxDepth) fail(`yaml: exceeded max depth of ${budget.maxDepth}`);
  switch (n.kind) {
    case 'document':
      return n.content[0] ? toValue(n.content[0], depth, budget) : None;
    case 'alias':
      if (++budget.aliases > budget.maxAliases) fail('yaml: document contains excessive aliasing');
      return n.alias ? toValue(n.alias, depth + 1, budget) : None;
    case 'scalar':
      return scalarValue(n);
    case 'sequence':
      return new List(n.content.map((c) => toValue(c, depth + 1, budget)));
    case 'mapping': {
      const d = new Dict();
      const c = n.content;
      for (let i = 0; i + 1 < c.length; i += 2) {
        const k = c[i];
        if (k.kind === 'scalar' && k.style === '' && k.value === '<<') {
          for (const src of mergeSources(c[i + 1]))
            for (const [mk, mv] of (toValue(src, depth + 1, budget) as Dict).entries()) d.insert(mk, mv);
          continue;
        }
        const key = toValue(k, depth + 1, budget);
        if (key instanceof Dict || key instanceof List) fail(`yaml: invalid map key: ${goSharpV(key)}`);
        d.insert(key, toValue(c[i + 1], depth + 1, budget));
      }
      return d;
    }
  }
}

export interface YamlModuleLimits {
  maxAliases: number;
  maxDepth: number;
}

export function createYamlModule(limits: YamlModuleLimits): Module {
  const loads = new Builtin('loads', (thread, args, kwargs) => {
    const src = wantString('loads', 'source', unpack('loads', args, kwargs, ['source']).values[0]!);
    thread.alloc(4 * src.length);
    const text = toHostString(src);
    const first = firstDocument(text);
    const refused = refusedCharacterOffset(text);
    let doc: YNode | undefined;
    try {
      doc = parseYamlFile(first).docs[0];
    } catch (e) {
      if (!(e instanceof KrmfnError)) throw e;
      fail(refusedCharacterFirst(text, refused, e, 0) ? CONTROL_CHARACTERS : yamlV2ErrorText(e, text));
    }
    if (refusedCharacterFirst(text, refused, undefined, utf8Length(first))) fail(CONTROL_CHARACTERS);
    return doc ? toValue(doc, 0, { aliases: 0, ...limits }) : None;
  });
  const dumps = new Builtin('dumps', (thread, args, kwargs) => {
    const v = unpack('dumps', args, kwargs, ['source']).values[0]!;
    let root: YNode;
    try {
      root = starlarkToNode(v);
    } catch (e) {
      if (e instanceof OutputConversionError) fail(e.message);
      throw e;
    }
    if (root.kind === 'mapping' && root.content.length === 0) root = newNode('mapping', { style: 'flow' });
    if (root.kind === 'sequence' && root.content.length === 0) root = newNode('sequence', { style: 'flow' });
    const text = emitYamlDocument(documentNode(root), 'compact', { foldWidth: YAML_V2_BEST_WIDTH });
    thread.alloc(text.length);
    return fromHostString(text);
  });
  return new Module('yaml', { loads, dumps });
}
