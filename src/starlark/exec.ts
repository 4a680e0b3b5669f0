/**
 * Running a module: parse → resolve → compile → execute the top level on a thread → freeze the
 * globals. Also `evalExpr` for REPLs. All host strings (names, file names, print output) are host
 * (UTF-16) strings; values use the binary-string representation.
 */
import { withAllocSink } from './value/alloc-sink.ts';
import type { Value } from './value/contract.ts';
import { UNIVERSE } from './lib/universe.ts';
import { parseExpr, parseFile, type ParseOptions } from './syntax/parser.ts';
import { resolveFile } from './resolve/resolver.ts';
import type { ResolveOptions } from './resolve/resolver.ts';
import { compileModule } from './compile/compiler.ts';
import type { CompiledModule } from './compile/compiler.ts';
import { binaryToHost, hostToBinary } from './syntax/utf8.ts';
import { Cell, Frame } from './eval/frame.ts';
import type { Slot } from './eval/frame.ts';
import { ThreadImpl } from './eval/thread.ts';
import { STARLARK_GO_HEAD, type StarlarkGoRelease } from './release.ts';
import { traced } from './eval/function.ts';
import { freezeDeep } from './eval/freeze-deep.ts';
import type { ThreadLimits } from './eval/thread.ts';
import type { File } from './syntax/ast.ts';
import { StarlarkSyntaxError } from './errors.ts';

/** Dialect options; all off is the strict dialect (spec §10.2). */
export interface Dialect {
  set?: boolean;
  while?: boolean;
  recursion?: boolean;
  globalReassign?: boolean;
  topLevelControl?: boolean;
  loadBindsGlobally?: boolean;
}

export type StarlarkLimits = ThreadLimits;

export interface ExecOptions {
  filename: string;
  source: string;
  /** Host names → values visible to the script (besides the universe). Not frozen. */
  predeclared?: Record<string, Value>;
  dialect?: Dialect;
  /** Ignored when `thread` is given (the thread carries its own). */
  limits?: StarlarkLimits;
  print?: (msg: string) => void;
  load?: (module: string) => Record<string, Value>;
  /** The google/starlark-go release to follow (default HEAD; ignored when `thread` is given). */
  release?: StarlarkGoRelease;
  /** Run on an existing thread (shares its step budget, print, load and cancellation). */
  thread?: ThreadImpl;
  /**
   * Freeze the module's globals after its top level runs (default true: modules are immutable
   * once initialised). A REPL turns it off so values stay mutable across inputs, as starlark-go's does.
   */
  freeze?: boolean;
}

export interface ExecResult {
  /** The module's globals (host names), frozen. Unassigned globals are absent. */
  globals: Record<string, Value>;
  thread: ThreadImpl;
}

/**
 * starlark-go's legacy global flags (its CLI and the KRM function): `AllowSet` (default true),
 * `AllowGlobalReassign` (→ while, top-level control, global reassignment), `AllowRecursion`.
 */
export function legacyDialect(flags: { set?: boolean; globalReassign?: boolean; recursion?: boolean }): Dialect {
  const gr = flags.globalReassign === true;
  return {
    set: flags.set !== false,
    while: gr,
    topLevelControl: gr,
    globalReassign: gr,
    recursion: flags.recursion === true,
  };
}

function toMap(rec: Record<string, Value> | undefined): Map<string, Value> {
  const m = new Map<string, Value>();
  if (rec !== undefined) for (const k of Object.keys(rec)) m.set(hostToBinary(k), rec[k]);
  return m;
}

const UNIVERSE_MAP: Map<string, Value> = toMap(UNIVERSE);

/** The universal names of a release: `bytes` only since google/starlark-go 2021-02-12 (#330). */
function universeOf(release: StarlarkGoRelease): (name: string) => boolean {
  if (release.has('bytesType')) return (n) => UNIVERSE_MAP.has(n);
  return (n) => n !== 'bytes' && UNIVERSE_MAP.has(n);
}

/** The parser's options: what the release does differently (src/starlark/release.ts). */
function parseOptions(release: StarlarkGoRelease): ParseOptions {
  return {
    primaryErrorAtTokenStart: release.has('primaryErrorAtTokenStart'),
    reservedWordTokens: release.has('reservedWordTokens'),
  };
}

