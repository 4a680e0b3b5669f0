/**
 * go-yaml's association of own-line comments with nodes (docs/yaml-output.md, "Comments").
 *
 * The parser (parser.ts) reads the text in source order, registers every block entry (a mapping
 * key or a sequence dash) and collects the own-line comment and blank lines between entries into
 * runs. For each run it calls `assignRun` with the entry P before the run and the entry N after it
 * (null at the end of the document); this module decides which comment slots the text fills.
 * Columns here are 0-based.
 */
import type { YNode } from './node.ts';

/** A block collection being read: a mapping (indentation = key column) or a sequence (dash column). */
export interface Level {
  kind: 'map' | 'seq';
  node: YNode;
  indent: number;
  /** False for a sequence whose dashes sit in its parent mapping's key column (compact style). */
  isLevel: boolean;
  parent: Level | null;
  /** The entry whose value this collection is; null for the document root. */
  owner: Entry | null;
  /** The most recently registered entry of this collection. */
  last: Entry | null;
  count: number;
}

/** A block mapping key, a block sequence dash, or a value that starts on its own line. */
export interface Entry {
  kind: 'key' | 'dash' | 'value';
  line: number;
  col: number;
  level: Level | null;
  /** The key node (key entries). */
  key: YNode | null;
  /** The value node (key entries) or the item (dash entries), once built. */
  item: YNode | null;
  /** The value is not empty (false for `key:` and a bare `-`). Set once the value is read. */
  hasValue: boolean;
  /** Comment text waiting for the item: its head (dash) or its first key's head. */
  itemHead: string;
  firstKeyHead: string;
  firstKeyFoot: string;
}

export interface RunLine {
  /** A blank line (no text). */
  blank: boolean;
  line: number;
  col: number;
  text: string;
  /** A comment moved from a dash line (parser.ts dashCommentToRun): it stays with the dash's run. */
  fromDash?: boolean;
}

export interface RunContext {
  doc: YNode;
  /** 1-based line of the document's first line; no foot line exists after content on it. */
  docFirstLine: number;
  /** Document-foot text collected so far (records left over at the end of the document). */
  docFoot: string[];
  /** Feet read past the root (parser.ts trailingScalarFoot), which the document's end takes. */
  trailingFoot?: string;
  /**
   * go-yaml's column where the document ends (0-based): the character count of the piece's last
   * line when the piece ends without a line break, else 0. Its scanner closes the levels indented
   * deeper at the end of the comment scan and the others only at the stream's end, after every
   * comment (scannerc.go at v3.0.1: yaml_parser_fetch_next_token unrolls to the mark's column,
   * yaml_parser_fetch_stream_end to -1).
   */
  endColumn: number;
  /**
   * The document ends at a `...` marker. go-yaml's comment scan looks past the line break after a
   * comment to the next line's first character (scannerc.go at v3.0.1, yaml_parser_scan_comments:
   * the loop's peek restarts at 0 and is incremented past the break), so the marker at column 0
   * splits the last comment block off as a foot just as content at column 0 would.
   */
  endMarker: boolean;
  /** At a `...` marker: the comment text left as heads at the end, the marker event's head. */
  endHead: string[];
}

interface CommentRecord {
  foot: boolean;
  text: string[];
  firstLine: number;
  col: number;
  /**
   * Timeline position. Record i sits at i; a level end placed at record i sits at i - 0.5, one
   * placed "right after P" at -0.9; P's value is -1; a foot anchored at its own start sits just
   * before the level ends placed at it (i - 0.6); after a foot the anchor is i + 0.25.
   */
  anchor: number;
}

export function joinComment(a: string, b: string): string {
  if (!a) return b;
  if (!b) return a;
  return `${a}\n${b}`;
}

/** Lines of a run joined as comment text; blank runs become one empty line, none at the ends. */
function runText(lines: readonly RunLine[]): string[] {
  const out: string[] = [];
  for (const l of lines) {
    if (l.blank) {
      if (out.length > 0 && out[out.length - 1] !== '') out.push('');
    } else out.push(l.text);
  }
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out;
}

