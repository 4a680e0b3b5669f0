/**
 * kustomize/kyaml field paths as `replacements` use them: `.`-separated segments, `[k=v]` list
 * selectors (`containers.[name=app].image` or `containers[name=app].image`), `[=v]` for scalar
 * lists, numeric indexes, `*` wildcards (api v0.19), and dots inside brackets kept together.
 */
import { mapGet, mappingNode, sequenceNode, strNode, type YNode } from '../../src/core/yaml/node.ts';

export type KSegment =
  | { kind: 'key'; key: string }
  | { kind: 'match'; field: string; value: string }
  | { kind: 'index'; index: number }
  | { kind: 'wildcard' };

export function parseKustomizePath(path: string): KSegment[] {
  const raw: string[] = [];
  let cur = '';
  let depth = 0;
  for (let i = 0; i < path.length; i++) {
    const c = path[i]!;
    if (c === '\\' && path[i + 1] === '.') {
      cur += '.';
      i++;
    } else if (c === '[') {
      if (depth === 0 && cur !== '') {
        raw.push(cur);
        cur = '';
      }
      depth++;
      cur += c;
    } else if (c === ']') {
      depth--;
      cur += c;
    } else if (c === '.' && depth === 0) {
      raw.push(cur);
      cur = '';
    } else cur += c;
  }
  raw.push(cur);
  return raw.filter((s) => s !== '').map(toSegment);
}

function toSegment(s: string): KSegment {
  if (s === '*' || s === '[*]') return { kind: 'wildcard' };
  if (s.startsWith('[') && s.endsWith(']')) {
    const body = s.slice(1, -1);
    const eq = body.indexOf('=');
    if (eq >= 0) return { kind: 'match', field: body.slice(0, eq), value: body.slice(eq + 1) };
    if (/^[0-9]+$/.test(body)) return { kind: 'index', index: Number(body) };
    return { kind: 'key', key: body };
  }
  if (/^[0-9]+$/.test(s)) return { kind: 'index', index: Number(s) };
  return { kind: 'key', key: s };
}

/** Every node the path reaches (several with wildcards); no creation. */
export function lookupAll(root: YNode, segs: readonly KSegment[]): YNode[] {
  let cur: YNode[] = [root];
  for (const seg of segs) {
    const next: YNode[] = [];
    for (const n of cur) next.push(...step(n, seg));
    cur = next;
    if (cur.length === 0) break;
  }
  return cur;
}

function step(n: YNode, seg: KSegment): YNode[] {
  switch (seg.kind) {
    case 'key': {
      if (n.kind !== 'mapping') return [];
      const v = mapGet(n, seg.key);
      return v ? [v] : [];
    }
    case 'index':
      return n.kind === 'sequence' && n.content[seg.index] ? [n.content[seg.index]!] : [];
    case 'match':
      if (n.kind !== 'sequence') return [];
      return n.content.filter((el) =>
        seg.field === ''
          ? el.kind === 'scalar' && el.value === seg.value
          : el.kind === 'mapping' && mapGet(el, seg.field)?.value === seg.value,
      );
    case 'wildcard':
      if (n.kind === 'sequence') return [...n.content];
      if (n.kind === 'mapping') return n.content.filter((_, i) => i % 2 === 1);
      return [];
  }
}

/**
 * Looks the path up, creating what is missing: mappings for keys, sequences before `[k=v]`
 * selectors and a new `{k: v}` element when no element matches. The last node, when created,
 * is an empty scalar placeholder the caller overwrites. Returns undefined when the path runs
 * through a scalar or uses a wildcard/index that does not exist.
 */
export function lookupCreate(root: YNode, segs: readonly KSegment[]): YNode[] {
  let cur: YNode[] = [root];
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i]!;
    const nextSeg = segs[i + 1];
    const next: YNode[] = [];
    for (const n of cur) {
      const found = step(n, seg);
      if (found.length > 0) {
        next.push(...found);
        continue;
      }
      const fresh = (): YNode =>
        nextSeg === undefined
          ? strNode('')
          : nextSeg.kind === 'match' || nextSeg.kind === 'index'
            ? sequenceNode()
            : mappingNode();
      if (seg.kind === 'key' && (n.kind === 'mapping' || (n.kind === 'scalar' && n.tag === '!!null'))) {
        if (n.kind === 'scalar') Object.assign(n, mappingNode());
        const existing = mapGet(n, seg.key);
        const v = fresh();
        if (existing) Object.assign(existing, v);
        else n.content.push(strNode(seg.key), v);
        next.push(existing ?? v);
      } else if (seg.kind === 'match' && n.kind === 'sequence') {
        const el = seg.field === '' ? strNode(seg.value) : mappingNode([strNode(seg.field), strNode(seg.value)]);
        n.content.push(el);
        next.push(el);
      }
    }
    cur = next;
    if (cur.length === 0) return [];
  }
  return cur;
}