/** The resolver's options: the dialect, plus what the release refuses (src/starlark/release.ts). */
function resolveOptions(d: Dialect, release: StarlarkGoRelease = STARLARK_GO_HEAD): ResolveOptions {
  const o: ResolveOptions = {
    set: d.set === true,
    while: d.while === true,
    topLevelControl: d.topLevelControl === true,
    globalReassign: d.globalReassign === true,
    loadBindsGlobally: d.loadBindsGlobally === true,
  };
  if (!release.has('floatAlwaysOn')) o.float = false;
  if (!release.has('lambdaNestedDefAlwaysOn')) o.lambda = o.nestedDef = false;
  if (!release.has('loopsEndAtFunctions')) o.functionsResetLoops = false;
  return o;
}

function threadFor(opts: ExecOptions): ThreadImpl {
  if (opts.thread !== undefined) return opts.thread;
  const o: ConstructorParameters<typeof ThreadImpl>[0] = { name: opts.filename };
  if (opts.limits !== undefined) o.limits = opts.limits;
  if (opts.print !== undefined) o.print = opts.print;
  if (opts.load !== undefined) o.load = opts.load;
  if (opts.release !== undefined) o.release = opts.release;
  return new ThreadImpl(o);
}

/**
 * Runs a front-end stage, reporting a JS stack overflow (absurdly deep nesting, e.g. thousands of
 * parentheses) as a syntax error instead of a host crash.
 */
function guarded<T>(filename: string, stage: () => T): T {
  try {
    return stage();
  } catch (e) {
    if (e instanceof RangeError && e.message.includes('call stack')) {
      throw new StarlarkSyntaxError('starlark-syntax', [
        { file: filename, line: 0, col: 0, message: 'program too deeply nested' },
      ]);
    }
    throw e;
  }
}

/** Parses and resolves only (static checks). Throws `StarlarkSyntaxError`. */
export function checkFile(opts: Pick<ExecOptions, 'filename' | 'source' | 'predeclared' | 'dialect'>): File {
  return guarded(opts.filename, () => checkFileUnguarded(opts));
}

function checkFileUnguarded(opts: Pick<ExecOptions, 'filename' | 'source' | 'predeclared' | 'dialect'>): File {
  const file = parseFile(opts.filename, opts.source);
  const pre = toMap(opts.predeclared);
  resolveFile(file, resolveOptions(opts.dialect ?? {}), {
    isPredeclared: (n) => pre.has(n),
    isUniversal: (n) => UNIVERSE_MAP.has(n),
  });
  return file;
}

/** Options for running a compiled `Program`: everything in `ExecOptions` except the source. */
export type RunOptions = Omit<ExecOptions, 'filename' | 'source' | 'dialect'>;

/**
 * A parsed and resolved module, reusable across runs (starlark-go's `Program`): `run` compiles
 * it to fresh closures bound to fresh globals and executes the top level. The predeclared names
 * are fixed when the program is made; each run supplies their values (a missing one is an error
 * when used).
 */
export interface Program {
  readonly filename: string;
  readonly dialect: Dialect;
  /** Host names the program was resolved against. */
  readonly predeclaredNames: readonly string[];
  /** Names `load`ed by the program, in order (host strings). */
  readonly loads: readonly string[];
  run(opts?: RunOptions): ExecResult;
}

/**
 * Parses and resolves `source` once. `predeclared` may be the values (as for `execFile`) or just
 * the names. Throws `StarlarkSyntaxError`.
 */
export function compileProgram(opts: {
  filename: string;
  source: string;
  predeclared?: Record<string, Value> | readonly string[];
  dialect?: Dialect;
}): Program {
  const dialect = { ...(opts.dialect ?? {}) };
  const names = Array.isArray(opts.predeclared)
    ? [...(opts.predeclared as readonly string[])]
    : Object.keys(opts.predeclared ?? {});
  const nameSet = new Set(names.map(hostToBinary));
  const mod = guarded(opts.filename, () => {
    const file = parseFile(opts.filename, opts.source);
    return resolveFile(file, resolveOptions(dialect), {
      isPredeclared: (n) => nameSet.has(n),
      isUniversal: (n) => UNIVERSE_MAP.has(n),
    });
  });
  const loads = mod.file.stmts.flatMap((st) => (st.k === 'load' ? [binaryToHost(st.module)] : []));
  const filename = opts.filename;
  return {
    filename,
    dialect,
    predeclaredNames: names,
    loads,
    run(ropts: RunOptions = {}): ExecResult {
      const pre = toMap(ropts.predeclared);
      const compiled = guarded(filename, () =>
        compileModule(mod, {
          file: filename,
          recursion: dialect.recursion === true,
          predeclared: pre,
          universe: UNIVERSE_MAP,
        }),
      );
      return runModule(compiled, filename, threadFor({ ...ropts, filename, source: '' }));
    },
  };
}

