/**
 * What a config scalar becomes when a catalog function of the oldest kyaml framework generation
 * decodes its functionConfig into `map[string]interface{}` with go-yaml v3 and rebuilds a node
 * from that map (`kyaml.FromMap`, which marshals it with go-yaml v3 again), as apply-setters
 * v0.1.0 and search-replace v0.1.0 do (functions/go/<fn>/main.go `getSetters` /
 * `getSearchReplaceParams` at those tags, kyaml fn/framework/framework.go at v0.10.10, which pins
 * gopkg.in/yaml.v3 9f266ea9e77c). The text is that of the rebuilt node (`RNode.GetDataMap`):
 * - quoted and `!!str` scalars keep their text;
 * - `true`/`True`/`TRUE` (and the false forms) become `true`/`false`; `yes`, `on`, `y` stay strings;
 * - integers in any form go-yaml v3 accepts (`0755`, `0x1F`, `0o17`, `0b101`, `1_000`, `+42`)
 *   become decimal; floats become Go's `FormatFloat(f, 'g', -1, 64)` (`1.50` → `1.5`, `1e3` →
 *   `1000`, `1000000.0` → `1e+06`); `.inf`, `-.Inf`, `.NaN` become `.inf`, `-.inf`, `.nan`;
 * - timestamps become RFC 3339 (`2001-12-14` → `2001-12-14T00:00:00Z`);
 * - nulls, mappings and sequences become the empty string (`GetValue` of a null or collection).
 * Checked against go-yaml v3 at 9f266ea9e77c built with Go 1.19 (test/builtins/yaml-v3-roundtrip.test.ts).
 */
import type { YNode } from '../../sdk/index.ts';
import {
  formatFloatG,
  INT64_MAX,
  INT64_MIN,
  NAN,
  NEG_INF,
  NULL,
  parseGoInt,
  plainScalarString,
  POS_INF,
  UINT64_MAX,
  YAML_STYLE_FLOAT,
} from './sigs-yaml-string.ts';

export function goMapRoundTrip(node: YNode): string {
  const n = node.kind === 'alias' ? node.alias : node;
  if (!n || n.kind !== 'scalar') return '';
  if (n.style !== '' || (n.tagged && n.tag === '!!str')) return n.value;
  if (n.tagged && n.tag === '!!null') return '';
  return plainRoundTrip(n.value);
}

/** A plain scalar's text after go-yaml v3's resolution and re-encoding. */
export function plainRoundTrip(text: string): string {
  return resolvePlain(text).text;
}

/** go-yaml v3's resolution of a plain scalar: its re-encoded text and whether it stayed a string. */
function resolvePlain(text: string): { text: string; isString: boolean } {
  const other = (t: string): { text: string; isString: boolean } => ({ text: t, isString: false });
  if (NULL.has(text)) return other('');
  if (text === 'true' || text === 'True' || text === 'TRUE') return other('true');
  if (text === 'false' || text === 'False' || text === 'FALSE') return other('false');
  if (NAN.has(text)) return other('.nan');
  if (POS_INF.has(text)) return other('.inf');
  if (NEG_INF.has(text)) return other('-.inf');
  if (/^[-+.0-9]/.test(text)) {
    const stamp = timestamp(text);
    if (stamp !== undefined) return other(stamp);
    const plain = text.replaceAll('_', '');
    const int = parseGoInt(plain);
    if (int !== undefined && int >= INT64_MIN && int <= INT64_MAX) return other(int.toString());
    if (int !== undefined && int >= 0n && int <= UINT64_MAX && !plain.startsWith('-')) return other(int.toString());
    // Go's ParseFloat fails on overflow (`1e400`): the scalar stays a string.
    if (YAML_STYLE_FLOAT.test(plain) && Number.isFinite(Number(plain))) return other(formatFloatG(Number(plain), 64));
  }
  return { text, isString: true };
}

/**
 * The Go string a `map[string]string` value gets in set-labels / set-annotations v0.1.3: the
 * framework's go-yaml v3 decode into a Go map, `kyaml.FromMap` (go-yaml v3 marshal, which quotes
 * strings such as `yes`), then sigs.k8s.io/yaml v1.2.0 (go-yaml v2) into the struct. A value v3
 * keeps as a string keeps its text (`yes` stays `yes`); any other is re-read by go-yaml v2
 * (`0755` → `493`, `3.14159265358979` → `3.1415927`, `2001-12-14` → `2001-12-14T00:00:00Z`).
 * Checked against go-yaml v3 496545a6307b, go-yaml v2 v2.3.0 and sigs.k8s.io/yaml v1.2.0 (the
 * versions set-labels v0.1.3's go.sum selects) built with Go 1.19 outside the repository.
 * Undefined for mappings and sequences.
 */
export function goMapThenSigsString(node: YNode): string | undefined {
  const n = node.kind === 'alias' ? node.alias : node;
  if (!n || n.kind !== 'scalar') return undefined;
  if (n.style !== '' || (n.tagged && n.tag === '!!str')) return n.value;
  if (n.tagged && n.tag === '!!null') return '';
  const r = resolvePlain(n.value);
  return r.isString ? r.text : plainScalarString(r.text);
}

const DATE = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[Tt](\d{1,2}):(\d{1,2}):(\d{1,2})(\.\d+)?(Z|[+-]\d{2}:\d{2})| (\d{1,2}):(\d{1,2}):(\d{1,2})(\.\d+)?)$/;

/** go-yaml v3 `parseTimestamp` then `time.Time.Format(time.RFC3339Nano)`; undefined when not a timestamp. */
function timestamp(text: string): string | undefined {
  const date = DATE.exec(text);
  const full = date ? undefined : DATE_TIME.exec(text);
  const m = date ?? full;
  if (!m) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1 || d > new Date(Date.UTC(y, mo, 0)).getUTCDate()) return undefined;
  const day = `${m[1]}-${pad(mo)}-${pad(d)}`;
  if (date) return `${day}T00:00:00Z`;
  const [h, mi, s, frac, zone] = full![4] !== undefined ? full!.slice(4, 9) : [...full!.slice(9, 13), 'Z'];
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  const nanos = frac ? frac.slice(1, 10).replace(/0+$/, '') : '';
  const offset = zone === 'Z' || /^[+-]00:00$/.test(zone) ? 'Z' : zone;
  return `${day}T${pad(Number(h))}:${pad(Number(mi))}:${pad(Number(s))}${nanos ? `.${nanos}` : ''}${offset}`;
}

const pad = (n: number): string => String(n).padStart(2, '0');
