/**
 * Import rules (docs/architecture.md, "The layers"): each top-level folder is one layer and imports
 * point one way. The test reads every relative import (static, `export … from`, dynamic) of the
 * source tree and fails on an import a layer may not make, on a cycle between layers, and on a CLI
 * command importing another command. Known debts are listed by name below so that they are visible
 * and cannot grow.
 */
import { describe, expect, it } from 'vitest';
import { addEdge, importCycles, importEdges, sourceFiles } from './import-graph.ts';

type Layer = 'core' | 'starlark' | 'wasm' | 'engine' | 'sdk' | 'builtins' | 'runtimes' | 'index' | 'node' | 'web';

/** What each layer may import (besides itself). */
const ALLOWED: Record<Layer, readonly Layer[]> = {
  core: [],
  starlark: [],
  wasm: [],
  engine: ['core'],
  sdk: ['core'],
  builtins: ['sdk'],
  runtimes: ['core', 'starlark', 'wasm', 'engine'],
  index: ['core', 'engine', 'runtimes', 'builtins', 'sdk', 'starlark', 'wasm'],
  node: ['core', 'engine', 'runtimes', 'builtins', 'sdk', 'starlark', 'wasm', 'index'],
  web: [],
};

/**
 * Wrong-way imports that exist today, each tracked by an open issue. None is left: the list stays so
 * that a new debt has to be named here. Remove an entry when its import goes away.
 */
const DEBTS: readonly string[] = [];

/** Command files that other commands may import (shared helpers, not commands). */
const COMMAND_HELPERS = new Set(['help.ts', 'render-watch.ts']);

function layerOf(file: string): Layer | undefined {
  if (file === 'src/index.ts') return 'index';
  for (const [prefix, layer] of [
    ['src/core/', 'core'],
    ['src/starlark/', 'starlark'],
    ['src/engine/', 'engine'],
    ['src/runtimes/', 'runtimes'],
    ['src/node/', 'node'],
    ['sdk/', 'sdk'],
    ['builtins/', 'builtins'],
    ['wasm/', 'wasm'],
    ['web/', 'web'],
  ] as const) {
    if (file.startsWith(prefix)) return layer;
  }
  return undefined;
}

describe('import rules', () => {
  const all = importEdges(sourceFiles(['src', 'sdk', 'builtins', 'wasm', 'web/src']));

  it('reads the source tree', () => {
    expect(all.length).toBeGreaterThan(500);
  });

  it('every import between layers points the allowed way', () => {
    const wrong = new Set<string>();
    for (const { from, to } of all) {
      const a = layerOf(from);
      const b = layerOf(to);
      if (!a || !b || a === b) continue;
      if (ALLOWED[a].includes(b) || DEBTS.includes(`${a} -> ${b}`)) continue;
      wrong.add(`${from} -> ${to} (${a} -> ${b})`);
    }
    expect([...wrong]).toEqual([]);
  });

  it('lists no debt that is already paid', () => {
    const seen = new Set<string>();
    for (const { from, to } of all) {
      const a = layerOf(from);
      const b = layerOf(to);
      if (a && b && a !== b) seen.add(`${a} -> ${b}`);
    }
    expect(DEBTS.filter((d) => !seen.has(d))).toEqual([]);
  });

  it('has no cycle between layers', () => {
    const graph = new Map<Layer, Set<Layer>>();
    for (const { from, to } of all) {
      const a = layerOf(from);
      const b = layerOf(to);
      if (a && b && a !== b) addEdge(graph, a, b);
    }
    expect(importCycles(graph)).toEqual([]);
  });

  it('built-ins import nothing but the SDK and each other', () => {
    const wrong = all
      .filter(({ from, to }) => from.startsWith('builtins/') && !to.startsWith('builtins/') && !to.startsWith('sdk/'))
      .map(({ from, to }) => `${from} -> ${to}`);
    expect(wrong).toEqual([]);
  });

  it('no CLI command imports another command', () => {
    const wrong: string[] = [];
    for (const { from, to } of all) {
      if (!from.startsWith('src/node/commands/') || !to.startsWith('src/node/commands/')) continue;
      const a = from.slice('src/node/commands/'.length);
      const b = to.slice('src/node/commands/'.length);
      if (a === 'index.ts' || a.startsWith('specs/') || COMMAND_HELPERS.has(b) || b.includes('/')) continue;
      wrong.push(`${a} -> ${b}`);
    }
    expect(wrong).toEqual([]);
  });
});
