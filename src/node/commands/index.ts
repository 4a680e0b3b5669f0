/**
 * The command registry of the `krmfn` CLI. Each command lives in its own file in this folder and
 * is listed here once (keep the list sorted by name).
 */
import type { Command } from '../io.ts';
import { evalCommand } from './eval.ts';
import { renderCommand } from './render.ts';

export const COMMANDS: readonly Command[] = Object.freeze([evalCommand, renderCommand]);
