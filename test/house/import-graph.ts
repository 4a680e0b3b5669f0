/**
 * The repository's relative import graph, for the house rules on imports (test/house/layers.test.ts,
 * test/house/starlark-cycles.test.ts): every relative import of a source file (static, type-only,
 * `export … from`, dynamic) as an edge, and the strongly connected components of a graph (each one
 * with more than one node, or a node importing itself, is an import cycle).
 */
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname, join, normalize } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');

const IMPORT_RE = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

export interface Edge {
  from: string;
  to: string;
}

/** TypeScript sources under `dirs` (tracked or new, not ignored), repo-relative with `/`. */
export function sourceFiles(dirs: readonly string[]): string[] {
  const out = execFileSync('git', ['ls-files', '-co', '--exclude-standard', ...dirs], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return out.split('\n').filter((f) => /\.(ts|mts)$/.test(f) && !f.endsWith('.d.ts') && !f.includes('/testdata/'));
}

/** One edge per relative import in `files`, targets normalised to repo-relative paths. */
export function importEdges(files: readonly string[]): Edge[] {
  const list: Edge[] = [];
  for (const file of files) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    for (const m of text.matchAll(IMPORT_RE)) {
      list.push({ from: file, to: normalize(join(dirname(file), m[1])).replaceAll('\\', '/') });
    }
  }
  return list;
}

/** The cycles of a directed graph: its strongly connected components that loop (Tarjan), sorted. */
export function importCycles<N extends string>(graph: ReadonlyMap<N, ReadonlySet<N>>): N[][] {
  let counter = 0;
  const index = new Map<N, number>();
  const low = new Map<N, number>();
  const stack: N[] = [];
  const onStack = new Set<N>();
  const cycles: N[][] = [];
  const visit = (v: N): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const component: N[] = [];
    for (;;) {
      const w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
      if (w === v) break;
    }
    if (component.length > 1 || graph.get(v)?.has(v)) cycles.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return cycles.sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

/** Adds the edge `from -> to` to `graph`. */
export function addEdge<N>(graph: Map<N, Set<N>>, from: N, to: N): void {
  let targets = graph.get(from);
  if (targets === undefined) graph.set(from, (targets = new Set()));
  targets.add(to);
}
