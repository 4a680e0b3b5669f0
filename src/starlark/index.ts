/**
 * krmfn's Starlark interpreter: a standalone library (no imports from the rest of the repo, no
 * `eval`/`new Function`, runs in Node and browsers).
 *
 * Convenience API: `execFile`, `evalExpr`, `checkFile`. Every stage is also public for tools:
 * `parseFile`/`parseExpr` (syntax), `resolveFile` (static checks), `compileModule`.
 */
export { execFile, evalExpr, checkFile, compileProgram, legacyDialect } from './exec.ts';
export type { Dialect, ExecOptions, ExecResult, Program, RunOptions, StarlarkLimits } from './exec.ts';
export { ThreadImpl as StarlarkThread, POLL_INTERVAL, DEFAULT_MAX_CALL_DEPTH } from './eval/thread.ts';
export type { ThreadOptions } from './eval/thread.ts';
export { StarlarkFunction } from './eval/function.ts';

export {
  StarlarkSyntaxError,
  StarlarkEvalError,
  StarlarkLimitError,
  isStarlarkSyntaxError,
  isStarlarkEvalError,
  isStarlarkLimitError,
  formatStarlarkPosition,
} from './errors.ts';
export type { SyntaxErrorItem, LimitKind } from './errors.ts';

export { parseFile, parseExpr } from './syntax/parser.ts';
export type { ParseOptions } from './syntax/parser.ts';
export { Scanner } from './syntax/scanner.ts';
export type { Token, TokenKind, Pos } from './syntax/tokens.ts';
export type * as ast from './syntax/ast.ts';
export { resolveFile } from './resolve/resolver.ts';
export type { ResolveOptions, ResolveEnv, ResolvedModule } from './resolve/resolver.ts';
export { compileModule } from './compile/compiler.ts';

// The value model, for hosts that build or read values.
export { None } from './value/contract.ts';
export type { Value, Callable, Thread, Kwargs, FrameInfo, StarlarkObject } from './value/contract.ts';
export { Float } from './value/float.ts';
export { Bytes } from './value/bytes.ts';
export { List, Tuple } from './value/list.ts';
export { Dict, StarlarkSet } from './value/hashtable.ts';
export { Range } from './value/range.ts';
export { Struct, Module } from './value/struct.ts';
export { Builtin } from './value/builtin.ts';
export type { BuiltinImpl } from './value/builtin.ts';
export { EvalError, fail } from './value/errors.ts';
export { repr, str, typeName, truth, equal, compare, freeze, getIndex, iterate } from './value/ops.ts';
export { getAttr } from './lib/attrs.ts';
export { fromHostString, toHostString } from './value/string.ts';
export { UNIVERSE, STRUCT_BUILTINS } from './lib/universe.ts';
export { JSON_MODULE, jsonModuleOf } from './lib/json.ts';
export { STARLARK_GO_CHANGES, STARLARK_GO_HEAD, starlarkGoRelease } from './release.ts';
export type { StarlarkGoChange, StarlarkGoRelease } from './release.ts';
export { MATH_MODULE } from './lib/math.ts';
