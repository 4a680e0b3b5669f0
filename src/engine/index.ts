/** The engine's public surface (re-exported by src/index.ts). */
export { render, displayName } from './render.ts';
export { evaluate, type EvalOptions } from './eval.ts';
export { createRuntimeChain, selectRuntimes, type RuntimeChainOptions, type RuntimeChoice } from './chain.ts';
export { toBytesRunner } from './to-bytes-runner.ts';
export { runFunction, type RunFunctionOptions } from './run-function.ts';
export { runWithDeadline } from './deadline.ts';
export { FunctionCallError, isFunctionCallError } from './call-error.ts';
export { errorStyle } from './error-style.ts';
export { formatEvent, formatFailure, formatGoDuration, formatResultLine, type TextOptions } from './text-output.ts';
export { parseKrmignore, type IgnoreMatcher } from './krmignore.ts';
export { splitCommandLine } from './shlex.ts';
export type { EngineEvent, EventSink } from './events.ts';
export type {
  EngineFailure,
  EngineHost,
  ErrorStyle,
  FileChange,
  OutputMode,
  RenderOptions,
  RunOutcome,
} from './types.ts';
