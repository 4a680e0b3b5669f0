/**
 * go-yaml's scalar scanning rules as pure functions over the source text (docs/yaml-output.md,
 * "Reading a file"): where a plain scalar ends, and the value of plain, single-quoted,
 * double-quoted and block scalars after folding and unescaping. Positions are offsets into the
 * piece text; nothing here allocates a token. Each function follows the matching function of
 * go-yaml v3's scanner (go-yaml/yaml, scannerc.go at v3.0.1: yaml_parser_scan_plain_scalar,
 * yaml_parser_scan_flow_scalar, yaml_parser_scan_block_scalar). A malformed scalar calls `fail`
 * with the offset and go-yaml's message; `fail` never returns.
 */

/**
 * Reports a malformed scalar: `offset` is go-yaml's problem mark, `context` its context mark (the
 * scalar's start when omitted by the caller: the parser knows it).
 */
export type Fail = (offset: number, message: string, context?: number) => never;

const SP = 0x20;
const TAB = 0x09;
const NL = 0x0a;

export function isBlank(c: number): boolean {
  return c === SP || c === TAB;
}

/** A space, tab, line break or the end of the text (NaN). */
export function isBlankZ(c: number): boolean {
  return c === SP || c === TAB || c === NL || c !== c;
}

export function isFlowIndicator(c: number): boolean {
  return c === 0x2c || c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d;
}

/** `---` or `...` at a line start followed by a blank or the end. */
export function isDocumentMarker(src: string, pos: number): boolean {
  const c = src.charCodeAt(pos);
  if (c !== 0x2d && c !== 0x2e) return false;
  return src.charCodeAt(pos + 1) === c && src.charCodeAt(pos + 2) === c && isBlankZ(src.charCodeAt(pos + 3));
}

/**
 * End of the non-blank run of a plain scalar starting at `pos` on one line: stops at `: `, a
 * blank, and in flow context at `,[]{}` and `:` before a flow indicator.
 */
export function plainWordEnd(src: string, pos: number, flow: boolean): number {
  const len = src.length;
  let i = pos;
  while (i < len) {
    const c = src.charCodeAt(i);
    if (c === SP || c === NL || c === TAB) break;
    if (c === 0x3a) {
      const n = src.charCodeAt(i + 1);
      if (isBlankZ(n) || (flow && isFlowIndicator(n))) break;
    } else if (flow && isFlowIndicator(c)) break;
    i++;
  }
  return i;
}

/** The result of scanning a multi-line plain scalar. */
export interface PlainScan {
  /** Offset after the last non-blank character of the scalar. */
  end: number;
  /** The scalar spans more than one line. */
  multiline: boolean;
}

/**
 * Scans a plain scalar from `pos`: continuation lines must start at a column ≥ `minCol` (block
 * context; go-yaml's `parser.indent + 1`), a `#` after a blank, a document marker at column 0 or
 * (flow) an indicator ends it. `lineStart` is the offset of the start of `pos`'s line.
 */
export function scanPlain(
  src: string,
  pos: number,
  lineStart: number,
  minCol: number,
  flow: boolean,
  out: PlainScan,
): void {
  const len = src.length;
  let end = plainWordEnd(src, pos, flow);
  let i = end;
  let multiline = false;
  let ls = lineStart;
  for (;;) {
    // Blanks and breaks after a word.
    let broke = false;
    let lineBegin = ls;
    while (i < len) {
      const c = src.charCodeAt(i);
      if (c === SP || c === TAB) i++;
      else if (c === NL) {
        broke = true;
        i++;
        lineBegin = i;
      } else break;
    }
    if (i >= len) break;
    const c = src.charCodeAt(i);
    if (c === 0x23) break; // '#' after a blank: a comment
    if (broke) {
      if (!flow && i - lineBegin < minCol) break;
      if (i === lineBegin && isDocumentMarker(src, i)) break;
    } else if (i === end) break; // stopped at an indicator, not a blank
    if (c === 0x3a && (isBlankZ(src.charCodeAt(i + 1)) || (flow && isFlowIndicator(src.charCodeAt(i + 1))))) break;
    if (flow && isFlowIndicator(c)) break;
    const w = plainWordEnd(src, i, flow);
    if (w === i) break;
    if (broke) {
      multiline = true;
      ls = lineBegin;
    }
    end = w;
    i = w;
  }
  out.end = end;
  out.multiline = multiline;
}

