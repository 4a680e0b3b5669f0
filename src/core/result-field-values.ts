/**
 * How a kpt release records a structured result's `field.currentValue` / `field.proposedValue`
 * (and the legacy `field.suggestedValue`) in results.yaml and in the Kptfile's renderStatus: the
 * `resultFieldValues` data of a compatibility level (src/engine/kpt-level.ts).
 *
 * - 'as-given': the value as the function gave it (the SDK's own ResourceLists).
 * - 'go-values' (kpt v1.0.0-beta.56): kyaml's `framework.Field` holds `interface{}` values, so the
 *   value is decoded to Go values and marshalled again: map keys in go-yaml's order (sorter.go
 *   `keyList.Less`, go-yaml/yaml at v3.0.1), integers in decimal, floats as `strconv.FormatFloat(f,
 *   'g', -1, 64)`, strings as Go strings (YAML 1.1 booleans double-quoted), a top-level null
 *   omitted; a legacy `suggestedValue` is an `*RNode` marshalled as its only exported field,
 *   `match: []` (kptdev/kpt internal/fnruntime/runner.go `populateProposedValue` at
 *   v1.0.0-beta.56). Checked with the real kpt beta.56 (test/e2e/cases/result-field-values).
 * - 'strings' (kpt v1.0.0-beta.67): kpt's own `fnresult.Field` holds strings (kptdev/kpt
 *   api/fnresult/v1/types.go at v1.0.0-beta.67, `unmarshalRNode`, #4549): a scalar gives its text as
 *   written (`0x10`, `1.50`, `null`), anything else its YAML (kyaml `RNode.String()`: indent 2,
 *   compact sequences, comments kept), both trimmed; an empty string is omitted; a legacy
 *   `suggestedValue` always gives its YAML (pkg/fn/runtime/runner.go `populateProposedValue`).
 *   The string is then marshalled as a Go string.
 *
 * The source nodes of a parsed result are remembered beside it (`rememberFieldSource`), so results
 * stay plain data; a result built in code (a built-in function's) has none and its JS values are
 * used instead.
 */
import type { FieldRef } from './result.ts';
import { goStringNode } from './kptfile-canonical.ts';
import { toJS } from './yaml/convert.ts';
import { documentNode, mappingNode, newNode, sequenceNode, strNode, type YNode } from './yaml/node.ts';
import { emitYamlDocument, resolvePlainTag } from './yaml/index.ts';

export type FieldValueStyle = 'as-given' | 'go-values' | 'strings';

interface FieldSource {
  current?: YNode;
  proposed?: YNode;
  /** `proposed` came from the legacy `suggestedValue` key. */
  suggested?: boolean;
}

const sources = new WeakMap<FieldRef, FieldSource>();

export function rememberFieldSource(field: FieldRef, source: FieldSource): void {
  sources.set(field, source);
}

function deref(n: YNode): YNode {
  let x = n;
  while (x.kind === 'alias' && x.alias) x = x.alias;
  return x;
}

const DIGIT = /\p{Nd}/u;
const LETTER = /\p{L}/u;

/** go-yaml's `keyList.Less` for string keys (digit runs compared as numbers). */
export function goKeyLess(a: string, b: string): boolean {
  const ar = [...a];
  const br = [...b];
  let digits = false;
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) {
      digits = DIGIT.test(ar[i]);
      continue;
    }
    const al = LETTER.test(ar[i]);
    const bl = LETTER.test(br[i]);
    if (al && bl) return ar[i] < br[i];
    if (al || bl) return digits ? al : bl;
    let an = 0n;
    let bn = 0n;
    if (ar[i] === '0' || br[i] === '0') {
      for (let j = i - 1; j >= 0 && DIGIT.test(ar[j]); j--) {
        if (ar[j] !== '0') {
          an = 1n;
          bn = 1n;
          break;
        }
      }
    }
    let ai = i;
    let bi = i;
    for (; ai < ar.length && /[0-9]/.test(ar[ai]); ai++) an = an * 10n + BigInt(ar[ai].charCodeAt(0) - 48);
    for (; bi < br.length && /[0-9]/.test(br[bi]); bi++) bn = bn * 10n + BigInt(br[bi].charCodeAt(0) - 48);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ar[i] < br[i];
  }
  return ar.length < br.length;
}

/** Go's `strconv.FormatFloat(f, 'g', -1, 64)` as go-yaml writes floats. */
export function goFloatText(f: number): string {
  if (Number.isNaN(f)) return '.nan';
  if (!Number.isFinite(f)) return f > 0 ? '.inf' : '-.inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const [mant, expText] = f.toExponential().split('e');
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) {
    const e = Math.abs(exp);
    return `${mant}e${exp < 0 ? '-' : '+'}${e < 10 ? '0' : ''}${e}`;
  }
  return String(f);
}

