/**
 * The command registry of the `krmfn` CLI. Each command lives in its own file in this folder and
 * is listed here once (keep the list sorted by name).
 */
import type { Command } from '../io.ts';
import { buildCommand } from './build.ts';
import { docCommand } from './doc.ts';
import { evalCommand } from './eval.ts';
import { functionsCommand } from './functions.ts';
import { initCommand } from './init.ts';
import { renderCommand } from './render.ts';
import { runCommand } from './run.ts';
import { serveCommand } from './serve.ts';
import { sinkCommand } from './sink.ts';
import { sourceCommand } from './source.ts';
import { starlarkCommand } from './starlark.ts';
import { testCommand } from './test.ts';
import { versionCommand } from './version.ts';
import { wasmCommand } from './wasm.ts';

export const COMMANDS: readonly Command[] = Object.freeze([
  buildCommand,
  docCommand,
  evalCommand,
  functionsCommand,
  initCommand,
  renderCommand,
  runCommand,
  serveCommand,
  sinkCommand,
  sourceCommand,
  starlarkCommand,
  testCommand,
  versionCommand,
  wasmCommand,
]);