/** Where the head text for entry N goes. */
export function giveHead(n: Entry, text: string): void {
  if (!text) return;
  if (n.kind === 'key') n.key!.headComment = joinComment(n.key!.headComment, text);
  else n.itemHead = joinComment(n.itemHead, text);
}

/**
 * Special run before the first content of a document: split at the last blank line; the part
 * before is the document head, the rest the head of the first entry.
 */
export function assignLeadingRun(run: readonly RunLine[], n: Entry | null, ctx: RunContext): void {
  let lastBlank = -1;
  let seenText = false;
  for (let i = 0; i < run.length; i++) {
    if (!run[i].blank) seenText = true;
    else if (seenText) lastBlank = i;
  }
  const docPart = lastBlank === -1 ? [] : runText(run.slice(0, lastBlank));
  const rest = runText(lastBlank === -1 ? run : run.slice(lastBlank));
  if (docPart.length) ctx.doc.headComment = joinComment(ctx.doc.headComment, docPart.join('\n'));
  if (rest.length) {
    if (n) giveHead(n, rest.join('\n'));
    else (ctx.endMarker ? ctx.endHead : ctx.docFoot).push(rest.join('\n'));
  }
}

/** A run before a value that starts on its own line (`key:` / comments / value): all of it is the value's head. */
export function assignValueRun(run: readonly RunLine[], n: Entry): void {
  const text = runText(run);
  if (text.length) giveHead(n, text.join('\n'));
}

/** Innermost-first levels around P: the block collections containing it that count as levels. */
function levelsOf(p: Entry): Level[] {
  const out: Level[] = [];
  for (let l = p.level; l; l = l.parent) if (l.isLevel) out.push(l);
  return out;
}

function setFoot(node: YNode | null, text: string): void {
  if (node) node.footComment = text;
}

/** P's own foot slot (appended to): the key for a key entry, the item for a dash. */
function footOfEntry(p: Entry, text: string): void {
  if (p.kind === 'key') {
    if (p.key) p.key.footComment = joinComment(p.key.footComment, text);
  } else if (p.kind === 'dash') {
    const item = p.item;
    if (!item) return;
    // A foot under a flow mapping item lands on its last key (go-yaml then writes `{a: 1,}`).
    if (item.kind === 'mapping' && item.style === 'flow' && item.content.length >= 2) {
      const last = item.content[item.content.length - 2];
      last.footComment = joinComment(last.footComment, text);
    } else item.footComment = joinComment(item.footComment, text);
  }
}

/**
 * The general case (§6.3 steps 3–6): own-line comments between P's content and N (or the end of
 * the document when `n` is null).
 */
