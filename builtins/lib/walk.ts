/**
 * Depth-first walks over a YAML node tree, reporting each node with its path. Paths are printed
 * the way kyaml-based catalog functions print them in results: `spec.containers[0].image`
 * (keys joined with `.`, never quoted; sequence indexes as `[n]`).
 */
import type { PathSegment, YNode } from '../../sdk/index.ts';

export interface Visit {
  node: YNode;
  path: PathSegment[];
  /** The key node when `node` is a mapping value. */
  key?: YNode;
  /** The mapping or sequence holding `node`. */
  parent?: YNode;
}

/**
 * Calls `fn` for every node below (and including) `root`, parents before children, in document
 * order. Keys are not visited as nodes. Alias nodes are reported but not followed. Returning
 * `'skip'` from `fn` skips the node's children.
 */
export function walk(root: YNode, fn: (v: Visit) => void | 'skip', path: PathSegment[] = []): void {
  const rec = (v: Visit): void => {
    if (fn(v) === 'skip') return;
    const n = v.node;
    if (n.kind === 'mapping') {
      for (let i = 0; i + 1 < n.content.length; i += 2) {
        const k = n.content[i];
        rec({ node: n.content[i + 1], path: [...v.path, k.value], key: k, parent: n });
      }
    } else if (n.kind === 'sequence') {
      n.content.forEach((c, i) => rec({ node: c, path: [...v.path, i], parent: n }));
    } else if (n.kind === 'document' && n.content[0]) {
      rec({ node: n.content[0], path: v.path });
    }
  };
  rec({ node: root, path });
}

/** `['spec', 'containers', 0, 'image']` → `spec.containers[0].image`. */
export function kyamlPath(path: readonly PathSegment[]): string {
  let s = '';
  for (const seg of path) {
    if (typeof seg === 'number') s += `[${seg}]`;
    else s += s ? `.${seg}` : seg;
  }
  return s;
}

/**
 * The traversal of the kyaml-based setter functions (catalog functions/go/apply-setters and
 * search-replace, `walk.go` `acceptImpl`): at a mapping, `mapping(node, path)` runs first (it may
 * replace field values), then each field value is visited in order; list items in order; scalars
 * go to `scalar`. Keys are not visited; aliases are not followed.
 */
export function acceptKyaml(
  root: YNode,
  mapping: (node: YNode, path: PathSegment[]) => void,
  scalar: (node: YNode, path: PathSegment[]) => void,
): void {
  const rec = (node: YNode, path: PathSegment[]): void => {
    if (node.kind === 'document') {
      if (node.content[0]) rec(node.content[0], path);
    } else if (node.kind === 'mapping') {
      mapping(node, path);
      for (let i = 0; i + 1 < node.content.length; i += 2) rec(node.content[i + 1], [...path, node.content[i].value]);
    } else if (node.kind === 'sequence') {
      node.content.forEach((c, i) => rec(c, [...path, i]));
    } else if (node.kind === 'scalar') scalar(node, path);
  };
  rec(root, []);
}
