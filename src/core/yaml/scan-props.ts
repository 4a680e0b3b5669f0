/**
 * The scanner's checks of directives, tags and anchors, with go-yaml's messages and marks
 * (go-yaml/yaml scannerc.go at v3.0.1: yaml_parser_scan_directive and its helpers,
 * yaml_parser_scan_tag, yaml_parser_scan_tag_handle, yaml_parser_scan_tag_uri,
 * yaml_parser_scan_uri_escapes, yaml_parser_scan_anchor). Each function reads one token at
 * `start` and returns the offset after it, or calls `fail(problemOffset, message, contextOffset)`,
 * which throws. Values are not built here: the parser keeps reading tags with `shortTag`.
 */
import { utf8SequenceWidth } from '../utf8.ts';
import { isBlankZ } from './scan.ts';

export type ScanFail = (offset: number, message: string, context?: number) => never;

/** go-yaml's `is_alpha`: the characters of anchor names, tag handles and directive names. */
export function isAlpha(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x2d;
}

const isBlank = (c: number): boolean => c === 0x20 || c === 0x09;
const isHex = (c: number): boolean => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);

/** Characters of a tag URI besides `is_alpha` (`%` starts an escape). */
const URI_CHARS = new Set(Array.from(";/?:@&=+$,.!~*'()[]%", (ch) => ch.charCodeAt(0)));

/** What an anchor or alias name may be followed by. */
const ANCHOR_ENDS = new Set(Array.from('?:,]}%@`', (ch) => ch.charCodeAt(0)));

/** A scanned directive: `%YAML` with its version, `%TAG` with its handle, and the offset after its line. */
export interface Directive {
  name: 'YAML' | 'TAG';
  major: number;
  minor: number;
  handle: string;
  end: number;
}

/** The directive at `start` (a `%` in column 0), through its line break. */
export function scanDirective(src: string, start: number, fail: ScanFail): Directive {
  let i = start + 1;
  while (isAlpha(src.charCodeAt(i))) i++;
  const name = src.slice(start + 1, i);
  if (name === '') fail(i, 'could not find expected directive name', start);
  if (!isBlankZ(src.charCodeAt(i))) fail(i, 'found unexpected non-alphabetical character', start);
  const d: Directive = { name: 'YAML', major: 0, minor: 0, handle: '', end: 0 };
  if (name === 'YAML') {
    while (isBlank(src.charCodeAt(i))) i++;
    const major = versionNumber(src, i, start, fail);
    i = major.end;
    if (src.charCodeAt(i) !== 0x2e) fail(i, "did not find expected digit or '.' character", start);
    const minor = versionNumber(src, i + 1, start, fail);
    i = minor.end;
    d.major = major.value;
    d.minor = minor.value;
  } else if (name === 'TAG') {
    d.name = 'TAG';
    while (isBlank(src.charCodeAt(i))) i++;
    const handleEnd = tagHandle(src, i, true, start, fail);
    d.handle = src.slice(i, handleEnd);
    i = handleEnd;
    if (!isBlank(src.charCodeAt(i))) fail(i, 'did not find expected whitespace', start);
    while (isBlank(src.charCodeAt(i))) i++;
    i = tagUri(src, i, false, start, fail);
    if (!isBlankZ(src.charCodeAt(i))) fail(i, 'did not find expected whitespace or line break', start);
  } else {
    fail(i, 'found unknown directive name', start);
  }
  while (isBlank(src.charCodeAt(i))) i++;
  if (src.charCodeAt(i) === 0x23) {
    const nl = src.indexOf('\n', i);
    i = nl === -1 ? src.length : nl;
  }
  if (i < src.length && src.charCodeAt(i) !== 0x0a) fail(i, 'did not find expected comment or line break', start);
  d.end = i < src.length ? i + 1 : i;
  return d;
}

