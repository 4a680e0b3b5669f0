/**
 * Runs a chunked Starlark test file (docs/starlark.md, "Test files"): every chunk is an independent program with
 * fresh predeclared fixtures and its own dialect options. Static errors are matched first (the
 * first parse error, or every resolver error), then the first dynamic error; assertion failures
 * are collected and do not stop the chunk. Each outcome is data; `format.ts` renders it.
 *
 * Known failures (a named list with reasons, kept by the caller) still run: a failing listed chunk
 * is reported as `known failure`, a passing one as `fixed` (so the list can shrink), neither counts
 * as failed. Nothing is skipped silently.
 */
import type { FrameInfo, Value } from '../value/contract.ts';
import { execFile } from '../index.ts';
import type { StarlarkGoRelease } from '../release.ts';
import type { Dialect, StarlarkLimits } from '../index.ts';
import { isStarlarkEvalError, isStarlarkSyntaxError } from '../errors.ts';
import { splitChunks } from './chunks.ts';
import type { Chunk, ChunkOptionName } from './chunks.ts';
import { parseExpectations } from './expectations.ts';
import type { Expectation } from './expectations.ts';
import { createAssertModule } from './assert-module.ts';
import { harnessFixtures } from './fixtures.ts';
import { binaryText, evalErrorText } from './host-text.ts';
import { basename, dirname, joinPath } from './paths.ts';
import { HARNESS_MODULES } from './modules.ts';

export interface ChunkFailure {
  file: string;
  /** 1-based file line the failure is reported at (0 when unknown). */
  line: number;
  message: string;
  /** Starlark call stack (outermost first), for assertion failures and untraceable errors. */
  stack?: FrameInfo[];
}

export type ChunkStatus = 'pass' | 'fail' | 'known-failure' | 'fixed';

export interface ChunkOutcome {
  file: string;
  chunk: Chunk;
  /** The chunk's first comment line that is not only options ('' when none). */
  title: string;
  status: ChunkStatus;
  failures: ChunkFailure[];
  /** `print` lines of the chunk. */
  output: string[];
  /** Reason from the known-failures list, when listed. */
  knownReason?: string;
}

export interface FileOutcome {
  file: string;
  chunks: ChunkOutcome[];
}

export interface TestHost {
  /**
   * Source of a file named by `load()` (already joined onto the loading file's directory), or
   * null when it does not exist. Without it only the harness modules can be loaded.
   */
  readFile?: (path: string) => string | null;
  /** Library modules by load name (default `HARNESS_MODULES`: json.star, math.star, time.star); assert.star is always there. */
  modules?: Readonly<Record<string, Readonly<Record<string, Value>>>>;
  /** Known failures: key `chunkKey(file, title)` → reason. */
  knownFailures?: ReadonlyMap<string, string>;
  /** Runs only chunks whose title or text the predicate accepts (the CLI's `-run`, a Go regexp). */
  select?: (text: string) => boolean;
  limits?: StarlarkLimits;
  /** The google/starlark-go release the chunks run under (default HEAD). */
  release?: StarlarkGoRelease;
}

/** The key of a chunk in a known-failures list: `<file basename>: <title>`. */
export function chunkKey(file: string, title: string): string {
  return `${basename(file)}: ${title}`;
}

