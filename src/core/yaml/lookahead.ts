/**
 * go-yaml's token lookahead, for errors only. Its parser asks the scanner for a token and the
 * scanner keeps two more in its queue (go-yaml/yaml scannerc.go at v3.0.1,
 * yaml_parser_fetch_more_tokens: `tokens_head < len(tokens)-2`), so a scanner error in the next
 * tokens wins over a parser error at the current one, and over the end of a document whose
 * trailing tokens are never parsed. `scanAhead` scans up to `count` tokens from `from` and calls
 * `fail` with the first scanner error among them; it stops quietly where its reading would need
 * the parser's state (a plain scalar, which may run on over lines; a block scalar's body; a
 * document marker, which it reads past).
 */
import {
  isBlankZ,
  isDocumentMarker,
  plainWordEnd,
  scanBlockHeader,
  scanDouble,
  scanPlain,
  scanSingle,
  type Fail,
  type PlainScan,
} from './scan.ts';
import { scanAnchor, scanDirective, scanTag } from './scan-props.ts';

const SP = 0x20;
const TAB = 0x09;
const NL = 0x0a;
const HASH = 0x23;

const CANNOT_START = 'found character that cannot start any token';

export function scanAhead(
  src: string,
  from: number,
  count: number,
  flowDepth: number,
  blockIndent: number,
  fail: Fail,
): void {
  const len = src.length;
  const quoted = { value: '' };
  let flow = flowDepth;
  let i = from;
  // The last token closed a flow collection on this line: go-yaml allows no simple key after it.
  let closedAt = -1;
  // Whether a simple key may start here: after a line break in block context or after `-`/`?`.
  let keyAllowed = keyAllowedBefore(src, from, flowDepth);
  const plain: PlainScan = { end: 0, multiline: false };
  for (let t = 0; t < count; t++) {
    // Blanks, line breaks and comments (a `#` after a blank or at a line start).
    for (;;) {
      const c = src.charCodeAt(i);
      if (c === NL && flow === 0) keyAllowed = true;
      // In block context a tab that starts a line's blanks is a token, and cannot start one.
      if (c === TAB && flow === 0 && lineBlanksBefore(src, i)) fail(i, CANNOT_START, i);
      if (c === SP || c === TAB || c === NL) i++;
      else if (c === HASH && (i === 0 || isBlankZ(src.charCodeAt(i - 1)))) {
        const nl = src.indexOf('\n', i);
        i = nl === -1 ? len : nl;
      } else break;
    }
    if (i >= len) return;
    const c = src.charCodeAt(i);
    const lineStart = i === 0 || src.charCodeAt(i - 1) === NL;
    if (lineStart && c === 0x25) {
      i = scanDirective(src, i, fail).end;
      continue;
    }
    if (lineStart && isDocumentMarker(src, i)) {
      i += 3;
      continue;
    }
    switch (c) {
      case 0x40: // @
      case 0x60: // `
      case 0x25: // % (not in column 0)
        fail(i, CANNOT_START, i);
        break;
      case 0x26: // &
      case 0x2a: // *
        i = scanAnchor(src, i, fail);
        break;
      case 0x21: // !
        i = scanTag(src, i, fail);
        break;
      case 0x22: // "
        i = scanDouble(src, i, quoted, fail);
        break;
      case 0x27: // '
        i = scanSingle(src, i, quoted, fail);
        break;
      case 0x7c: // |
      case 0x3e: // >
        if (flow > 0) return;
        blockHeader(src, i, fail);
        return;
      case 0x5b: // [
      case 0x7b: // {
        flow++;
        i++;
        break;
      case 0x5d: // ]
      case 0x7d: // }
        if (flow > 0) flow--;
        i++;
        closedAt = i;
        continue;
      case 0x2c: // ,
        i++;
        break;
      case 0x2d: // -
      case 0x3f: // ?
      case 0x3a: {
        // :
        if (!isBlankZ(src.charCodeAt(i + 1))) return;
        const noKey = (closedAt !== -1 && !src.slice(closedAt, i).includes('\n')) || keyAllowed === false;
        if (flow === 0 && noKey && c !== 0x3a) {
          fail(
            i,
            c === 0x2d
              ? 'block sequence entries are not allowed in this context'
              : 'mapping keys are not allowed in this context',
            i,
          );
        }
        i++;
        break;
      }
      default:
        if (flow === 0 && ((closedAt !== -1 && !src.slice(closedAt, i).includes('\n')) || keyAllowed === false)) {
          unkeyedPlain(src, i, fail);
        }
        if (flow === 0 && keyAllowed === true) multiLineKey(src, i, blockIndent, plain, fail);
        return;
    }
    closedAt = -1;
    keyAllowed = (c === 0x2d || c === 0x3f) && flow === 0 ? true : t === 0 ? undefined : false;
  }
}