/** The value of a multi-line plain scalar `src[start, end)`: lines trimmed and folded. */
export function foldPlain(src: string, start: number, end: number): string {
  const text = src.slice(start, end);
  if (!text.includes('\n')) return text;
  const lines = text.split('\n');
  let out = lines[0].replace(/[ \t]+$/, '');
  let empties = 0;
  for (let k = 1; k < lines.length; k++) {
    const l = lines[k].replace(/^[ \t]+/, '').replace(/[ \t]+$/, '');
    if (l === '') {
      empties++;
      continue;
    }
    out += empties === 0 ? ' ' : '\n'.repeat(empties);
    empties = 0;
    out += l;
  }
  return out;
}

/**
 * Scans a single-quoted scalar whose `'` is at `pos`. Returns the offset after the closing quote
 * and writes the value to `out.value`.
 */
export function scanSingle(src: string, pos: number, out: { value: string }, fail: Fail): number {
  const len = src.length;
  let i = pos + 1;
  let value = '';
  let chunk = i;
  for (;;) {
    if (i >= len) fail(len, 'found unexpected end of stream', pos);
    const c = src.charCodeAt(i);
    if (c === 0x27) {
      if (src.charCodeAt(i + 1) === 0x27) {
        value += src.slice(chunk, i + 1);
        i += 2;
        chunk = i;
        continue;
      }
      value += src.slice(chunk, i);
      out.value = value;
      return i + 1;
    }
    if (c === NL || c === SP || c === TAB) {
      const r = foldBreaks(src, i, pos, fail);
      if (r.folded !== null) {
        value += src.slice(chunk, i) + r.folded;
        i = r.next;
        chunk = i;
        continue;
      }
    }
    i++;
  }
}

const fold = { folded: null as string | null, next: 0 };

/**
 * At a blank or break inside a quoted scalar: when blanks lead to a line break, consumes the
 * blanks, breaks and the next line's indentation and returns the folded text; otherwise
 * `folded` is null (plain blanks stay as they are).
 */
function foldBreaks(src: string, i: number, start: number, fail: Fail): typeof fold {
  let j = i;
  while (src.charCodeAt(j) === SP || src.charCodeAt(j) === TAB) j++;
  if (src.charCodeAt(j) !== NL) {
    fold.folded = null;
    return fold;
  }
  let breaks = 0;
  while (j < src.length) {
    const c = src.charCodeAt(j);
    if (c === NL) {
      breaks++;
      j++;
      if (isDocumentMarker(src, j)) fail(j, 'found unexpected document indicator', start);
    } else if (c === SP || c === TAB) j++;
    else break;
  }
  if (j >= src.length) fail(src.length, 'found unexpected end of stream', start);
  fold.folded = breaks === 1 ? ' ' : '\n'.repeat(breaks - 1);
  fold.next = j;
  return fold;
}

const SIMPLE_ESCAPES: Record<string, string> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  '\t': '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  N: '\x85',
  _: '\xa0',
  L: '\u2028',
  P: '\u2029',
};