export function chunkTitle(chunk: Chunk): string {
  for (const raw of chunk.text.split('\n')) {
    const line = raw.trim();
    if (!line.startsWith('#')) continue;
    const body = line.replace(/^#+\s*/, '');
    if (body === '' || /^(option:\w+\s*)+$/.test(body)) continue;
    return body;
  }
  return '';
}

/** Runs every chunk of one file. Throws `TestHarnessError` for a malformed expectation. */
export function runTestFile(file: string, text: string, host: TestHost = {}): FileOutcome {
  const chunks: ChunkOutcome[] = [];
  for (const chunk of splitChunks(text)) {
    const title = chunkTitle(chunk);
    if (host.select && !host.select(title) && !host.select(chunk.text)) continue;
    const expectations = parseExpectations(file, chunk.text, chunk.startLine);
    const result = runChunk(file, chunk, expectations, host);
    const reason = host.knownFailures?.get(chunkKey(file, title));
    let status: ChunkStatus = result.failures.length === 0 ? 'pass' : 'fail';
    if (reason !== undefined) status = status === 'fail' ? 'known-failure' : 'fixed';
    const outcome: ChunkOutcome = { file, chunk, title, status, failures: result.failures, output: result.output };
    if (reason !== undefined) outcome.knownReason = reason;
    chunks.push(outcome);
  }
  return { file, chunks };
}

export function dialectOf(options: ReadonlySet<ChunkOptionName>): Dialect {
  const d: Dialect & { loadBindsGlobally?: boolean } = {
    set: options.has('set'),
    while: options.has('while'),
    recursion: options.has('recursion'),
    globalReassign: options.has('globalreassign'),
    topLevelControl: options.has('toplevelcontrol'),
  };
  if (options.has('loadbindsglobally')) d.loadBindsGlobally = true;
  return d;
}

function runChunk(
  file: string,
  chunk: Chunk,
  expectations: Map<number, Expectation>,
  host: TestHost,
): { failures: ChunkFailure[]; output: string[] } {
  const failures: ChunkFailure[] = [];
  const output: string[] = [];
  const dialect = dialectOf(chunk.options);
  const { assert, freeze } = createAssertModule((message, stack) => {
    failures.push({ file, line: lineInFile(stack, file), message: `Error: ${message}`, stack });
  });
  const harness: Record<string, Record<string, Value>> = { 'assert.star': { assert, freeze } };
  for (const [name, members] of Object.entries(host.modules ?? HARNESS_MODULES)) harness[name] = { ...members };

  // Relative files loaded by the chunk, executed once each (cycle-checked).
  const loaded = new Map<string, Record<string, Value> | null>();
  const makeLoader =
    (fromFile: string) =>
    (module: string): Record<string, Value> => {
      const lib = harness[module];
      if (lib) return lib;
      const path = joinPath(dirname(fromFile), module);
      if (loaded.has(path)) {
        const done = loaded.get(path);
        if (done === null) throw new Error('cycle in load graph');
        return done!;
      }
      const source = host.readFile?.(path) ?? null;
      if (source === null) throw new Error(`no such file ${path}`);
      loaded.set(path, null);
      const { globals } = execFile({
        filename: path,
        source,
        predeclared: harnessFixtures(),
        dialect,
        print: (m) => output.push(m),
        load: makeLoader(path),
        ...(host.limits ? { limits: host.limits } : {}),
        ...(host.release ? { release: host.release } : {}),
      });
      loaded.set(path, globals);
      return globals;
    };

  const gotError = (line: number, message: string, stack?: FrameInfo[]): void => {
    const want = expectations.get(line);
    if (!want) {
      const f: ChunkFailure = { file, line, message: `unexpected error: ${message}` };
      if (stack) f.stack = stack;
      failures.push(f);
      return;
    }
    expectations.delete(line);
    if (!want.regexp.test(message)) {
      failures.push({ file, line, message: `error "${message}" does not match pattern "${want.pattern}"` });
    }
  };

  try {
    execFile({
      filename: file,
      source: chunk.source,
      predeclared: harnessFixtures(),
      dialect,
      print: (m) => output.push(m),
      load: makeLoader(file),
      ...(host.limits ? { limits: host.limits } : {}),
      ...(host.release ? { release: host.release } : {}),
    });
  } catch (e) {
    if (isStarlarkSyntaxError(e)) {
      for (const item of e.errors) {
        if (item.file === file) gotError(item.line, binaryText(item.message));
        else
          failures.push({
            file,
            line: 0,
            message: `static error in ${item.file}:${item.line}:${item.col}: ${binaryText(item.message)}`,
          });
      }
    } else if (isStarlarkEvalError(e)) {
      const line = lineInFile(e.backtrace, file);
      if (line === 0) {
        failures.push({
          file,
          line: chunk.startLine,
          message: `error outside the test file: ${evalErrorText(e)}`,
          stack: e.backtrace,
        });
      } else {
        gotError(line, evalErrorText(e), e.backtrace);
      }
    } else {
      // A host exception escaping the interpreter is a crash: always a failure.
      const err = e as Error;
      failures.push({ file, line: chunk.startLine, message: `interpreter crash: ${err?.stack ?? String(e)}` });
    }
  }
  for (const want of expectations.values()) {
    failures.push({ file, line: want.line, message: `expected error matching "${want.pattern}"` });
  }
  failures.sort((a, b) => a.line - b.line);
  return { failures, output };
}

/** The innermost frame of `stack` positioned in `file` (its line), else 0. */
function lineInFile(stack: readonly FrameInfo[], file: string): number {
  for (let i = stack.length - 1; i >= 0; i--) {
    const f = stack[i];
    if (f.file === file && f.line > 0) return f.line;
  }
  return 0;
}
