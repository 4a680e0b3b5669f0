/**
 * `krmfn starlark`: the Starlark interpreter on the command line, like starlark-go's `starlark`
 * command, plus the chunked test runner.
 *
 *   krmfn starlark [flags] FILE.star     run a file (also `krmfn starlark run FILE.star`)
 *   krmfn starlark [flags]               read-eval-print loop on stdin
 *   krmfn starlark test [flags] FILE...  run chunked test files (docs/starlark.md, "Test files")
 *
 * `print` goes to stdout; errors go to stderr (message and Starlark backtrace) with exit 1.
 * Dialect flags follow starlark-go's legacy flags (one or two dashes): -set (default true),
 * -globalreassign (also while and top-level control), -recursion. The json, math and time
 * modules are predeclared for `run` and the REPL.
 */
import { readFileSync } from 'node:fs';
import * as nodePath from 'node:path';
import { createInterface } from 'node:readline';
import {
  evalExpr,
  execFile,
  legacyDialect,
  isStarlarkEvalError,
  isStarlarkSyntaxError,
  None,
  repr,
  toHostString,
  JSON_MODULE,
  MATH_MODULE,
} from '../../starlark/index.ts';
import type { Dialect, StarlarkLimits, Value } from '../../starlark/index.ts';
import { createTimeModule } from '../../starlark/lib/time.ts';
import {
  runTestFile,
  formatChunk,
  formatSummary,
  tally,
  TestHarnessError,
  HARNESS_MODULES,
} from '../../starlark/testing/index.ts';
import { compileGoRegexp } from '../../core/go-regexp.ts';
import type { FileOutcome } from '../../starlark/testing/index.ts';
import { DEFAULT_LIMITS } from '../../core/limits.ts';
import { bool, parseFlags, parseDuration, str, UsageError, type ParsedArgs } from '../cli-flags.ts';
import { write, type CliIO } from '../io.ts';
import { formatHelp } from './help.ts';
import { starlarkSpec } from './specs/starlark.ts';

function limitsOf(p: ParsedArgs): StarlarkLimits {
  // print output is capped like a Starlark function's (src/core/limits.ts).
  const limits: StarlarkLimits = { maxOutputBytes: DEFAULT_LIMITS.maxOutputBytes };
  const steps = str(p, 'max-steps');
  if (steps !== undefined) {
    if (!/^\d+$/.test(steps)) throw new UsageError(`invalid --max-steps ${JSON.stringify(steps)}`);
    limits.maxSteps = Number(steps);
  }
  const maxOutput = str(p, 'max-output');
  if (maxOutput !== undefined) {
    if (!/^\d+$/.test(maxOutput)) throw new UsageError(`invalid --max-output ${JSON.stringify(maxOutput)}`);
    limits.maxOutputBytes = Number(maxOutput);
  }
  const timeout = str(p, 'timeout');
  if (timeout !== undefined) {
    const ms = parseDuration(timeout);
    limits.now = Date.now;
    limits.deadline = Date.now() + ms;
  }
  return limits;
}

/** The modules starlark-go's command predeclares. */
function predeclaredModules(): Record<string, Value> {
  return { json: JSON_MODULE, math: MATH_MODULE, time: createTimeModule({ now: Date.now }) };
}

/** Formats any Starlark failure as the CLI prints it (no trailing newline). */
export function formatStarlarkError(e: unknown): string {
  if (isStarlarkSyntaxError(e)) return toHostString(e.format()); // static messages quote binary identifiers
  if (isStarlarkEvalError(e)) return e.format(); // traced: already host text
  throw e;
}

/** A `load` for files on disk, relative to the loading file, each executed once. */
function fileLoader(
  dialect: Dialect,
  limits: StarlarkLimits,
  print: (m: string) => void,
  predeclared: Record<string, Value>,
) {
  const cache = new Map<string, Record<string, Value> | null>();
  const make =
    (fromFile: string) =>
    (module: string): Record<string, Value> => {
      const path = nodePath.resolve(nodePath.dirname(fromFile), module);
      const hit = cache.get(path);
      if (hit === null) throw new Error('cycle in load graph');
      if (hit !== undefined) return hit;
      let source: string;
      try {
        source = readFileSync(path, 'utf8');
      } catch (e) {
        throw new Error(
          (e as NodeJS.ErrnoException).code === 'ENOENT' ? `no such file ${module}` : (e as Error).message,
          { cause: e },
        );
      }
      cache.set(path, null);
      const { globals } = execFile({ filename: module, source, predeclared, dialect, limits, print, load: make(path) });
      cache.set(path, globals);
      return globals;
    };
  return make;
}

