/**
 * kyaml's comment and key-order restoration around a function call (docs/yaml-output.md, "After a function",
 * docs/kpt-semantics.md, "Calling a function"), and a direct emulation of the whole ResourceList round trip for a resource
 * a function returned unchanged.
 *
 * `from` is the resource as it was before the call (a document node, or its root mapping); `to` is
 * the function's output item (a mapping, or a document). Neither call allocates nodes.
 */
import { parsePiece } from './parser.ts';
import { emitYamlDocument, utf8Length } from './emit.ts';
import { DEFAULT_LIMITS } from '../limits.ts';
import { documentNode, mapGet, mappingNode, sequenceNode, strNode, type YNode } from './node.ts';
import { reflowFolded } from './scalar.ts';

function rootOf(n: YNode): YNode | undefined {
  return n.kind === 'document' ? n.content[0] : n;
}

function fill(from: YNode, to: YNode): void {
  if (!to.headComment && from.headComment) to.headComment = from.headComment;
  if (!to.lineComment && from.lineComment) to.lineComment = from.lineComment;
  if (!to.footComment && from.footComment) to.footComment = from.footComment;
}

/**
 * kyaml CopyComments: fill empty head/line/foot slots of `to` from `from`, by path. Mapping fields
 * match by key (keys and values both), list items by index when both have the same scalar value
 * (mappings always match). At the root, the document's head and foot comments of `from` go onto
 * `to`'s root mapping; the root mapping's own comments are not copied. Every folded scalar visited
 * in `to` becomes double-quoted.
 */
export function copyComments(from: YNode, to: YNode): void {
  const toRoot = rootOf(to);
  if (!toRoot) return;
  const fromRoot = rootOf(from);
  if (from.kind === 'document') {
    if (!toRoot.headComment && from.headComment) toRoot.headComment = from.headComment;
    if (!toRoot.lineComment && from.lineComment) toRoot.lineComment = from.lineComment;
    if (!toRoot.footComment && from.footComment) toRoot.footComment = from.footComment;
  } else if (fromRoot) fill(fromRoot, toRoot);
  copyWalk(fromRoot, toRoot, 0);
}

function copyWalk(from: YNode | undefined, to: YNode, depth: number): void {
  if (depth > 10_000) return;
  if (to.kind === 'scalar') {
    if (to.style === 'folded') to.style = 'double';
    return;
  }
  if (to.kind === 'mapping') {
    const tc = to.content;
    const fc = from && from.kind === 'mapping' ? from.content : null;
    for (let i = 0; i + 1 < tc.length; i += 2) {
      const k = tc[i];
      const v = tc[i + 1];
      const j = fc ? indexOfKey(fc, k) : -1;
      if (j !== -1) {
        fill(fc![j], k);
        fill(fc![j + 1], v);
      }
      if (k.style === 'folded') k.style = 'double';
      copyWalk(j !== -1 ? fc![j + 1] : undefined, v, depth + 1);
    }
    return;
  }
  if (to.kind === 'sequence') {
    if (!from || from.kind !== 'sequence') {
      for (const item of to.content)
        if (item.kind === 'mapping' || item.kind === 'sequence') copyWalk(undefined, item, depth + 1);
      return;
    }
    const n = Math.min(to.content.length, from.content.length);
    for (let i = 0; i < n; i++) {
      const t = to.content[i];
      const f = from.content[i];
      if (t.value !== f.value) continue;
      fill(f, t);
      copyWalk(f, t, depth + 1);
    }
  }
}

function indexOfKey(content: readonly YNode[], key: YNode): number {
  if (key.kind !== 'scalar') return -1;
  for (let i = 0; i + 1 < content.length; i += 2) {
    const k = content[i];
    if (k.kind === 'scalar' && k.value === key.value) return i;
  }
  return -1;
}

/**
 * kyaml SyncOrder: re-sync mapping key order of `to` to `from`, recursively (keys unknown to
 * `from` follow in their own order). For every sequence reachable through mappings (not directly
 * nested in another sequence), an item whose first child is a scalar takes that child's head
 * comment: copied if the item has none, appended and moved otherwise.
 */
export function syncOrder(from: YNode, to: YNode): void {
  const f = rootOf(from);
  const t = rootOf(to);
  if (f && t) syncWalk(f, t, false, 0);
}