function versionNumber(src: string, from: number, start: number, fail: ScanFail): { value: number; end: number } {
  let i = from;
  let value = 0;
  for (let c = src.charCodeAt(i); c >= 0x30 && c <= 0x39; c = src.charCodeAt(++i)) {
    if (i - from >= 2) fail(i, 'found extremely long version number', start);
    value = value * 10 + (c - 0x30);
  }
  if (i === from) fail(i, 'did not find expected version number', start);
  return { value, end: i };
}

/** A tag handle (`!`, `!!` or `!name!`; in a tag, also the `!name` that begins a local tag). */
function tagHandle(src: string, from: number, directive: boolean, start: number, fail: ScanFail): number {
  if (src.charCodeAt(from) !== 0x21) fail(from, "did not find expected '!'", start);
  let i = from + 1;
  while (isAlpha(src.charCodeAt(i))) i++;
  if (src.charCodeAt(i) === 0x21) return i + 1;
  if (directive && i !== from + 1) fail(i, "did not find expected '!'", start);
  return i;
}

/** A tag URI from `from`; `hasHead` when the handle's text already counts as part of it. */
function tagUri(src: string, from: number, hasHead: boolean, start: number, fail: ScanFail): number {
  let i = from;
  for (let c = src.charCodeAt(i); isAlpha(c) || URI_CHARS.has(c); c = src.charCodeAt(i)) {
    i = c === 0x25 ? uriEscapes(src, i, start, fail) : i + 1;
  }
  if (i === from && !hasHead) fail(i, 'did not find expected tag URI', start);
  return i;
}

/** One UTF-8 character written as `%XX` escapes. */
function uriEscapes(src: string, from: number, start: number, fail: ScanFail): number {
  let i = from;
  let width = -1;
  while (width !== 0) {
    if (!(src.charCodeAt(i) === 0x25 && isHex(src.charCodeAt(i + 1)) && isHex(src.charCodeAt(i + 2)))) {
      fail(i, 'did not find URI escaped octet', start);
    }
    const octet = parseInt(src.slice(i + 1, i + 3), 16);
    if (width === -1) {
      width = utf8SequenceWidth(octet);
      if (width === 0) fail(i, 'found an incorrect leading UTF-8 octet', start);
    } else if ((octet & 0xc0) !== 0x80) {
      fail(i, 'found an incorrect trailing UTF-8 octet', start);
    }
    i += 3;
    width--;
  }
  return i;
}

/** The end of the tag at `start` (`!<uri>`, `!handle!suffix`, `!suffix` or `!`). */
export function scanTag(src: string, start: number, fail: ScanFail): number {
  let i: number;
  if (src.charCodeAt(start + 1) === 0x3c) {
    i = tagUri(src, start + 2, false, start, fail);
    if (src.charCodeAt(i) !== 0x3e) fail(i, "did not find the expected '>'", start);
    i++;
  } else {
    const handleEnd = tagHandle(src, start, false, start, fail);
    const named = handleEnd - start > 1 && src.charCodeAt(handleEnd - 1) === 0x21;
    // `!name` without a closing `!` is the handle `!` and a suffix that starts with `name`.
    i = tagUri(src, handleEnd, !named, start, fail);
  }
  if (!isBlankZ(src.charCodeAt(i))) fail(i, 'did not find expected whitespace or line break', start);
  return i;
}

/** The end of the anchor (`&name`) or alias (`*name`) at `start`. */
export function scanAnchor(src: string, start: number, fail: ScanFail): number {
  let i = start + 1;
  while (isAlpha(src.charCodeAt(i))) i++;
  const c = src.charCodeAt(i);
  if (i === start + 1 || !(isBlankZ(c) || ANCHOR_ENDS.has(c))) {
    fail(i, 'did not find expected alphabetic or numeric character', start);
  }
  return i;
}

/** The handle of a scanned `!name!suffix` tag, or '' for `!`, `!!` and verbatim tags. */
export function namedHandle(tag: string): string {
  if (tag.startsWith('!<') || tag.startsWith('!!')) return '';
  const second = tag.indexOf('!', 1);
  if (second === -1) return '';
  for (let k = 1; k < second; k++) if (!isAlpha(tag.charCodeAt(k))) return '';
  return tag.slice(0, second + 1);
}
