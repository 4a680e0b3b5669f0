/**
 * Start-up loads only what a command needs: the modules `src/node/cli.ts` imports statically
 * (transitively) are the dispatcher, the command table and the help, never a command's
 * implementation, the engine, the built-ins or an interpreter; those arrive through each table
 * entry's `load` (a dynamic import) when the command runs.
 */
import { expect, test } from 'vitest';
import { COMMANDS } from '../../src/node/commands/specs/index.ts';
import { staticClosure } from '../harness/static-imports.ts';

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
