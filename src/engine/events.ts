/**
 * What the engine reports while it runs. The engine never prints: the CLI (src/engine/text-output.ts)
 * turns these events into kpt's stderr text, `krmfn serve` streams them, tests assert on them.
 */
import type { KrmfnError } from '../core/errors.ts';
import type { Result } from '../core/result.ts';

export type EngineEvent =
  /** A package's pipeline starts (render only); `displayPath` is relative to the root's parent. */
  | { type: 'package-start'; displayPath: string; functions: number }
  /** A package's pipeline finished successfully. */
  | { type: 'package-end'; displayPath: string; functions: number }
  | {
      type: 'function-start';
      name: string;
      wasm: boolean;
      /** Set when the function has selectors/exclude. */ selected?: number;
    }
  | {
      type: 'function-end';
      name: string;
      ok: boolean;
      durationMs: number;
      results: Result[];
      stderr: string;
      /** The function's own exit code; set when it ran to completion. */
      exitCode?: number;
      /** The failure is the function's non-zero exit (kpt prints `Exit code: N`, no error line). */
      exitFailure: boolean;
      error?: KrmfnError;
    }
  /** A line kpt prints as is (e.g. eval --save's `Added "<fn>" as mutator in the Kptfile.`). */
  | { type: 'message'; message: string }
  | { type: 'warning'; message: string };

export type EventSink = (e: EngineEvent) => void;