/**
 * Executes a Starlark file. Throws `StarlarkSyntaxError` (static errors), `StarlarkEvalError`
 * (dynamic, with backtrace) or `StarlarkLimitError` (a budget or cancellation).
 */
export function execFile(opts: ExecOptions): ExecResult {
  const dialect = opts.dialect ?? {};
  const pre = toMap(opts.predeclared);
  const compiled = guarded(opts.filename, () => {
    const release = opts.thread?.release ?? opts.release ?? STARLARK_GO_HEAD;
    const file = parseFile(opts.filename, opts.source, parseOptions(release));
    const mod = resolveFile(file, resolveOptions(dialect, release), {
      isPredeclared: (n) => pre.has(n),
      isUniversal: universeOf(release),
    });
    return compileModule(mod, {
      file: opts.filename,
      recursion: dialect.recursion === true,
      predeclared: pre,
      universe: UNIVERSE_MAP,
    });
  });
  return runModule(compiled, opts.filename, threadFor(opts), opts.freeze ?? true);
}

/** Runs a compiled module's top level on `th`, then (unless told not to) freezes and returns its globals. */
function runModule(compiled: CompiledModule, filename: string, th: ThreadImpl, freeze = true): ExecResult {
  const code = compiled.toplevel;
  const locals = new Array<Slot>(code.nlocals);
  for (const s of code.cellSlots) locals[s] = new Cell(undefined);
  const fr = new Frame(th, locals, [], '<toplevel>', filename);
  th.frames.push(fr);
  try {
    withAllocSink(
      (n) => th.alloc(n),
      () => code.body(fr),
    );
  } catch (e) {
    throw traced(th, e);
  } finally {
    th.frames.pop();
  }
  const globals: Record<string, Value> = {};
  const g = compiled.globals;
  const roots: Value[] = [];
  for (let i = 0; i < g.length; i++) {
    const v = g[i];
    if (v === undefined) continue;
    roots.push(v as Value);
    globals[binaryToHost(compiled.globalNames[i])] = v as Value;
  }
  for (const v of compiled.filelocals) if (v !== undefined) roots.push(v as Value);
  if (freeze) freezeDeep(roots);
  return { globals, thread: th };
}

/**
 * Evaluates one expression (REPL). Names resolve against `predeclared` and the universe; the
 * expression runs as a function named `<expr>`, as in starlark-go.
 */
export function evalExpr(opts: ExecOptions): Value {
  return guarded(opts.filename, () => evalExprUnguarded(opts));
}

function evalExprUnguarded(opts: ExecOptions): Value {
  const x = parseExpr(opts.filename, opts.source);
  const file: File = { path: opts.filename, stmts: [{ k: 'return', pos: x.pos, x }] };
  const pre = toMap(opts.predeclared);
  // Resolve as the body of a function so the `return` is legal.
  const wrapper: File = {
    path: opts.filename,
    stmts: [
      {
        k: 'def',
        pos: x.pos,
        name: { k: 'ident', pos: x.pos, name: '<expr>' },
        fn: { pos: x.pos, name: '<expr>', params: [], body: file.stmts },
      },
    ],
  };
  const release = opts.thread?.release ?? opts.release ?? STARLARK_GO_HEAD;
  const mod = resolveFile(wrapper, resolveOptions(opts.dialect ?? {}, release), {
    isPredeclared: (n) => pre.has(n),
    isUniversal: universeOf(release),
  });
  const compiled = compileModule(mod, {
    file: opts.filename,
    recursion: opts.dialect?.recursion === true,
    predeclared: pre,
    universe: UNIVERSE_MAP,
  });
  const th = threadFor(opts);
  const fr = new Frame(th, new Array<Slot>(compiled.toplevel.nlocals), [], '<toplevel>', opts.filename);
  th.frames.push(fr);
  try {
    compiled.toplevel.body(fr);
  } catch (e) {
    throw traced(th, e);
  } finally {
    th.frames.pop();
  }
  const fn = compiled.globals[0] as Value;
  return withAllocSink(
    (n) => th.alloc(n),
    () => th.call(fn, [], null),
  );
}