export function assignRun(
  run: readonly RunLine[],
  p: Entry,
  pLastLine: number,
  pTookBreak: boolean,
  n: Entry | null,
  ctx: RunContext,
): void {
  const levels = levelsOf(p);
  const nextIndent = levels.length ? levels[0].indent : 0;
  // go-yaml has no foot line while its scan resumes on the document's first line (scannerc.go at
  // v3.0.1, yaml_parser_scan_comments: scan_mark.line > 0); a plain scalar's break moves it on.
  const footLine = pLastLine === ctx.docFirstLine && !pTookBreak ? -1 : pLastLine + 1;

  const records: CommentRecord[] = [];
  let pending: { lines: string[]; firstLine: number; col: number } | null = null;
  let noBlankYet = true;
  let prevBlank = false;
  let anchor = -1;
  // go-yaml's foot-line rule excludes only a prior ':' token (scannerc.go at v3.0.1,
  // yaml_parser_scan_comments): an empty item's last token is its dash, so its foot line counts.
  const footLineCounts = p.hasValue || p.kind === 'dash';
  const isFootByBlank = (pd: { firstLine: number; col: number }): boolean =>
    noBlankYet && ((pd.firstLine === footLine && footLineCounts) || pd.col < nextIndent);
  const close = (foot: boolean, ownStart: boolean): void => {
    const idx = records.length;
    records.push({
      foot,
      text: pending!.lines,
      firstLine: pending!.firstLine,
      col: pending!.col,
      anchor: ownStart ? idx - 0.6 : anchor,
    });
    if (foot) anchor = idx + 0.25;
    pending = null;
  };

  for (const l of run) {
    if (l.blank) {
      if (pending && !prevBlank) {
        if (isFootByBlank(pending)) close(true, pending.col < nextIndent);
        else pending.lines.push('');
      }
      noBlankYet = false;
      prevBlank = true;
      continue;
    }
    if (pending && l.col < nextIndent && l.col !== pending.col) close(true, false);
    if (!pending) pending = { lines: [l.text], firstLine: l.line, col: l.col };
    else pending.lines.push(l.text);
    prevBlank = false;
  }
  if (pending) {
    const pd: { firstLine: number; col: number } = pending;
    if (n) {
      if (n.col < nextIndent && n.col !== pd.col) close(true, false);
    } else if (ctx.endMarker) {
      if (0 < nextIndent && pd.col !== 0) close(true, false);
    } else if (isFootByBlank(pd)) close(true, pd.col < nextIndent);
  }
  if (pending) close(false, false);

  // Level ends (§6.3 step 5): the levels N closes, innermost first.
  const ends: { level: Level; at: number }[] = [];
  let prevEnd = -0.9;
  for (const level of levels) {
    if (n && level.indent <= n.col) break;
    let at = -0.9;
    for (let i = Math.max(0, Math.ceil(prevEnd)); i < records.length; i++) {
      if (records[i].col === level.indent) {
        at = i - 0.5;
        break;
      }
    }
    // At the end of the document a level no deeper than the end column closes only after everything.
    if (at === -0.9 && !n && level.indent <= ctx.endColumn) at = records.length;
    if (at < prevEnd) at = prevEnd;
    ends.push({ level, at });
    prevEnd = at;
  }

  // Distribution (§6.3 step 6).
  let feet: CommentRecord[] = [];
  const heads: CommentRecord[] = [];
  for (const r of records) {
    if (!r.foot) heads.push(r);
    // With no value (`key:` and its nested entries follow) there is nothing to hang a foot on.
    else if (r.anchor === -1 && p.hasValue) footOfEntry(p, text(r));
    else feet.push(r);
  }
  for (const end of ends) {
    const before = feet.filter((f) => f.anchor < end.at);
    if (before.length === 0) continue;
    if (end.level.kind === 'map') {
      feet = feet.filter((f) => f.anchor >= end.at);
      setFoot(end.level.last?.key ?? null, before.map(text).join('\n'));
    }
  }
  const headText = heads.map(text).join('\n');
  if (!n) {
    // With feet read past the root, the comments right above the scalar there (no blank line
    // between) are not the document's (checked with go-yaml v3).
    const dropLast = !!ctx.trailingFoot && run.length > 0 && !run[run.length - 1].blank;
    const kept = dropLast ? records.slice(0, -1) : records;
    // The document's end event keeps its heads only when no foot reached it (parserc.go at v3.0.1,
    // parse_document_end: a head becomes the foot only without one; decode.go keeps the foot).
    const footReached = kept.some((r) => r.foot && feet.includes(r));
    for (const r of kept) {
      if (r.foot) {
        if (feet.includes(r)) ctx.docFoot.push(text(r));
      } else if (!footReached) (ctx.endMarker ? ctx.endHead : ctx.docFoot).push(text(r));
    }
    return;
  }
  if (feet.length) {
    const left = feet.map(text).join('\n');
    if (n.kind === 'key') {
      // With no key before N (N first in its mapping) the feet stay on N's own key.
      const prev = previousKey(n) ?? n.key;
      if (prev) prev.footComment = left;
    } else if (n.kind === 'dash') n.firstKeyFoot = joinComment(n.firstKeyFoot, left);
  }
  if (headText) giveHead(n, headText);
}

function text(r: CommentRecord): string {
  const lines = r.text.slice();
  while (lines.length && lines[lines.length - 1] === '') lines.pop();
  return lines.join('\n');
}

/** The key before N in N's mapping. */
function previousKey(n: Entry): YNode | null {
  const c = n.level?.node.content;
  if (!c) return null;
  // N's key is not in the mapping's content yet: the last key there is the one before it.
  const idx = c.lastIndexOf(n.key!);
  const at = idx === -1 ? c.length - 2 : idx - 2;
  return at >= 0 ? c[at] : null;
}
