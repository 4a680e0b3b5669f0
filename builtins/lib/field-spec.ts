/**
 * kustomize FieldSpecs (`{group, version, kind, path: "a/b/c", create}`), as the kustomize-based
 * catalog functions use them (catalog.md §3.3): empty group/version/kind match anything; `path`
 * is `/`-separated; a sequence met along the path is traversed element-wise (`x[]` marks one
 * explicitly); `create` creates missing mappings on the way.
 */
import type { KubeObject } from '../../src/core/kube-object.ts';
import { mappingNode, mapGet, strNode, type YNode } from '../../src/core/yaml/node.ts';
import { matchesGvk } from './gvk.ts';

import type { FieldSpec } from '../../sdk/field-spec.ts';

export { FIELD_SPEC_SCHEMA, type FieldSpec } from '../../sdk/field-spec.ts';

/** Reads FieldSpecs from plain config data (unknown shapes are ignored). */
export function toFieldSpecs(value: unknown): FieldSpec[] {
  if (!Array.isArray(value)) return [];
  const out: FieldSpec[] = [];
  for (const v of value) {
    if (!v || typeof v !== 'object') continue;
    const o = v as Record<string, unknown>;
    if (typeof o.path !== 'string') continue;
    const fs: FieldSpec = { path: o.path };
    if (typeof o.group === 'string') fs.group = o.group;
    if (typeof o.version === 'string') fs.version = o.version;
    if (typeof o.kind === 'string') fs.kind = o.kind;
    if (o.create === true) fs.create = true;
    out.push(fs);
  }
  return out;
}

/** Splits a FieldSpec path; `\/` escapes a slash inside a key. */
export function splitFieldSpecPath(path: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < path.length; i++) {
    const c = path[i]!;
    if (c === '\\' && path[i + 1] === '/') {
      cur += '/';
      i++;
    } else if (c === '/') {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out.filter((s) => s !== '');
}

/**
 * The target of one FieldSpec on one object: `cb(parent, key)` is called for every mapping that
 * holds (or, with create, should hold) the last path segment. Intermediate mappings are created
 * (appended) when `create` is set. Returns how many targets were reached.
 */
export function forEachFieldSpecTarget(
  obj: KubeObject,
  fs: FieldSpec,
  cb: (parent: YNode, key: string) => void,
): number {
  if (!matchesGvk(obj, fs)) return 0;
  const segs = splitFieldSpecPath(fs.path);
  if (segs.length === 0) return 0;
  let count = 0;
  const rec = (node: YNode, i: number): void => {
    if (node.kind === 'sequence') {
      for (const el of node.content) rec(el, i);
      return;
    }
    if (node.kind !== 'mapping') return;
    const raw = segs[i]!;
    const key = raw.endsWith('[]') ? raw.slice(0, -2) : raw;
    if (i === segs.length - 1) {
      count++;
      cb(node, key);
      return;
    }
    let next = mapGet(node, key);
    if (!next || (next.kind === 'scalar' && next.tag === '!!null')) {
      if (!fs.create || raw.endsWith('[]')) return;
      const created = mappingNode();
      if (next) replaceValue(node, key, created);
      else node.content.push(strNode(key), created);
      next = created;
    }
    rec(next, i + 1);
  };
  rec(obj.root, 0);
  return count;
}

/** Replaces the value of an existing key in a mapping, keeping the key node. */
export function replaceValue(map: YNode, key: string, value: YNode): void {
  for (let i = 0; i + 1 < map.content.length; i += 2) {
    if (map.content[i]!.value === key) {
      map.content[i + 1] = value;
      return;
    }
  }
  map.content.push(strNode(key), value);
}
