/**
 * The engine's public option and outcome types. Stable API: the CLI, `krmfn serve` and browser
 * hosts build on these. Paths are absolute slash paths in the injected `PackageFs`.
 */
import type { KrmfnError } from '../core/errors.ts';
import type { FunctionRuntime } from '../core/function.ts';
import type { PackageFs } from '../core/fs.ts';
import type { KptVersion } from '../core/kpt-version.ts';
import type { Limits } from '../core/limits.ts';
import type { FunctionResultList } from '../core/result.ts';
import type { EventSink } from './events.ts';

/** Where output goes: in place (default), a ResourceList on stdout, a plain stream, or a new directory. */
export type OutputMode = { kind: 'in-place' } | { kind: 'stdout' } | { kind: 'unwrap' } | { kind: 'dir'; dir: string };

/** Host capabilities shared by render and eval. */
export interface EngineHost {
  fs: PackageFs;
  /** The runtime chain (see createRuntimeChain / createEngine). */
  runtime: FunctionRuntime;
  /** Working directory exec functions run in and resolve against ('/' when unknown). */
  cwd?: string;
  /** Environment given to functions that may see one (exec). */
  env?: Readonly<Record<string, string>>;
  limits?: Partial<Limits>;
  /** Epoch-millisecond clock used for deadlines and durations. */
  now?: () => number;
  onEvent?: EventSink;
  signal?: AbortSignal;
  allowExec?: boolean;
  allowWasm?: boolean;
  allowNetwork?: boolean;
  output?: OutputMode;
  /** Directory to write `results.yaml` into (created if missing). */
  resultsDir?: string;
  /** Which kpt release to behave as (src/core/kpt-version.ts; default DEFAULT_KPT_VERSION). */
  kptVersion?: KptVersion;
  /** kpt beta.67+ `--image-prefix`: registry for short image names ('' leaves them alone). */
  imagePrefix?: string;
  /** Released versions of an image (no tag), for semantic-version `tag:` constraints (kpt beta.67+). */
  listTags?: (image: string) => readonly string[];
}

export interface RenderOptions extends EngineHost {
  /** Absolute path of the root package. */
  root: string;
  /** kpt's KCC attribution (`KPT_DISABLE_ATTRIBUTION` turns it off). Default true. */
  attribution?: boolean;
  /** In-place mode only: compute everything, write nothing, report the changes (`--diff`). */
  dryRun?: boolean; /**
   * Sibling subpackages hydrated at most this many at a time (src/engine/sibling-render.ts); the
   * output is the sequential render's. Default 1: one after another.
   */
  jobs?: number;
}

/** One file an in-place run changed (or would change, with dryRun). Texts are undefined for created/deleted files. */
export interface FileChange {
  /** Absolute path. */
  path: string;
  before: string | undefined;
  after: string | undefined;
}

/** How the CLI should print an error (docs/kpt-semantics.md, "CLI text"). */
export type ErrorStyle =
  /** `Error: <message> ` + newline (kpt typed errors and the Kptfile resolvers). */
  | 'typed'
  /** `<message> ` + newline: kpt's ValidateError text, printed without a prefix. */
  | 'bare'
  /** `error: <message>` (plain Go errors through the kubectl-style handler). */
  | 'plain'
  /** Already reported by the [FAIL] block (`Exit code: N`): print nothing more. */
  | 'none';

export interface EngineFailure {
  error: KrmfnError;
  style: ErrorStyle;
}

export interface RunOutcome {
  ok: boolean;
  failure?: EngineFailure;
  results: FunctionResultList;
  /** Functions that ran successfully (mutators and validators). */
  functionsRun: number;
  /** Packages whose pipeline completed (render). */
  packagesRun: number;
  /** Packages render reached, completed or not (kpt beta.67's failure summary counts these). */
  packagesVisited?: number;
  /** kpt beta.67 `kpt.dev/save-on-render-failure`: the failed render still wrote what it had. */
  savedOnFailure?: boolean;
  /** Text for stdout in `stdout`/`unwrap` modes and eval from stdin. */
  stdout?: string;
  /** Absolute path of the results file written, if any. */
  resultsFile?: string;
  /** Absolute paths written and deleted (with dryRun: that would be). */
  written: string[];
  deleted: string[];
  /** In-place runs: every file whose bytes changed, before and after. */
  changes?: FileChange[];
  /** A line kpt prints after the results line (the `eval --save` outcome). */
  notice?: string;
}