/**
 * A plain scalar where no simple key is allowed: a `: ` after it on its line is a value with no
 * key, which block context refuses (yaml_parser_fetch_value).
 */
function unkeyedPlain(src: string, start: number, fail: Fail): void {
  let i = start;
  for (;;) {
    i = plainWordEnd(src, i, false);
    let j = i;
    while (src.charCodeAt(j) === SP || src.charCodeAt(j) === TAB) j++;
    const c = src.charCodeAt(j);
    if (c === 0x3a && isBlankZ(src.charCodeAt(j + 1))) fail(j, 'mapping values are not allowed in this context', j);
    if (j === i || j >= src.length || c === NL || c === HASH) return;
    i = j;
  }
}

/**
 * A plain scalar that may start a simple key but runs over lines: go-yaml's key is then invalid
 * (yaml_simple_key_is_valid), so a `: ` after it is refused, as the scanner's missing `:` when the
 * key was required (in the block's own column), else as a value with no key allowed.
 */
function multiLineKey(src: string, start: number, blockIndent: number, out: PlainScan, fail: Fail): void {
  const lineStart = src.lastIndexOf('\n', start - 1) + 1;
  scanPlain(src, start, lineStart, blockIndent + 1, false, out);
  if (!out.multiline) return;
  let j = out.end;
  while (src.charCodeAt(j) === SP || src.charCodeAt(j) === TAB) j++;
  if (src.charCodeAt(j) !== 0x3a || !isBlankZ(src.charCodeAt(j + 1))) return;
  if (start - lineStart === blockIndent) fail(j, "could not find expected ':'", start);
  fail(j, 'mapping values are not allowed in this context', j);
}

/**
 * Whether go-yaml allows a simple key at `from` in block context, judged by what precedes it on
 * its line: nothing or an indicator that allows one (`-`, `?`, `:`, `[`, `{`, `,`) leaves it
 * unknown; the end of a scalar or a closed flow collection allows none.
 */
function keyAllowedBefore(src: string, from: number, flowDepth: number): boolean | undefined {
  if (flowDepth !== 0) return undefined;
  let k = from - 1;
  while (k >= 0 && (src.charCodeAt(k) === SP || src.charCodeAt(k) === TAB)) k--;
  if (k < 0 || src.charCodeAt(k) === NL) return undefined;
  const c = src.charCodeAt(k);
  return c === 0x27 || c === 0x22 || c === 0x5d || c === 0x7d ? false : undefined;
}

/** Whether only blanks precede offset `i` on its line. */
function lineBlanksBefore(src: string, i: number): boolean {
  let k = i - 1;
  while (k >= 0 && (src.charCodeAt(k) === SP || src.charCodeAt(k) === TAB)) k--;
  return k < 0 || src.charCodeAt(k) === NL;
}

/** A block scalar's header: indicators, then only blanks and a comment before the line break. */
function blockHeader(src: string, start: number, fail: Fail): void {
  const header = { chomp: 0, increment: 0, end: 0 };
  scanBlockHeader(src, start, header, (offset, message) => fail(offset, message, start));
  let i = header.end;
  while (src.charCodeAt(i) === SP || src.charCodeAt(i) === TAB) i++;
  if (src.charCodeAt(i) === HASH) return;
  if (i < src.length && src.charCodeAt(i) !== NL) fail(i, 'did not find expected comment or line break', start);
}
