/**
 * What a YAML scalar becomes in a Go `string` field or `map[string]string` value when a catalog
 * function reads its typed config with sigs.k8s.io/yaml v1.2.0 (`yaml.Unmarshal`, as the kustomize
 * plugin `Config` of set-annotations v0.1.3/v0.1.4 and set-labels v0.1.x does). That library
 * decodes the YAML with go-yaml v2 (YAML 1.1 resolution: `yes`/`on` are booleans, `0755` is octal,
 * `1_000` is an int) and, because the target is a string, writes the decoded scalar back as text
 * (sigs.k8s.io/yaml v1.2.0 yaml.go `convertToJSONableObject`): ints in decimal
 * (`strconv.FormatInt`), booleans `true`/`false`, floats `strconv.FormatFloat(f, 'g', -1, 32)`,
 * nulls the empty string. Quoted, block and `!!str`-tagged scalars, and anything go-yaml v2 leaves a
 * string (timestamps included), keep their text. Resolution follows gopkg.in/yaml.v2 resolve.go.
 */
import type { YNode } from '../../sdk/index.ts';

const TRUE = new Set(['y', 'Y', 'yes', 'Yes', 'YES', 'on', 'On', 'ON', 'true', 'True', 'TRUE']);
const FALSE = new Set(['n', 'N', 'no', 'No', 'NO', 'off', 'Off', 'OFF', 'false', 'False', 'FALSE']);
export const NULL = new Set(['', '~', 'null', 'Null', 'NULL']);
export const NAN = new Set(['.nan', '.NaN', '.NAN']);
export const POS_INF = new Set(['.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF']);
export const NEG_INF = new Set(['-.inf', '-.Inf', '-.INF']);
/** gopkg.in/yaml.v2 resolve.go `yamlStyleFloat`. */
export const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;
export const UINT64_MAX = 2n ** 64n - 1n;

/** The Go string a scalar node decodes to; undefined for mappings, sequences and aliases. */
export function sigsYamlString(node: YNode): string | undefined {
  if (node.kind !== 'scalar') return undefined;
  const text = node.value;
  if (node.style !== '' || (node.tagged && node.tag === '!!str')) return text;
  if (node.tagged && node.tag === '!!null') return '';
  return plainScalarString(text);
}

/** A plain scalar's text after go-yaml v2 resolution and Go's formatting into a string. */
export function plainScalarString(text: string): string {
  if (NULL.has(text)) return '';
  if (TRUE.has(text)) return 'true';
  if (FALSE.has(text)) return 'false';
  if (NAN.has(text)) return 'NaN';
  if (POS_INF.has(text)) return '+Inf';
  if (NEG_INF.has(text)) return '-Inf';
  const hint = text[0];
  if (!/[-+.0-9]/.test(hint)) return text;
  const plain = text.replaceAll('_', '');
  const int = parseGoInt(plain);
  if (int !== undefined && int >= INT64_MIN && int <= INT64_MAX) return int.toString();
  if (int !== undefined && int >= 0n && int <= UINT64_MAX && !/^[-+]/.test(plain)) return int.toString();
  if (YAML_STYLE_FLOAT.test(plain)) {
    const f = Number(plain);
    if (Number.isFinite(f)) return formatFloat32(f);
    return text;
  }
  for (const [prefix, sign] of [
    ['0b', 1n],
    ['-0b', -1n],
  ] as const) {
    if (plain.startsWith(prefix) && /^[01]+$/.test(plain.slice(prefix.length))) {
      const v = sign * BigInt(`0b${plain.slice(prefix.length)}`);
      if (v >= INT64_MIN && v <= INT64_MAX) return v.toString();
    }
  }
  return text;
}

/** Go `strconv.ParseInt(s, 0, 64)`'s digits (sign, 0x/0o/0b/0 prefixes), unbounded; undefined when malformed. */
export function parseGoInt(s: string): bigint | undefined {
  const m = /^([-+]?)(.*)$/.exec(s)!;
  const sign = m[1] === '-' ? -1n : 1n;
  const body = m[2];
  const [radix, digits, valid] = /^0[xX]/.test(body)
    ? (['0x', body.slice(2), /^[0-9a-fA-F]+$/] as const)
    : /^0[oO]/.test(body)
      ? (['0o', body.slice(2), /^[0-7]+$/] as const)
      : /^0[bB]/.test(body)
        ? (['0b', body.slice(2), /^[01]+$/] as const)
        : body.length > 1 && body.startsWith('0')
          ? (['0o', body.slice(1), /^[0-7]+$/] as const)
          : (['', body, /^[0-9]+$/] as const);
  if (!valid.test(digits)) return undefined;
  return sign * BigInt(`${radix}${digits}`);
}

/** Go `strconv.FormatFloat(f, 'g', -1, 32)`: the shortest text that reads back as the same float32. */
export function formatFloat32(f: number): string {
  return formatFloatG(f, 32);
}

/** Go `strconv.FormatFloat(f, 'g', -1, bits)` for a finite `f`: the shortest text that reads back as the same float. */
export function formatFloatG(f: number, bits: 32 | 64): string {
  const round = bits === 32 ? Math.fround : (v: number): number => v;
  const x = round(f);
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  let mantissa = '';
  let exp = 0;
  for (let p = 1; p <= (bits === 32 ? 9 : 17); p++) {
    const s = Math.abs(x).toExponential(p - 1);
    if (round(Number(s)) === Math.abs(x)) {
      const [m, e] = s.split('e');
      mantissa = m.replace('.', '').replace(/0+$/, '') || '0';
      exp = Number(e);
      break;
    }
  }
  const sign = x < 0 ? '-' : '';
  // Go's 'g' with the shortest digits: %e when the exponent is below -4 or at least 6.
  if (exp < -4 || exp >= 6) return `${sign}${expForm(mantissa, exp)}`;
  if (exp >= 0) {
    const whole = mantissa.slice(0, exp + 1).padEnd(exp + 1, '0');
    const frac = mantissa.slice(exp + 1);
    return `${sign}${whole}${frac ? `.${frac}` : ''}`;
  }
  return `${sign}0.${'0'.repeat(-exp - 1)}${mantissa}`;
}

function expForm(mantissa: string, exp: number): string {
  const head = mantissa[0] + (mantissa.length > 1 ? `.${mantissa.slice(1)}` : '');
  return `${head}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
}

/**
 * A `map[string]string` config field (labels, annotations) read as sigs.k8s.io/yaml v1.2.0 reads
 * it: keys and scalar values by `read` (`sigsYamlString`; set-labels / set-annotations v0.1.3 pass
 * the Go-map route of builtins/lib/yaml-v3-roundtrip.ts), in document order. A nested mapping or
 * list value is left to `other` (upstream fails to decode it into a string).
 */
export function sigsYamlStringMap(
  node: YNode | undefined,
  other: (value: YNode) => string,
  read: (scalar: YNode) => string | undefined = sigsYamlString,
): Map<string, string> {
  const out = new Map<string, string>();
  if (!node || node.kind !== 'mapping') return out;
  for (let i = 0; i + 1 < node.content.length; i += 2) {
    const key = node.content[i];
    const value = node.content[i + 1].kind === 'alias' ? node.content[i + 1].alias : node.content[i + 1];
    if (!value) continue;
    out.set(read(key) ?? key.value, read(value) ?? other(value));
  }
  return out;
}