async function runFile(file: string, p: ParsedArgs, io: CliIO): Promise<number> {
  const dialect = legacyDialect({
    set: bool(p, 'set', true),
    globalReassign: bool(p, 'globalreassign'),
    recursion: bool(p, 'recursion'),
  });
  const limits = limitsOf(p);
  const path = nodePath.resolve(io.cwd, file);
  let source: string;
  try {
    source = readFileSync(path, 'utf8');
  } catch (e) {
    await write(io.stderr, `error: cannot read ${file}: ${(e as Error).message}\n`);
    return 1;
  }
  // `print` streams to stdout through a small buffer (memory independent of how much a script
  // prints); the interpreter charges every line against `maxOutputBytes` and stops the script with
  // an "output budget exceeded" error past it.
  const out = new PrintStream(io);
  const print = (m: string): void => out.line(m);
  const predeclared = predeclaredModules();
  let code = 0;
  try {
    execFile({
      filename: file,
      source,
      predeclared,
      dialect,
      limits,
      print,
      load: fileLoader(dialect, limits, print, predeclared)(path),
    });
  } catch (e) {
    await out.flush();
    await write(io.stderr, formatStarlarkError(e) + '\n');
    code = 1;
  }
  await out.flush();
  return code;
}

/** Print lines gathered into chunks of at most `PRINT_CHUNK_CHARS`, each written out when full. */
const PRINT_CHUNK_CHARS = 64 * 1024;

