/**
 * YAML reader and writer (src/core/yaml). Three properties:
 * - data → our emitter → text: our reader and the `yaml` package both read the same data back, and
 *   emitting what was read gives the same text again (emit is idempotent);
 * - arbitrary YAML-ish text: the reader either reads it or fails with a krmfn error (`yaml-*`), and
 *   what it read survives emit → read unchanged;
 * - with a go-yaml oracle (goyaml-oracle.ts, KRMFN_GOYAML_ORACLE), a text holding one mapping
 *   document is written byte for byte as go-yaml v3 writes it (comments included).
 */
import fc from 'fast-check';
import { parse as yamlParse } from 'yaml';
import { isDeepStrictEqual } from 'node:util';
import { emitYamlFile, parseYamlFile } from '../../../src/core/yaml/index.ts';
import { fromJS, toJS } from '../../../src/core/yaml/convert.ts';
import { documentNode, type YNode } from '../../../src/core/yaml/node.ts';
import { onlyCleanErrors, target, utf8 } from '../harness.ts';
import { goYamlRoundTrip } from '../goyaml-oracle.ts';
import { normalizeNewlines, splitPieces } from '../../../src/core/yaml/read.ts';

const tricky = fc.constantFrom(
  '',
  'yes',
  'no',
  'on',
  'off',
  'true',
  'null',
  '~',
  'NULL',
  '0x1F',
  '0o17',
  '017',
  '1e3',
  '1_000',
  '+1',
  '-0',
  '.inf',
  '.nan',
  '-',
  ':',
  '- a',
  'a: b',
  'a:b',
  '#c',
  'a #c',
  ' lead',
  'trail ',
  'multi\nline',
  'end\n',
  '\n',
  'tab\there',
  '"q"',
  "'s'",
  '@at',
  '`bt',
  '*star',
  '&amp',
  '!tag',
  '%pct',
  '{a}',
  '[x]',
  '?',
  '? k',
  '=',
  '|',
  '>',
  '---',
  '...',
  'ü',
  '😀',
  '\u00a0',
  'a\u2028b',
  '\\',
  'C:\\dir',
  '2001-01-01',
  '12:30',
);
const str = fc.oneof(tricky, fc.string({ maxLength: 12 }), fc.string({ unit: 'grapheme', maxLength: 8 }));
const scalar = fc.oneof(str, fc.integer({ min: -1e9, max: 1e9 }), fc.boolean(), fc.constant(null));

const data = fc.letrec<{ value: unknown; object: Record<string, unknown> }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    tie('object'),
    fc.array(tie('value'), { maxLength: 4 }),
  ),
  object: fc.dictionary(str, tie('value'), { maxKeys: 5, noNullPrototype: true }),
})).object;

const TOKENS = [
  'a',
  'b',
  'k',
  ': ',
  ':',
  ' ',
  '  ',
  '\n',
  '- ',
  '-',
  '[',
  ']',
  '{',
  '}',
  ', ',
  '#',
  '"',
  "'",
  '&x ',
  '*x',
  '!t ',
  '!!str ',
  '| ',
  '>- ',
  '---\n',
  '...\n',
  '\t',
  '? ',
  'k: v\n',
  '0',
  '1.5',
  'null',
  '~',
  '\\',
  '%YAML 1.1\n',
  '<<: ',
  '- - ',
  '-  # c\n',
  '? # q\n',
  '  # f\n',
  ' #e',
  'k:\n',
  '\n  ',
  '\n    ',
];
const text = fc.array(fc.constantFrom(...TOKENS), { maxLength: 40 }).map((t) => t.join(''));

type Input = { kind: 'data'; data: Record<string, unknown> } | { kind: 'text'; text: string };

function emit(docs: ReturnType<typeof parseYamlFile>): string {
  return emitYamlFile(docs.docs, docs.seqIndent);
}

/**
 * A string such as `1e310`: go-yaml reads it plain as a string (resolve.go at v3.0.1: a float
 * that strconv.ParseFloat refuses is not a float), so we write it plain as go-yaml does; the
 * `yaml` package reads it as Infinity, so that comparison does not apply.
 */
function holdsOutOfRangeFloatText(v: unknown): boolean {
  if (typeof v === 'string')
    return /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/.test(v) && !Number.isFinite(Number(v));
  if (Array.isArray(v)) return v.some(holdsOutOfRangeFloatText);
  if (v && typeof v === 'object')
    return Object.entries(v).some(([k, x]) => holdsOutOfRangeFloatText(k) || holdsOutOfRangeFloatText(x));
  return false;
}

function checkData(d: Record<string, unknown>): void {
  const first = emitYamlFile([documentNode(fromJS(d))], 'compact');
  const ours = parseYamlFile(first);
  const back = toJS(ours.docs[0]);
  if (!isDeepStrictEqual(back, d)) throw new Error(`read back differs:\n${first}\n${JSON.stringify(back)}`);
  const theirs: unknown = yamlParse(first);
  if (!isDeepStrictEqual(theirs, d) && !holdsOutOfRangeFloatText(d))
    throw new Error(`the yaml package reads other data:\n${first}\n${JSON.stringify(theirs)}`);
  // Same style as the first emit: kyaml's sequence-indent detection (read.ts detectSeqIndent, as
  // kyaml's DeriveSeqIndentStyle) may misread a key holding " #" and is not what is tested here.
  const second = emitYamlFile(ours.docs, 'compact');
  if (second !== first) throw new Error(`emit is not idempotent:\n${first}\n---- vs ----\n${second}`);
}