function syncWalk(from: YNode, to: YNode, inSequence: boolean, depth: number): void {
  if (depth > 10_000) return;
  if (to.kind === 'mapping' && from.kind === 'mapping') {
    reorder(from.content, to.content);
    const tc = to.content;
    for (let i = 0; i + 1 < tc.length; i += 2) {
      const j = indexOfKey(from.content, tc[i]);
      if (j !== -1) syncWalk(from.content[j + 1], tc[i + 1], false, depth + 1);
    }
    return;
  }
  if (to.kind === 'sequence' && from.kind === 'sequence') {
    if (!inSequence) liftItemHeads(to);
    const n = Math.min(to.content.length, from.content.length);
    for (let i = 0; i < n; i++) syncWalk(from.content[i], to.content[i], true, depth + 1);
  }
}

function liftItemHeads(seq: YNode): void {
  for (const item of seq.content) {
    const first = item.content[0];
    if (
      !first ||
      first.kind !== 'scalar' ||
      !first.headComment ||
      (item.kind !== 'mapping' && item.kind !== 'sequence')
    )
      continue;
    if (!item.headComment) item.headComment = first.headComment;
    else {
      item.headComment = `${item.headComment}\n${first.headComment}`;
      first.headComment = '';
    }
  }
}

/** Stable reorder of `to`'s pairs: keys known to `from` in `from`'s order, then the rest. */
function reorder(from: readonly YNode[], to: YNode[]): void {
  const n = to.length >> 1;
  if (n < 2) return;
  const rank = (k: YNode): number => {
    const j = indexOfKey(from, k);
    return j === -1 ? Number.MAX_SAFE_INTEGER : j;
  };
  let sorted = true;
  let prev = -1;
  for (let i = 0; i < to.length; i += 2) {
    const r = rank(to[i]);
    if (r < prev) {
      sorted = false;
      break;
    }
    prev = r;
  }
  if (sorted) return;
  const pairs: { k: YNode; v: YNode; r: number; i: number }[] = [];
  for (let i = 0; i + 1 < to.length; i += 2) pairs.push({ k: to[i], v: to[i + 1], r: rank(to[i]), i });
  pairs.sort((a, b) => a.r - b.r || a.i - b.i);
  let w = 0;
  for (const p of pairs) {
    to[w++] = p.k;
    to[w++] = p.v;
  }
}

/**
 * Applies to a resource document, in place, exactly the changes kpt's ResourceList round trip
 * (§7) makes to a resource a function received and returned unchanged, as the last item of the
 * list (what follows a resource in the list can claim its trailing comments; that cross-resource
 * effect is not modelled). `input`, when the function edited the tree, is the resource as the
 * function received it: where the real round trip runs, comments come from it.
 *
 * Without foot comments the round trip only moves the document's head and foot comments onto the
 * root mapping, turns folded scalars double-quoted (with the value go-yaml reads back from its own
 * folded output) and copies sequence items' first-key head comments onto the items; this is done
 * directly, O(nodes), allocating nothing when nothing changes. Foot comments, scalar values' head
 * comments and explicit (`? `)
 * keys re-associate in the list's layout, so a resource that has any goes through the real round
 * trip instead.
 *
 * Answers true when the tree below the document had nothing to rewrite: then a second call
 * changes nothing until the tree holds a comment, folded scalar or `? ` key again (the engine
 * skips items it knows are so, src/engine/call.ts).
 */
export function normalizeAfterFunction(doc: YNode, input?: YNode): boolean {
  const root = rootOf(doc);
  if (!root) return false;
  // One read-only pass decides the common case: nothing to re-associate or rewrite in the tree.
  const found = scan(root, false, 0);
  if (found !== 0 && needsRealRoundTrip(root)) {
    realRoundTrip(doc, root, input ?? doc);
    return false;
  }
  if (doc.kind === 'document') {
    if (doc.headComment) {
      if (!root.headComment) root.headComment = doc.headComment;
      doc.headComment = '';
    }
    if (doc.footComment) {
      if (!root.footComment) root.footComment = doc.footComment;
      doc.footComment = '';
    }
  }
  if (found !== 0) normalizeWalk(root, false, 0);
  // A document foot moved onto the root is a foot comment in the tree: the next call re-associates it.
  return found === 0 && !root.footComment;
}

const CHANGE = 1;
const REAL = 2;

/**
 * 0 when the tree has nothing normalizeWalk would change and needsRealRoundTrip would reject;
 * otherwise non-zero (REAL as soon as a foot comment, explicit key or scalar value's head comment is
 * seen). Allocates nothing.
 */