class PrintStream {
  #pending: string[] = [];
  #size = 0;
  readonly #io: CliIO;
  constructor(io: CliIO) {
    this.#io = io;
  }
  line(text: string): void {
    this.#pending.push(text, '\n');
    this.#size += text.length + 1;
    if (this.#size >= PRINT_CHUNK_CHARS) this.#emit();
  }
  #emit(): void {
    if (this.#size === 0) return;
    this.#io.stdout.write(this.#pending.join(''));
    this.#pending = [];
    this.#size = 0;
  }
  async flush(): Promise<void> {
    const text = this.#pending.join('');
    this.#pending = [];
    this.#size = 0;
    await write(this.#io.stdout, text);
  }
}

async function runTests(p: ParsedArgs, io: CliIO): Promise<number> {
  if (p.positional.length === 0) throw new UsageError('starlark test: no test files given');
  let select: ((text: string) => boolean) | undefined;
  const run = str(p, 'run');
  if (run !== undefined) {
    try {
      const re = compileGoRegexp(run);
      select = (text) => re.matchString(text);
    } catch (e) {
      await write(io.stderr, `error: invalid --run regexp: ${(e as Error).message}\n`);
      return 2;
    }
  }
  let knownFailures: Map<string, string> | undefined;
  const kf = str(p, 'known-failures');
  if (kf !== undefined) {
    try {
      const raw = JSON.parse(readFileSync(nodePath.resolve(io.cwd, kf), 'utf8')) as Record<string, unknown>;
      knownFailures = new Map(
        Object.entries(raw).filter(([k, v]) => k !== '//' && typeof v === 'string') as [string, string][],
      );
    } catch (e) {
      await write(io.stderr, `error: cannot read known failures ${kf}: ${(e as Error).message}\n`);
      return 2;
    }
  }
  const limits = limitsOf(p);
  const readFile = (path: string): string | null => {
    try {
      return readFileSync(nodePath.resolve(io.cwd, path), 'utf8');
    } catch {
      return null;
    }
  };
  // As starlark-go's own harness (starlark/eval_test.go), `time.star`'s `now()` reads the wall clock.
  const testModules = { ...HARNESS_MODULES, 'time.star': { time: createTimeModule({ now: Date.now }) } };
  const outcomes: FileOutcome[] = [];
  for (const file of p.positional) {
    let text: string;
    try {
      text = readFileSync(nodePath.resolve(io.cwd, file), 'utf8');
    } catch (e) {
      await write(io.stderr, `error: cannot read ${file}: ${(e as Error).message}\n`);
      return 2;
    }
    let outcome: FileOutcome;
    try {
      outcome = runTestFile(file, text, {
        readFile,
        limits,
        modules: testModules,
        ...(select ? { select } : {}),
        ...(knownFailures ? { knownFailures } : {}),
      });
    } catch (e) {
      if (e instanceof TestHarnessError) {
        await write(io.stderr, `error: ${e.message}\n`);
        return 2;
      }
      throw e;
    }
    outcomes.push(outcome);
    for (const c of outcome.chunks) if (c.status !== 'pass') await write(io.stdout, formatChunk(c) + '\n');
  }
  const t = tally(outcomes);
  await write(io.stdout, formatSummary(t) + '\n');
  return t.failed === 0 ? 0 : 1;
}

/** True when `text` is a complete input: brackets closed and, for a block, ended by a blank line. */
function inputComplete(text: string): boolean {
  let depth = 0;
  for (const ch of text.replace(/#[^\n]*/g, '')) {
    if ('([{'.includes(ch)) depth++;
    else if (')]}'.includes(ch)) depth--;
  }
  if (depth > 0) return false;
  const lines = text.split('\n');
  const opensBlock = /:\s*$/.test(lines[0]) || lines.length > 1;
  return !opensBlock || lines[lines.length - 1].trim() === '';
}

async function repl(p: ParsedArgs, io: CliIO): Promise<number> {
  const dialect: Dialect = {
    ...legacyDialect({ set: bool(p, 'set', true), globalReassign: true, recursion: bool(p, 'recursion') }),
  };
  const limits = limitsOf(p);
  const env: Record<string, Value> = predeclaredModules();
  const tty = (io.stdin as { isTTY?: boolean }).isTTY === true;
  const rl = createInterface({ input: io.stdin, terminal: false });
  const print = (m: string): void => {
    io.stdout.write(m + '\n');
  };
  const load = fileLoader(dialect, limits, print, predeclaredModules())(nodePath.join(io.cwd, '<stdin>'));
  let buffer: string[] = [];
  if (tty) io.stdout.write('>>> ');
  for await (const line of rl) {
    buffer.push(line);
    const text = buffer.join('\n');
    if (!inputComplete(text)) {
      if (tty) io.stdout.write('... ');
      continue;
    }
    buffer = [];
    if (text.trim() !== '') {
      const filename = '<stdin>';
      try {
        let isExpr = true;
        let value: Value = None;
        try {
          value = evalExpr({ filename, source: text, predeclared: env, dialect, limits, print, load });
        } catch (e) {
          if (!isStarlarkSyntaxError(e)) throw e;
          isExpr = false;
        }
        if (isExpr) {
          if (value !== None) print(toHostString(repr(value)));
        } else {
          const { globals } = execFile({
            filename,
            source: text,
            predeclared: env,
            dialect,
            limits,
            print,
            load,
            freeze: false,
          });
          Object.assign(env, globals);
        }
      } catch (e) {
        io.stderr.write(formatStarlarkError(e) + '\n');
      }
    }
    if (tty) io.stdout.write('>>> ');
  }
  if (tty) io.stdout.write('\n');
  return 0;
}

export async function runStarlark(args: string[], io: CliIO): Promise<number> {
  const testSpec = starlarkSpec.subcommands![0];
  try {
    if (args[0] === 'test') {
      const p = parseFlags(args.slice(1), testSpec.flags, { singleDashLong: true });
      return await runTests(p, io);
    }
    const rest = args[0] === 'run' ? args.slice(1) : args;
    const p = parseFlags(rest, starlarkSpec.flags, { singleDashLong: true });
    if (p.positional.length > 1) throw new UsageError(`starlark: want at most one file, got ${p.positional.length}`);
    const file = p.positional[0];
    if (file === undefined) {
      if (args[0] === 'run') throw new UsageError('starlark run: no file given');
      return await repl(p, io);
    }
    return await runFile(file, p, io);
  } catch (e) {
    if (e instanceof UsageError) {
      await write(io.stderr, `error: ${e.message}\n\n${formatHelp(args[0] === 'test' ? testSpec : starlarkSpec)}`);
      return 2;
    }
    throw e;
  }
}
