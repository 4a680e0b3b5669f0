/**
 * kustomize FieldSpecs (catalog.md §3.3), for functions that emulate kustomize transformers:
 * `{group, version, kind, path: "a/b/c", create}`. Empty group/version/kind match anything; `path`
 * is `/`-separated; a sequence met along the path is traversed element-wise (a `[]` suffix marks
 * one explicitly); with `create`, missing mappings and the final field are created.
 */
import type { KubeObject } from '../src/core/kube-object.ts';
import type { PathSegment } from '../src/core/field-path.ts';

export interface FieldSpec {
  group?: string;
  version?: string;
  kind?: string;
  path: string;
  create?: boolean;
}

/** JSON Schema of one FieldSpec (for function config schemas). */
export const FIELD_SPEC_SCHEMA = Object.freeze({
  type: 'object',
  required: ['path'],
  properties: {
    group: { type: 'string' },
    version: { type: 'string' },
    kind: { type: 'string' },
    path: { type: 'string', description: '`/`-separated field path; sequences are traversed element-wise.' },
    create: { type: 'boolean' },
  },
});

/** The FieldSpec-shaped entries (objects with a string `path`) of a config value, as given. */
export function fieldSpecList(v: unknown): FieldSpec[] {
  return Array.isArray(v)
    ? v.filter((s): s is FieldSpec => typeof s === 'object' && s !== null && typeof (s as FieldSpec).path === 'string')
    : [];
}

export function fieldSpecMatches(obj: KubeObject, fs: FieldSpec): boolean {
  return (
    (!fs.group || fs.group === obj.group) &&
    (!fs.version || fs.version === obj.version) &&
    (!fs.kind || fs.kind === obj.kind)
  );
}

/**
 * Calls `visit` with the path of every target field of `fs` in `obj`: existing ones, and with
 * `create` the missing ones whose missing part contains no sequence. `exists` tells which.
 * Does not check the GVK (see `fieldSpecMatches`).
 */
export function visitFieldSpec(
  obj: KubeObject,
  fs: FieldSpec,
  visit: (path: PathSegment[], exists: boolean) => void,
): void {
  const parts = fs.path
    .split('/')
    .filter((p) => p !== '')
    .map((p) => (p.endsWith('[]') ? p.slice(0, -2) : p));
  const walk = (prefix: PathSegment[], i: number): void => {
    const node = obj.getNode(prefix);
    if (i === parts.length) {
      if (node) visit(prefix, true);
      else if (fs.create) visit(prefix, false);
      return;
    }
    if (!node) {
      if (fs.create) visit([...prefix, ...parts.slice(i)], false);
      return;
    }
    if (node.kind === 'sequence') {
      node.content.forEach((_, idx) => walk([...prefix, idx], i));
      return;
    }
    if (node.kind !== 'mapping') return;
    walk([...prefix, parts[i]!], i + 1);
  };
  walk([], 0);
}
