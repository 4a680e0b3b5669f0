/**
 * The JSON writer kpt uses for a `.json` file holding one resource (docs/yaml-output.md, "Writing a file"): the
 * document decoded as go-yaml decodes into Go values, then Go's encoding/json with a two-space
 * indent, map keys sorted byte-wise, HTML-safe escapes and a final newline.
 */
import { KrmfnError } from '../errors.ts';
import type { YNode } from './node.ts';

const INDENT = '  ';

/** Go encoding/json MarshalIndent-style output for a `.json` file holding one resource: 2-space indent, keys sorted, trailing newline as kpt writes. */
export function emitJsonFile(doc: YNode): string {
  const root = doc.kind === 'document' ? doc.content[0] : doc;
  const parts: string[] = [];
  if (!root) parts.push('null');
  else writeValue(root, '', parts, 0);
  parts.push('\n');
  return parts.join('');
}

const MAX_DEPTH = 10_000;

function writeValue(n: YNode, indent: string, out: string[], depth: number): void {
  if (depth > MAX_DEPTH) throw new KrmfnError({ code: 'yaml-depth-limit', message: 'JSON nesting too deep' });
  switch (n.kind) {
    case 'alias':
      if (!n.alias) throw new KrmfnError({ code: 'yaml-syntax', message: `unknown anchor '${n.value}' referenced` });
      writeValue(n.alias, indent, out, depth + 1);
      return;
    case 'mapping': {
      const pairs = new Map<string, YNode>();
      collectPairs(n, pairs, depth);
      if (pairs.size === 0) {
        out.push('{}');
        return;
      }
      const keys = [...pairs.keys()].sort(compareBytes);
      const inner = indent + INDENT;
      out.push('{');
      keys.forEach((k, i) => {
        out.push(i ? ',\n' : '\n', inner, quote(k), ': ');
        writeValue(pairs.get(k)!, inner, out, depth + 1);
      });
      out.push('\n', indent, '}');
      return;
    }
    case 'sequence': {
      if (n.content.length === 0) {
        out.push('[]');
        return;
      }
      const inner = indent + INDENT;
      out.push('[');
      n.content.forEach((item, i) => {
        out.push(i ? ',\n' : '\n', inner);
        writeValue(item, inner, out, depth + 1);
      });
      out.push('\n', indent, ']');
      return;
    }
    case 'scalar':
      out.push(scalarJson(n));
      return;
    case 'document':
      if (n.content[0]) writeValue(n.content[0], indent, out, depth + 1);
      else out.push('null');
  }
}

/** Mapping pairs as go-yaml decodes them: later keys win, `<<` merges fill keys not set directly. */
function collectPairs(n: YNode, into: Map<string, YNode>, depth: number): void {
  const c = n.content;
  const merges: YNode[] = [];
  for (let i = 0; i + 1 < c.length; i += 2) {
    const k = c[i];
    if (k.kind === 'scalar' && k.tag === '!!merge') merges.push(c[i + 1]);
    else into.set(keyString(k), c[i + 1]);
  }
  for (const m of merges) {
    const target = m.kind === 'alias' && m.alias ? m.alias : m;
    const sources = target.kind === 'sequence' ? target.content : [target];
    for (const s of sources) {
      const src = s.kind === 'alias' && s.alias ? s.alias : s;
      if (src.kind !== 'mapping') continue;
      const inner = new Map<string, YNode>();
      collectPairs(src, inner, depth + 1);
      for (const [k, v] of inner) if (!into.has(k)) into.set(k, v);
    }
  }
}

function keyString(k: YNode): string {
  const n = k.kind === 'alias' && k.alias ? k.alias : k;
  if (n.kind === 'scalar') {
    if (n.tag === '!!null') return 'null';
    return n.value;
  }
  throw new KrmfnError({ code: 'field-type', message: 'json: unsupported type: map[interface {}]interface {}' });
}

function compareBytes(a: string, b: string): number {
  // UTF-16 order equals UTF-8 byte order except around surrogates; resource keys are ASCII.
  return a < b ? -1 : a > b ? 1 : 0;
}

function scalarJson(n: YNode): string {
  const v = n.value;
  switch (n.tag) {
    case '!!null':
      return 'null';
    case '!!bool':
      return /^(true|True|TRUE)$/.test(v) ? 'true' : 'false';
    case '!!int': {
      const big = goInt(v);
      return big === null ? quote(v) : big.toString();
    }
    case '!!float':
      return goFloat(v);
    default:
      return quote(v);
  }
}

function goInt(text: string): bigint | null {
  let s = text.replace(/_/g, '');
  let neg = false;
  if (s[0] === '+' || s[0] === '-') {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  let b: bigint;
  try {
    if (/^0[0-7]+$/.test(s)) b = BigInt(`0o${s.slice(1)}`);
    else b = BigInt(s.replace(/^0O/, '0o').replace(/^0X/, '0x').replace(/^0B/, '0b'));
  } catch {
    return null;
  }
  return neg ? -b : b;
}

function goFloat(text: string): string {
  const f = Number(text.replace(/_/g, '').replace(/^\+/, ''));
  if (!Number.isFinite(f)) throw new KrmfnError({ code: 'field-type', message: `json: unsupported value: ${text}` });
  if (Object.is(f, -0)) return '-0';
  // JavaScript's shortest form switches to exponents at the same thresholds as encoding/json.
  return String(f);
}

const ESCAPE = /[\u0000-\u001f"\\<>&\u2028\u2029\ud800-\udfff]/;

/** encoding/json string quoting with HTML escaping. */
function quote(s: string): string {
  if (!ESCAPE.test(s)) return `"${s}"`;
  const out: string[] = ['"'];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) out.push('\\"');
    else if (c === 0x5c) out.push('\\\\');
    else if (c === 0x0a) out.push('\\n');
    else if (c === 0x0d) out.push('\\r');
    else if (c === 0x09) out.push('\\t');
    else if (c < 0x20 || c === 0x3c || c === 0x3e || c === 0x26 || c === 0x2028 || c === 0x2029) {
      out.push(`\\u${c.toString(16).padStart(4, '0')}`);
    } else if (
      c >= 0xd800 &&
      c <= 0xdbff &&
      i + 1 < s.length &&
      s.charCodeAt(i + 1) >= 0xdc00 &&
      s.charCodeAt(i + 1) <= 0xdfff
    ) {
      out.push(s.slice(i, i + 2));
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) out.push('\ufffd');
    else out.push(s[i]);
  }
  out.push('"');
  return out.join('');
}
