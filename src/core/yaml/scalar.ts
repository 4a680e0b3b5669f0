/**
 * Scalar presentation as go-yaml v3 writes it (docs/yaml-output.md, "Scalars"): which styles a value
 * allows, the style finally used, and the quoted and block writers.
 */
import { blockScalarValue } from './scan.ts';

export interface ScalarAnalysis {
  empty: boolean;
  multiline: boolean;
  blockPlain: boolean;
  flowPlain: boolean;
  single: boolean;
  block: boolean;
}

const FLOW_INDICATORS = ',?[]{}';

function isBreak(c: number): boolean {
  return c === 0x0a || c === 0x0d || c === 0x85 || c === 0x2028 || c === 0x2029;
}

/** The value holds a line break (`\n`, `\r`, NEL, LS or PS). */
export function hasLineBreak(value: string): boolean {
  for (let i = 0; i < value.length; i++) if (isBreak(value.charCodeAt(i))) return true;
  return false;
}

/** go-yaml's printable set, by UTF-16 unit: astral characters (surrogates) are not printable. */
export function isPrintable(c: number): boolean {
  return (
    c === 0x0a ||
    (c >= 0x20 && c <= 0x7e) ||
    c === 0x85 ||
    (c >= 0xa0 && c <= 0xd7ff) ||
    (c >= 0xe000 && c <= 0xfffd && c !== 0xfeff)
  );
}

/**
 * ASCII characters of a simple plain scalar: 1 anywhere (letters, digits, `_/.=+()$^~`), 2 only
 * after the first (space, `-`), 0 never.
 */
const SIMPLE_ASCII = (() => {
  const t = new Uint8Array(128);
  for (const ch of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_/.=+()$^~') t[ch.charCodeAt(0)] = 1;
  t[0x20] = t[0x2d] = 2;
  return t;
})();

/**
 * Letters, digits and harmless punctuation, plus non-ASCII printable characters outside the line
 * and paragraph separators and the BOM; space and `-` not first. A loop over a table: a regular
 * expression costs more on the short keys and values that make up most of a package.
 */
function isSimplePlain(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x80) {
      const k = SIMPLE_ASCII[c];
      if (k === 0 || (k === 2 && i === 0)) return false;
    } else if (!(
      (c >= 0xa0 && c <= 0x2027) ||
      (c >= 0x202a && c <= 0xd7ff) ||
      (c >= 0xe000 && c <= 0xfefe) ||
      (c >= 0xff00 && c <= 0xfffd)
    )) {
      return false;
    }
  }
  return true;
}

/** The answers for the two commonest values, shared: an analysis is read, never changed. */
const EMPTY: Readonly<ScalarAnalysis> = Object.freeze({
  empty: true,
  multiline: false,
  blockPlain: true,
  flowPlain: false,
  single: true,
  block: false,
});
const SIMPLE: Readonly<ScalarAnalysis> = Object.freeze({
  empty: false,
  multiline: false,
  blockPlain: true,
  flowPlain: true,
  single: true,
  block: true,
});