function scalar(tag: string, value: string): YNode {
  return newNode('scalar', { tag, value });
}

/** A Go float as go-yaml writes it: plain, untagged (`2`, not `!!float 2`). */
function floatNode(f: number): YNode {
  const text = goFloatText(f);
  return scalar(resolvePlainTag(text), text);
}

/** A JS value (decoded YAML) as go-yaml marshals the Go value it decodes to. */
function goValueFromJS(v: unknown): YNode {
  if (v === null || v === undefined) return scalar('!!null', 'null');
  if (typeof v === 'boolean') return scalar('!!bool', String(v));
  if (typeof v === 'number') return Number.isInteger(v) ? scalar('!!int', String(v)) : floatNode(v);
  if (typeof v === 'bigint') return scalar('!!int', v.toString());
  if (typeof v === 'string') return goStringNode(v);
  if (Array.isArray(v)) return sequenceNode(v.map(goValueFromJS));
  const entries = Object.entries(v as Record<string, unknown>).sort(([a], [b]) =>
    goKeyLess(a, b) ? -1 : goKeyLess(b, a) ? 1 : 0,
  );
  return mappingNode(entries.flatMap(([k, x]) => [goStringNode(k), goValueFromJS(x)]));
}

/** A parsed node as go-yaml marshals the Go value it decodes to (floats keep their float form). */
function goValueFromNode(node: YNode): YNode {
  const n = deref(node);
  if (n.kind === 'scalar' && n.tag === '!!float') {
    const v = toJS(documentNode(n));
    return typeof v === 'number' ? floatNode(v) : goValueFromJS(v);
  }
  if (n.kind === 'sequence') return sequenceNode(n.content.map(goValueFromNode));
  if (n.kind === 'mapping') {
    const pairs: [string, YNode][] = [];
    for (let i = 0; i + 1 < n.content.length; i += 2) pairs.push([deref(n.content[i]).value, n.content[i + 1]]);
    pairs.sort(([a], [b]) => (goKeyLess(a, b) ? -1 : goKeyLess(b, a) ? 1 : 0));
    return mappingNode(pairs.flatMap(([k, x]) => [goStringNode(k), goValueFromNode(x)]));
  }
  return goValueFromJS(toJS(documentNode(n)));
}

/** kyaml's `RNode.String()` of a node, trimmed. */
function yamlText(node: YNode): string {
  return emitYamlDocument(documentNode(node), 'compact').trim();
}

/** The beta.67 string of a value built in code (no source node). */
function stringFromJS(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v !== 'object') return String(v).trim();
  return yamlText(asGivenNode(v));
}

/** The value as the function gave it (insertion order, JS types). */
export function asGivenNode(v: unknown): YNode {
  if (v === null || v === undefined) return strNode('');
  if (typeof v === 'object') {
    if (Array.isArray(v)) return sequenceNode(v.map(asGivenNode));
    const c: YNode[] = [];
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) c.push(strNode(k), asGivenNode(x));
    return mappingNode(c);
  }
  if (typeof v === 'string') return strNode(v);
  return {
    ...strNode(String(v)),
    tag: typeof v === 'boolean' ? '!!bool' : Number.isInteger(v) ? '!!int' : '!!float',
  };
}

const LEGACY_RNODE = (): YNode => mappingNode([strNode('match'), sequenceNode([], 'flow')]);

/**
 * The node written for `field.currentValue` (`which` 'current') or `field.proposedValue`, or
 * undefined when the release omits it.
 */
export function fieldValueNode(
  field: FieldRef,
  which: 'current' | 'proposed',
  style: FieldValueStyle,
): YNode | undefined {
  const value = which === 'current' ? field.currentValue : field.proposedValue;
  if (value === undefined) return undefined;
  if (style === 'as-given') return asGivenNode(value);
  const src = sources.get(field);
  const node = which === 'current' ? src?.current : src?.proposed;
  const legacy = which === 'proposed' && src?.suggested === true;
  if (style === 'go-values') {
    if (legacy) return LEGACY_RNODE();
    if (value === null) return undefined;
    return node ? goValueFromNode(node) : goValueFromJS(value);
  }
  let text: string;
  if (node) {
    const n = deref(node);
    text = n.kind === 'scalar' && !legacy ? n.value.trim() : yamlText(n);
  } else text = stringFromJS(value);
  return text === '' ? undefined : goStringNode(text);
}
