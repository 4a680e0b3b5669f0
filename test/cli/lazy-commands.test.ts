/**
 * Start-up loads only what a command needs: the modules `src/node/cli.ts` imports statically
 * (transitively) are the dispatcher, the command table and the help, never a command's
 * implementation, the engine, the built-ins or an interpreter; those arrive through each table
 * entry's `load` (a dynamic import) when the command runs.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { expect, test } from 'vitest';
import { COMMANDS } from '../../src/node/commands/specs/index.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const STATIC_IMPORT = /(?:^|\n)\s*(?:(?:import|export)\s[^'"]*?from\s*|import\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

function staticClosure(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const src = readFileSync(join(ROOT, file), 'utf8');
    for (const m of src.matchAll(STATIC_IMPORT)) {
      if (/^\s*(?:import|export)\s+type\s/.test(m[0].trim())) continue;
      visit(relative(ROOT, normalize(join(ROOT, dirname(file), m[1]))));
    }
  };
  visit(entry);
  return seen;
}

test('the CLI entry statically imports no command implementation', () => {
  const loaded = [...staticClosure('src/node/cli.ts')].sort();
  const heavy = loaded.filter((f) =>
    /^src\/node\/commands\/[^/]+\.ts$/.test(f) && f !== 'src/node/commands/help.ts'
      ? true
      : /^(builtins|sdk|wasm|src\/engine|src\/starlark|src\/runtimes)\//.test(f),
  );
  expect(heavy).toEqual([]);
  expect(loaded).toContain('src/node/commands/specs/index.ts');
});

test('every table entry loads a run function', async () => {
  for (const c of COMMANDS) {
    for (const spec of [c, ...(c.subcommands ?? [])]) expect(typeof (await spec.load()), spec.name).toBe('function');
  }
}, 60_000);
