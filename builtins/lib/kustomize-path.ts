/**
 * kustomize/kyaml field paths as `replacements` use them: `.`-separated segments, `[k=v]` list
 * selectors (`containers.[name=app].image` or `containers[name=app].image`), `[=v]` for scalar
 * lists, numeric indexes, `*` wildcards (api v0.19), and dots inside brackets kept together.
 */
import {
  type KubeObject,
  mapGet,
  mappingNode,
  type PathSegment,
  sequenceNode,
  strNode,
  type YNode,
} from '../../sdk/index.ts';

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
    const c = path[i];
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

/** The path of every node `segs` reaches in `obj` (several with wildcards); no creation. */
export function lookupAll(obj: KubeObject, segs: readonly KSegment[]): PathSegment[][] {
  let cur: PathSegment[][] = [[]];
  for (const seg of segs) {
    const next: PathSegment[][] = [];
    for (const p of cur) next.push(...step(obj, p, seg));
    cur = next;
    if (cur.length === 0) break;
  }
  return cur;
}

function nodeAt(obj: KubeObject, path: PathSegment[]): YNode | undefined {
  return path.length === 0 ? obj.root : obj.getNode(path);
}

function step(obj: KubeObject, path: PathSegment[], seg: KSegment): PathSegment[][] {
  const n = nodeAt(obj, path);
  if (!n) return [];
  switch (seg.kind) {
    case 'key':
      return n.kind === 'mapping' && mapGet(n, seg.key) ? [[...path, seg.key]] : [];
    case 'index':
      return n.kind === 'sequence' && n.content[seg.index] ? [[...path, seg.index]] : [];
    case 'match': {
      if (n.kind !== 'sequence') return [];
      const out: PathSegment[][] = [];
      n.content.forEach((el, i) => {
        const hit =
          seg.field === ''
            ? el.kind === 'scalar' && el.value === seg.value
            : el.kind === 'mapping' && mapGet(el, seg.field)?.value === seg.value;
        if (hit) out.push([...path, i]);
      });
      return out;
    }
    case 'wildcard':
      if (n.kind === 'sequence') return n.content.map((_, i) => [...path, i]);
      if (n.kind === 'mapping') return n.content.filter((_, i) => i % 2 === 0).map((k) => [...path, k.value]);
      return [];
  }
}

/**
 * Looks the path up, creating what is missing through `KubeObject.set` (so the write guard
 * applies): mappings for keys (a null mapping value becomes a mapping), sequences before
 * `[k=v]` selectors and a new `{k: v}` element when no element matches. The last node, when
 * created, is an empty string the caller overwrites. Returns no path when the walk runs through a
 * scalar or uses a wildcard/index that does not exist.
 */
export function lookupCreate(obj: KubeObject, segs: readonly KSegment[]): PathSegment[][] {
  let cur: PathSegment[][] = [[]];
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i];
    const nextSeg = segs[i + 1];
    const next: PathSegment[][] = [];
    for (const p of cur) {
      const found = step(obj, p, seg);
      if (found.length > 0) {
        next.push(...found);
        continue;
      }
      const n = nodeAt(obj, p);
      if (!n) continue;
      const fresh = (): YNode =>
        nextSeg === undefined
          ? strNode('')
          : nextSeg.kind === 'match' || nextSeg.kind === 'index'
            ? sequenceNode()
            : mappingNode();
      if (seg.kind === 'key' && (n.kind === 'mapping' || (n.kind === 'scalar' && n.tag === '!!null'))) {
        if (n.kind === 'scalar') obj.set(p, mappingNode());
        obj.set([...p, seg.key], fresh());
        next.push([...p, seg.key]);
      } else if (seg.kind === 'match' && n.kind === 'sequence') {
        const el = seg.field === '' ? strNode(seg.value) : mappingNode([strNode(seg.field), strNode(seg.value)]);
        obj.set([...p, n.content.length], el);
        next.push([...p, n.content.length - 1]);
      }
    }
    cur = next;
    if (cur.length === 0) return [];
  }
  return cur;
}