function scan(n: YNode, inSequence: boolean, depth: number): number {
  if (depth > 10_000) return REAL;
  if (n.footComment) return REAL;
  const c = n.content;
  if (n.kind === 'scalar') return n.style === 'folded' ? CHANGE : 0;
  let found = 0;
  if (n.kind === 'mapping') {
    for (let i = 0; i < c.length; i += 2) {
      if (explicitKey(c[i])) return REAL;
      if (lateValueHead(c[i + 1])) return REAL;
    }
  } else if (n.kind === 'sequence' && !inSequence) {
    for (let i = 0; i < c.length; i++) {
      const item = c[i];
      const first = item.content[0];
      if (
        first &&
        first.kind === 'scalar' &&
        first.headComment &&
        (item.kind === 'mapping' || item.kind === 'sequence')
      ) {
        found = CHANGE;
        break;
      }
    }
  }
  const nested = n.kind === 'sequence';
  for (let i = 0; i < c.length; i++) {
    const child = c[i];
    // Scalars (most nodes) inline: same answer as scan(child), without the call.
    if (child.kind === 'scalar' && depth < 10_000) {
      if (child.footComment) return REAL;
      if (child.style === 'folded') found |= CHANGE;
      continue;
    }
    found |= scan(child, nested, depth + 1);
    if (found & REAL) return found;
  }
  return found;
}

/** A scalar value's head comment: written late (emit.ts mapping), it comes back as a foot. */
function lateValueHead(v: YNode | undefined): boolean {
  return v !== undefined && v.headComment !== '' && v.kind !== 'mapping' && v.kind !== 'sequence';
}

/** A mapping key go-yaml writes in the explicit `? ` form. */
function explicitKey(k: YNode): boolean {
  if (k.kind === 'mapping' || k.kind === 'sequence' || k.value.length > 40 || k.value.includes('\n')) {
    if (
      k.kind !== 'scalar' ||
      k.value.includes('\n') ||
      // Counted, not encoded: keys over 40 characters are common (kpt's own annotation names).
      utf8Length(k.anchor) + utf8Length(k.tag) + utf8Length(k.value) > 100
    )
      return true;
  }
  return false;
}

/** Feet, keys written in the explicit `? ` form, or scalar values' heads re-associate in the list's layout. */
function needsRealRoundTrip(root: YNode): boolean {
  const stack: YNode[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.footComment) return true;
    const c = n.content;
    if (n.kind === 'mapping') {
      for (let i = 0; i < c.length; i += 2) if (explicitKey(c[i]) || lateValueHead(c[i + 1])) return true;
    }
    for (let i = 0; i < c.length; i++) stack.push(c[i]);
  }
  return false;
}

/**
 * Emits the resource as the only item of a ResourceList, reads it back and restores it as kyaml
 * does: comments copied from `input`, the item as the function received it (kyaml v0.15.0
 * `fn/runtime/runtimeutil/functiontypes.go`, FunctionFilter.Filter), so a comment the function
 * added is not copied a second time beside the place the read-back gave it.
 */
function realRoundTrip(doc: YNode, root: YNode, input: YNode): void {
  const list = mappingNode([
    strNode('apiVersion'),
    strNode('config.kubernetes.io/v1'),
    strNode('kind'),
    strNode('ResourceList'),
    strNode('items'),
    sequenceNode([root]),
  ]);
  const text = emitYamlDocument(documentNode(list), 'compact');
  const back = parsePiece({ text, firstLine: 1, file: undefined, limits: DEFAULT_LIMITS });
  const item = back && mapGet(back.content[0], 'items')?.content[0];
  if (!item) return;
  copyComments(input, item);
  syncOrder(doc, item);
  if (doc.kind === 'document') {
    doc.content[0] = item;
    doc.headComment = doc.footComment = '';
  }
}

function normalizeWalk(n: YNode, inSequence: boolean, depth: number): void {
  if (depth > 10_000) return;
  if (n.kind === 'scalar') {
    if (n.style === 'folded') {
      n.value = reflowFolded(n.value);
      n.style = 'double';
    }
    return;
  }
  if (n.kind === 'mapping') {
    const c = n.content;
    for (let i = 0; i < c.length; i++) normalizeWalk(c[i], false, depth + 1);
    return;
  }
  if (n.kind === 'sequence') {
    if (!inSequence) liftItemHeads(n);
    for (const item of n.content) normalizeWalk(item, true, depth + 1);
  }
}
