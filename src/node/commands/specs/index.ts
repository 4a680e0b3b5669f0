/**
 * The command table of the `krmfn` CLI: every command, declared once in this folder, listed here
 * once (sorted by name). Importing it loads no command implementation (see types.ts, `load`).
 */
import { buildSpec } from './build.ts';
import { checkSpec } from './check.ts';
import { completionSpec } from './completion.ts';
import { docSpec } from './doc.ts';
import { evalSpec } from './eval.ts';
import { functionsSpec } from './functions.ts';
import { initSpec } from './init.ts';
import { renderSpec } from './render.ts';
import { runSpec } from './run.ts';
import { serveSpec } from './serve.ts';
import { sinkSpec } from './sink.ts';
import { sourceSpec } from './source.ts';
import { starlarkSpec } from './starlark.ts';
import { testSpec } from './test.ts';
import { versionSpec } from './version.ts';
import { wasmSpec } from './wasm.ts';
import type { Command } from './types.ts';

export const COMMANDS: readonly Command[] = Object.freeze([
  buildSpec,
  checkSpec,
  completionSpec,
  docSpec,
  evalSpec,
  functionsSpec,
  initSpec,
  renderSpec,
  runSpec,
  serveSpec,
  sinkSpec,
  sourceSpec,
  starlarkSpec,
  testSpec,
  versionSpec,
  wasmSpec,
]);

/** The kpt commands, spelled `krmfn fn NAME` as kpt does. */
export const KPT_COMMANDS: readonly Command[] = COMMANDS.filter((c) => c.kpt === true);

export function findCommand(name: string, table: readonly Command[] = COMMANDS): Command | undefined {
  return table.find((c) => c.name === name);
}