/** Scans a double-quoted scalar whose `"` is at `pos`, like scanSingle. */
export function scanDouble(src: string, pos: number, out: { value: string }, fail: Fail): number {
  const len = src.length;
  let i = pos + 1;
  let value = '';
  let chunk = i;
  for (;;) {
    if (i >= len) fail(len, 'found unexpected end of stream', pos);
    const c = src.charCodeAt(i);
    if (c === 0x22) {
      out.value = value + src.slice(chunk, i);
      return i + 1;
    }
    if (c === 0x5c) {
      value += src.slice(chunk, i);
      const e = src[i + 1];
      if (e === '\n') {
        // An escaped line break: the break and the next line's indentation vanish.
        let j = i + 2;
        let breaks = 0;
        while (j < len) {
          const d = src.charCodeAt(j);
          if (d === NL) breaks++;
          else if (d !== SP && d !== TAB) break;
          j++;
        }
        value += '\n'.repeat(breaks);
        i = j;
        chunk = i;
        continue;
      }
      const simple = e === undefined ? undefined : SIMPLE_ESCAPES[e];
      if (simple !== undefined) {
        value += simple;
        i += 2;
        chunk = i;
        continue;
      }
      const width = e === 'x' ? 2 : e === 'u' ? 4 : e === 'U' ? 8 : 0;
      if (width === 0) fail(i, 'found unknown escape character', pos);
      const hex = src.slice(i + 2, i + 2 + width);
      if (hex.length < width || !/^[0-9a-fA-F]+$/.test(hex)) {
        fail(i, 'did not find expected hexdecimal number', pos);
      }
      const code = parseInt(hex, 16);
      if ((code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff) {
        fail(i, 'found invalid Unicode character escape code', pos);
      }
      value += String.fromCodePoint(code);
      i += 2 + width;
      chunk = i;
      continue;
    }
    if (c === NL || c === SP || c === TAB) {
      const r = foldBreaks(src, i, pos, fail);
      if (r.folded !== null) {
        value += src.slice(chunk, i) + r.folded;
        i = r.next;
        chunk = i;
        continue;
      }
    }
    i++;
  }
}

/** A block scalar header's indicators. */
export interface BlockHeader {
  /** -1 strip, 0 clip, 1 keep. */
  chomp: number;
  /** The indentation indicator, 0 when absent. */
  increment: number;
  /** Offset after the indicators. */
  end: number;
}

/** Reads the indicators after the `|` or `>` at `pos` (in either order, as go-yaml). */
export function scanBlockHeader(src: string, pos: number, out: BlockHeader, fail: Fail): void {
  let i = pos + 1;
  let chomp = 0;
  let increment = 0;
  for (let k = 0; k < 2; k++) {
    const d = src.charCodeAt(i);
    if ((d === 0x2b || d === 0x2d) && chomp === 0) {
      chomp = d === 0x2b ? 1 : -1;
      i++;
    } else if (d >= 0x30 && d <= 0x39 && increment === 0) {
      if (d === 0x30) fail(i, 'found an indentation indicator equal to 0');
      increment = d - 0x30;
      i++;
    }
  }
  out.chomp = chomp;
  out.increment = increment;
  out.end = i;
}

/** The value of a well-formed top-level block scalar `text` (header line, then body). */
export function blockScalarValue(text: string, fail: Fail): string {
  const header: BlockHeader = { chomp: 0, increment: 0, end: 0 };
  scanBlockHeader(text, 0, header, fail);
  const nl = text.indexOf('\n');
  const out: BlockScan = { value: '', contentEnd: 0, hasContent: false };
  const literal = text.charCodeAt(0) === 0x7c;
  scanBlockBody(text, nl === -1 ? text.length : nl + 1, -1, header.increment, header.chomp, literal, out, fail);
  return out.value;
}

/** The result of scanning a block scalar's body. */
export interface BlockScan {
  value: string;
  /** Offset after the last character of the last content line (before its line break). */
  contentEnd: number;
  /** Some line of the body holds content. */
  hasContent: boolean;
}

/**
 * Scans a block scalar body starting at `bodyStart` (the first line after the header). `parentIndent`
 * is go-yaml's `parser.indent` (-1 at the top level); `increment` the header's indentation
 * indicator (0 when absent); `chomp` -1 strip, 0 clip, 1 keep.
 */
export function scanBlockBody(
  src: string,
  bodyStart: number,
  parentIndent: number,
  increment: number,
  chomp: number,
  literal: boolean,
  out: BlockScan,
  fail: Fail,
): void {
  const len = src.length;
  let indent = increment > 0 ? (parentIndent >= 0 ? parentIndent + increment : increment) : 0;
  let i = bodyStart;
  // Leading empty lines and the indentation: with no indicator, the first content line decides.
  let trailingBreaks = '';
  let maxIndent = 0;
  for (;;) {
    let col = 0;
    while ((indent === 0 || col < indent) && src.charCodeAt(i) === SP) {
      i++;
      col++;
    }
    if (col > maxIndent) maxIndent = col;
    if ((indent === 0 || col < indent) && src.charCodeAt(i) === TAB) {
      fail(i, 'found a tab character where an indentation space is expected');
    }
    if (i < len && src.charCodeAt(i) === NL) {
      trailingBreaks += '\n';
      i++;
      continue;
    }
    if (indent === 0) {
      indent = maxIndent;
      if (indent < parentIndent + 1) indent = parentIndent + 1;
      if (indent < 1) indent = 1;
      // Re-read this line against the indentation now known.
      if (col < indent) {
        out.value = chomp === 1 ? trailingBreaks : '';
        out.contentEnd = bodyStart;
        out.hasContent = false;
        if (col < indent && i < len) {
          // The line belongs to the parent: the body was empty lines only.
          out.value = chomp === 1 ? trailingBreaks : '';
        }
        return;
      }
    }
    break;
  }
  let value = '';
  let leadingBreak = '';
  let leadingBlank = false;
  let contentEnd = bodyStart;
  let hasContent = false;
  for (;;) {
    // Here `i` is at column `indent` of a line, or at a line holding less.
    const lineStart = src.lastIndexOf('\n', i - 1) + 1;
    if (i - lineStart !== indent || i >= len) break;
    const trailingBlank = isBlank(src.charCodeAt(i));
    if (!literal && leadingBreak === '\n' && !leadingBlank && !trailingBlank) {
      if (trailingBreaks === '') value += ' ';
      leadingBreak = '';
    }
    value += leadingBreak + trailingBreaks;
    leadingBreak = '';
    trailingBreaks = '';
    leadingBlank = isBlank(src.charCodeAt(i));
    let eol = src.indexOf('\n', i);
    if (eol === -1) eol = len;
    value += src.slice(i, eol);
    hasContent = true;
    contentEnd = eol;
    if (eol >= len) break;
    leadingBreak = '\n';
    i = eol + 1;
    // Empty lines and the next line's indentation.
    for (;;) {
      let col = 0;
      while (col < indent && src.charCodeAt(i) === SP) {
        i++;
        col++;
      }
      if (col < indent && src.charCodeAt(i) === TAB) {
        fail(i, 'found a tab character where an indentation space is expected');
      }
      if (i < len && src.charCodeAt(i) === NL) {
        trailingBreaks += '\n';
        i++;
        continue;
      }
      break;
    }
  }
  if (chomp !== -1) value += leadingBreak;
  if (chomp === 1) value += trailingBreaks;
  out.value = value;
  out.contentEnd = contentEnd;
  out.hasContent = hasContent;
}

const YAML_TAG_PREFIX = 'tag:yaml.org,2002:';

/** `!!x` and `!<tag:yaml.org,2002:x>` → `!!x`; `!<!x>` → `!x`; the non-specific `!` → ''. */
export function shortTag(source: string): string {
  if (source === '!') return '';
  if (source.startsWith('!<') && source.endsWith('>')) {
    const v = decodeURIComponentSafe(source.slice(2, -1));
    if (v.startsWith(YAML_TAG_PREFIX)) return `!!${v.slice(YAML_TAG_PREFIX.length)}`;
    return v.startsWith('!') ? v : `!<${v}>`;
  }
  return source.includes('%') ? decodeURIComponentSafe(source) : source;
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
