/**
 * The Starlark interpreter's packages form a one-way pipeline (docs/starlark.md, "The language"):
 * no import cycle between the folders of src/starlark (syntax, resolve, compile, eval, value, lib,
 * testing, and the top-level files, each its own node), and none between its files. Type-only
 * imports count: a cycle of types is a cycle of design (the syntax tree holds the resolver's
 * annotations as opaque slots instead of importing its types, as google/starlark-go syntax/syntax.go
 * does).
 */
import { describe, expect, it } from 'vitest';
import { addEdge, importCycles, importEdges, sourceFiles } from './import-graph.ts';

const PREFIX = 'src/starlark/';

/** `src/starlark/value/ops.ts` -> `value`; a top-level file is its own node (`errors.ts`). */
function folderOf(file: string): string {
  return file.slice(PREFIX.length).split('/')[0];
}

describe('src/starlark import graph', () => {
  const edges = importEdges(sourceFiles([PREFIX])).filter((e) => e.to.startsWith(PREFIX));

  it('reads the interpreter', () => {
    expect(edges.length).toBeGreaterThan(200);
  });

  it('has no cycle between folders', () => {
    const graph = new Map<string, Set<string>>();
    for (const { from, to } of edges) {
      if (folderOf(from) !== folderOf(to)) addEdge(graph, folderOf(from), folderOf(to));
    }
    expect(importCycles(graph)).toEqual([]);
  });

  it('has no cycle between files', () => {
    const graph = new Map<string, Set<string>>();
    for (const { from, to } of edges) addEdge(graph, from, to);
    expect(importCycles(graph)).toEqual([]);
  });

  it('finds a cycle when there is one', () => {
    const graph = new Map<string, Set<string>>();
    addEdge(graph, 'syntax', 'resolve');
    addEdge(graph, 'resolve', 'value');
    addEdge(graph, 'value', 'syntax');
    addEdge(graph, 'lib', 'value');
    expect(importCycles(graph)).toEqual([['resolve', 'syntax', 'value']]);
  });
});