/** The permission table of §4.2 for a value. */
export function analyzeScalar(value: string, tabsInBlocks = false): Readonly<ScalarAnalysis> {
  if (value === '') return EMPTY;
  // Fast path: letters, digits and harmless punctuation, no trailing space.
  if (
    isSimplePlain(value) &&
    value.charCodeAt(value.length - 1) !== 0x20 &&
    !value.startsWith('---') &&
    !value.startsWith('...')
  ) {
    return SIMPLE;
  }
  let blockIndicators = false;
  let flowIndicators = false;
  let lineBreaks = false;
  let special = false;
  let tab = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let prevSpace = false;
  let prevBreak = false;

  if (value.startsWith('---') || value.startsWith('...')) {
    blockIndicators = true;
    flowIndicators = true;
  }
  let precededByWhitespace = true;
  const n = value.length;
  for (let i = 0; i < n; i++) {
    const c = value.charCodeAt(i);
    const next = i + 1 < n ? value.charCodeAt(i + 1) : -1;
    const followedByWhitespace = next === -1 || next === 0x20 || next === 0x09 || isBreak(next);
    if (i === 0) {
      switch (c) {
        case 0x23:
        case 0x2c:
        case 0x5b:
        case 0x5d:
        case 0x7b:
        case 0x7d:
        case 0x26:
        case 0x2a:
        case 0x21:
        case 0x7c:
        case 0x3e:
        case 0x27:
        case 0x22:
        case 0x25:
        case 0x40:
        case 0x60:
          flowIndicators = true;
          blockIndicators = true;
          break;
        case 0x3f:
        case 0x3a:
          flowIndicators = true;
          if (followedByWhitespace) blockIndicators = true;
          break;
        case 0x2d:
          if (followedByWhitespace) {
            flowIndicators = true;
            blockIndicators = true;
          }
          break;
      }
    } else {
      if (FLOW_INDICATORS.includes(value[i])) flowIndicators = true;
      if (c === 0x3a) {
        flowIndicators = true;
        if (followedByWhitespace) blockIndicators = true;
      }
      if (c === 0x23 && precededByWhitespace) {
        flowIndicators = true;
        blockIndicators = true;
      }
    }
    if (c === 0x09) tab = true;
    if ((!isPrintable(c) && !(tabsInBlocks && c === 0x09)) || c === 0xfeff) special = true;
    if (isBreak(c)) lineBreaks = true;
    if (c === 0x20) {
      if (i === 0) leadingSpace = true;
      if (i === n - 1) trailingSpace = true;
      if (prevBreak) breakSpace = true;
      prevSpace = true;
      prevBreak = false;
    } else if (isBreak(c)) {
      if (i === 0) leadingBreak = true;
      if (i === n - 1) trailingBreak = true;
      if (prevSpace) spaceBreak = true;
      prevSpace = false;
      prevBreak = true;
    } else {
      prevSpace = false;
      prevBreak = false;
    }
    precededByWhitespace = c === 0x20 || c === 0x09 || isBreak(c);
  }
  const a: ScalarAnalysis = {
    empty: false,
    multiline: lineBreaks,
    blockPlain: true,
    flowPlain: true,
    single: true,
    block: true,
  };
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) a.flowPlain = a.blockPlain = false;
  if (trailingSpace) a.block = false;
  if (breakSpace) a.flowPlain = a.blockPlain = a.single = false;
  if (spaceBreak || tab || special) a.flowPlain = a.blockPlain = a.single = false;
  if (spaceBreak || special) a.block = false;
  if (lineBreaks) a.flowPlain = a.blockPlain = false;
  if (flowIndicators) a.flowPlain = false;
  if (blockIndicators) a.blockPlain = false;
  return a;
}

const SHORT_ESCAPES: Record<number, string> = {
  0x00: '\\0',
  0x07: '\\a',
  0x08: '\\b',
  0x09: '\\t',
  0x0a: '\\n',
  0x0b: '\\v',
  0x0c: '\\f',
  0x0d: '\\r',
  0x1b: '\\e',
  0x22: '\\"',
  0x5c: '\\\\',
  0x85: '\\N',
  0x2028: '\\L',
  0x2029: '\\P',
};

function hexEscape(cp: number): string {
  const h = cp.toString(16).toUpperCase();
  if (cp <= 0xff) return `\\x${h.padStart(2, '0')}`;
  if (cp <= 0xffff) return `\\u${h.padStart(4, '0')}`;
  return `\\U${h.padStart(8, '0')}`;
}