/**
 * An empty null inside a flow collection (`{a}`, `{a: }`): go-yaml writes it `''` (emitterc.go at
 * v3.0.1, yaml_emitter_select_scalar_style: no empty plain scalar in flow context), so kpt itself
 * turns that null into an empty string; we write the same bytes (checked with go-yaml v3.0.1).
 */
function hasEmptyFlowNull(n: YNode, inFlow: boolean): boolean {
  if (n.kind === 'scalar') return inFlow && n.tag === '!!null' && n.value === '' && !n.tagged;
  const flow = inFlow || n.style === 'flow';
  return n.content.some((c) => hasEmptyFlowNull(c, flow));
}

function checkText(t: string): void {
  const parsed = onlyCleanErrors(() => parseYamlFile(t));
  if (!parsed) return;
  const data = parsed.docs.some((d) => hasEmptyFlowNull(d, false))
    ? null
    : onlyCleanErrors(() => parsed.docs.map((d) => toJS(d)));
  const out = emit(parsed);
  const again = onlyCleanErrors(() => parseYamlFile(out));
  if (!again) throw new Error(`emitted text does not read back:\n${JSON.stringify(t)}\n→\n${out}`);
  const second = emitYamlFile(again.docs, parsed.seqIndent);
  if (
    data &&
    !isDeepStrictEqual(
      again.docs.map((d) => toJS(d)),
      data,
    ) &&
    !goYamlMovesItToo(parsed, out, second)
  )
    throw new Error(`text round trip changed the data:\n${JSON.stringify(t)}\n→\n${out}`);
  if (second !== out && !goYamlMovesItToo(parsed, out, second))
    throw new Error(`emit is not idempotent for ${JSON.stringify(t)}`);
  checkAgainstGoYaml(t, parsed, out);
}

/**
 * Whether a second read or emit that differs is go-yaml's own round trip. With the oracle (one
 * mapping document), go-yaml must write `out` again as our `second`: checkAgainstGoYaml then proves
 * `out` is its bytes too. Without it, the six places found that way (checked with go-yaml v3; our
 * bytes equal its): an explicit key's first head comment written `? # c` (or `? ? # c`) reads back as a line
 * comment; a foot written right below the first line (after a value that did not end the line's
 * scan) or right below a line ending in an empty value's `:` (and its line comment) has no foot line when read again (go-yaml's
 * foot line excludes a prior ':' token), so it becomes the document foot; a line comment written
 * after an empty value's anchor or tag (`k: !!str #c`) reads back as one waiting for a scalar; a
 * folded scalar with a more-indented line is written with one line break too many (its data
 * changes on the way back, in go-yaml as here); and an empty (null) key is written `''`
 * (`&x : *x` → `&x '': *x`, `? ? # q` → `? '':`), which reads back as the string ''.
 */
function goYamlMovesItToo(parsed: ReturnType<typeof parseYamlFile>, out: string, second: string): boolean {
  if (parsed.docs.length === 1 && parsed.docs[0].content[0]?.kind === 'mapping') {
    const theirs = goYamlRoundTrip(out, parsed.seqIndent[0] === 'wide');
    if (theirs !== undefined) return theirs === second;
  }
  return (
    /^[ ?]*\? #/m.test(out) ||
    /^[^\n]*\n *#/.test(out) ||
    /:( #[^\n]*)?\n *#/.test(out) ||
    /[&!][^\s#]* #[^\n]*$/m.test(out) ||
    /(^|[:-] )>[-+0-9]*( #[^\n]*)?$/m.test(out) ||
    /(^|[?-] |&\S+ )'':/m.test(out)
  );
}

/**
 * One mapping document (what kpt reads from a package file; kpt treats other roots its own way):
 * our bytes must be go-yaml's. Inputs go-yaml refuses are out of this comparison.
 */
function checkAgainstGoYaml(t: string, parsed: ReturnType<typeof parseYamlFile>, out: string): void {
  if (parsed.docs.length !== 1 || parsed.docs[0].content[0]?.kind !== 'mapping') return;
  const pieces = splitPieces(normalizeNewlines(t));
  if (pieces.length !== 1) return;
  const text = pieces[0].text;
  const theirs = goYamlRoundTrip(text, parsed.seqIndent[0] === 'wide');
  if (theirs === undefined || theirs.startsWith('ERR: ')) return;
  if (theirs !== out)
    throw new Error(
      `go-yaml writes other bytes:\n${JSON.stringify(text)}\nours ${JSON.stringify(out)}\ngo-yaml ${JSON.stringify(theirs)}`,
    );
}

export const yamlTarget = target<Input>({
  name: 'yaml',
  arbitrary: fc.oneof(
    data.map((d) => ({ kind: 'data' as const, data: d })),
    text.map((t) => ({ kind: 'text' as const, text: t })),
  ),
  check: (i) => (i.kind === 'data' ? checkData(i.data) : checkText(i.text)),
  fromCorpus: (b) => ({ kind: 'text', text: utf8(b) }),
});