const NEEDS_ESCAPE = /["\\\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]/;

/** go-yaml's double-quoted writer (§4.3), without line folding (infinite width). */
export function writeDoubleQuoted(value: string): string {
  const escapeAll = value.charCodeAt(0) === 0xfeff;
  if (!escapeAll && !NEEDS_ESCAPE.test(value)) return `"${value}"`;
  const out: string[] = ['"'];
  let runStart = 0;
  for (let i = 0; i < value.length; i++) {
    let cp = value.charCodeAt(i);
    let width = 1;
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < value.length) {
      const lo = value.charCodeAt(i + 1);
      if (lo >= 0xdc00 && lo <= 0xdfff) {
        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
        width = 2;
      }
    }
    const escape = escapeAll || cp === 0x22 || cp === 0x5c || isBreak(cp) || width === 2 || !isPrintable(cp);
    if (escape) {
      if (i > runStart) out.push(value.slice(runStart, i));
      out.push(SHORT_ESCAPES[cp] ?? hexEscape(cp));
      runStart = i + width;
    }
    i += width - 1;
  }
  if (runStart < value.length) out.push(value.slice(runStart));
  out.push('"');
  return out.join('');
}

/**
 * go-yaml's single-quoted writer: `'` doubled; a line break is written as an extra empty line and
 * the following text starts at `indent`.
 */
export function writeSingleQuoted(value: string, indent: string): string {
  if (!/[\n']/.test(value)) return `'${value}'`;
  let s = value.replace(/'/g, "''");
  if (s.includes('\n')) {
    s = s.replace(/\n+/g, (m) => '\n' + m + indent);
  }
  return `'${s}'`;
}

/** A literal or folded scalar: header (with the line comment), then the content lines. */
export function blockScalar(
  value: string,
  style: 'literal' | 'folded',
  contentIndent: number,
  lineComment: string,
): string {
  const parts: string[] = [style === 'literal' ? '|' : '>'];
  const first = value.charCodeAt(0);
  if (first === 0x20 || first === 0x0a) parts.push('2');
  const last = value.charCodeAt(value.length - 1);
  if (last !== 0x0a) parts.push('-');
  else if (value.length === 1 || value.charCodeAt(value.length - 2) === 0x0a) parts.push('+');
  if (lineComment) parts.push(lineComment[0] === '#' ? ` ${lineComment}` : ` # ${lineComment}`);
  parts.push('\n');
  const ind = spaces(contentIndent);
  const lines = value.split('\n');
  const lastIdx = lines.length - 1;
  if (style === 'literal') {
    for (let i = 0; i < lastIdx; i++) {
      const l = lines[i];
      parts.push(l === '' ? '\n' : `${ind}${l}\n`);
    }
    if (lines[lastIdx] !== '') parts.push(ind + lines[lastIdx]);
  } else {
    const firstNotBlank = first !== 0x20 && first !== 0x09 && first !== 0x0a;
    for (let i = 0; i < lastIdx; i++) {
      const l = lines[i];
      if (l === '') {
        parts.push('\n');
        continue;
      }
      const leadingSpace = l[0] === ' ' || l[0] === '\t';
      parts.push(`${ind}${l}\n`);
      if (!leadingSpace && firstNotBlank) parts.push('\n');
    }
    if (lines[lastIdx] !== '') parts.push(ind + lines[lastIdx]);
  }
  return parts.join('');
}

/** Indentation strings made once: a slice shorter than 13 characters would be a fresh copy per call. */
const SPACES: readonly string[] = Array.from({ length: 65 }, (_, n) => ' '.repeat(n));
export function spaces(n: number): string {
  return n <= 64 ? SPACES[n] : ' '.repeat(n);
}

/**
 * The value go-yaml reads back from its own folded output of `value` (its writer adds blank
 * lines, §4.4). A value that does not allow block style is written double-quoted and unchanged.
 */
export function reflowFolded(value: string): string {
  if (!analyzeScalar(value).block) return value;
  const text = blockScalar(value, 'folded', 2, '');
  return blockScalarValue(text, (_offset, message) => {
    throw new Error(`reading back a folded scalar: ${message}`);
  });
}
