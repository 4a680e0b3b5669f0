/**
 * Runs one WASI preview1 command module to completion: fresh `WASI` and `Instance` per call (the
 * shim's objects are never reused), stdin as one read-only file, stdout and stderr into collector
 * fds under a shared output cap, no preopened directory unless a read-only tree is granted.
 *
 * Synchronous inside (`_start` blocks the thread): callers that need a deadline run this in a
 * worker they can terminate (worker/pool.ts). The guest's exit is an exception inside and a return
 * code here; traps and limits come back as `failure`, never as a throw. Only host set-up problems
 * (a module of the wrong ABI, an invalid tree) throw `WasmHostError`.
 */
import { File, OpenFile, WASI, type Fd } from '@bjorn3/browser_wasi_shim';
import { failureFromThrown, WasmHostError, type WasmFailure } from './errors.ts';
import { classifyModule } from './classify.ts';
import { MAX_WASM_PAGES, WASM_PAGE_BYTES } from './memory-cap.ts';
import { prepareModule, type PreparedModule } from './module-cache.ts';
import { preopenTree, type ReadOnlyTree } from './readonly-tree.ts';
import { CollectorFd, outputBudget } from './sink.ts';
import { traceImports, type TraceSink } from './strace.ts';

export interface WasiLimits {
  /** Bytes stdout and stderr may hold together (default 256 MiB). */
  maxOutputBytes?: number;
  /** Linear-memory cap applied when `module` is given as bytes (default 512 MiB). */
  maxMemoryBytes?: number;
}

export interface RunWasiOptions {
  /**
   * The module: prepared (memory-capped and compiled) by `prepareModule` or a `ModuleCache`, or raw
   * bytes, which are capped with `limits.maxMemoryBytes` and compiled here (uncached). A bare
   * `WebAssembly.Module` is run as given: its memory is only as bounded as it declares.
   */
  module: PreparedModule | Uint8Array | WebAssembly.Module;
  /** argv, default `["fn"]`. Keep it ASCII (the shim under-sizes non-ASCII arguments). */
  args?: readonly string[];
  /** Environment as `KEY=VALUE` pairs; empty by default. */
  env?: Readonly<Record<string, string>>;
  stdin?: Uint8Array;
  limits?: WasiLimits;
  /** A read-only tree to preopen as fd 3; nothing is preopened without it. */
  fs?: ReadOnlyTree;
  /** Called with every chunk the guest writes to stdout / stderr, as it writes it. */
  onStdout?: (chunk: Uint8Array) => void;
  onStderr?: (chunk: Uint8Array) => void;
  /** strace-style log of every WASI call. */
  trace?: TraceSink;
}

export interface WasiOutcome {
  /** `proc_exit` code, 0 when `_start` returned, 1 after a failure. */
  exitCode: number;
  stdout: Uint8Array;
  stderr: Uint8Array;
  /** Why the run stopped abnormally: a trap, a thrown import, an output or memory overrun. */
  failure?: WasmFailure;
  /** Size of the guest's linear memory when it stopped. */
  memoryBytes: number;
  /** strace-style lines, when a worker or executor recorded them (`WasiJob.trace`). */
  trace?: string[];
}

const DEFAULT_MAX_OUTPUT = 256 * 1024 * 1024;
const DEFAULT_MAX_MEMORY = 512 * 1024 * 1024;

async function asPrepared(m: RunWasiOptions['module'], maxMemoryBytes: number): Promise<PreparedModule> {
  if (m instanceof Uint8Array) return prepareModule(m, { maxMemoryBytes });
  if (m instanceof WebAssembly.Module) {
    return {
      module: m,
      digest: '',
      abi: classifyModule(m),
      capPages: MAX_WASM_PAGES,
      maxPages: MAX_WASM_PAGES,
      key: '',
    };
  }
  return m;
}

export async function runWasi(opts: RunWasiOptions): Promise<WasiOutcome> {
  const prepared = await asPrepared(opts.module, opts.limits?.maxMemoryBytes ?? DEFAULT_MAX_MEMORY);
  const abi = prepared.abi;
  if (abi.abi !== 'wasi')
    throw new WasmHostError('abi', 'runWasi needs a WASI command module; this is a Go js/wasm module');
  const budget = outputBudget(opts.limits?.maxOutputBytes ?? DEFAULT_MAX_OUTPUT);
  const stdout = new CollectorFd(budget, opts.onStdout);
  const stderr = new CollectorFd(budget, opts.onStderr);
  const stdinBytes = opts.stdin ?? new Uint8Array(0);
  const fds: Fd[] = [new OpenFile(new File(stdinBytes, { readonly: true })), stdout, stderr];
  if (opts.fs) fds.push(preopenTree(opts.fs));
  const env = Object.entries(opts.env ?? {})
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`);
  const wasi = new WASI([...(opts.args ?? ['fn'])], env, fds, { debug: false });

  const wasiImport = opts.trace ? traceImports(wasi.wasiImport, opts.trace, 'wasi') : wasi.wasiImport;
  const imports: WebAssembly.Imports = { wasi_snapshot_preview1: wasiImport };
  let memory: WebAssembly.Memory | undefined;
  if (abi.importedMemory) {
    const declared = prepared.importedMemory ?? { initial: 1 };
    const maximum = Math.min(declared.maximum ?? prepared.capPages, prepared.capPages);
    try {
      memory = new WebAssembly.Memory({ initial: declared.initial, maximum });
    } catch (e) {
      throw new WasmHostError('memory', `cannot create the module's memory: ${String(e)}`);
    }
    imports[abi.importedMemory.module] = {
      ...(imports[abi.importedMemory.module] ?? {}),
      [abi.importedMemory.name]: memory,
    };
  }

  let instance: WebAssembly.Instance;
  try {
    instance = await WebAssembly.instantiate(prepared.module, imports);
  } catch (e) {
    // LinkError: e.g. the imported memory's declared minimum exceeds what the host offered.
    return {
      exitCode: 1,
      stdout: stdout.bytes(),
      stderr: stderr.bytes(),
      failure: failureFromThrown(e),
      memoryBytes: 0,
    };
  }
  const mem = memory ?? (instance.exports.memory as WebAssembly.Memory);
  const startable = { exports: { memory: mem, _start: instance.exports._start } };

  let exitCode: number;
  let failure: WasmFailure | undefined;
  try {
    exitCode = wasi.start(startable as unknown as Parameters<WASI['start']>[0]);
  } catch (e) {
    exitCode = 1;
    failure = failureFromThrown(e);
  }
  const memoryBytes = mem.buffer.byteLength;
  const limitBytes = prepared.maxPages * WASM_PAGE_BYTES;
  const died = exitCode !== 0 || failure?.kind === 'trap';
  if (died && (nearCap(memoryBytes, limitBytes) || saysOutOfMemory(stderr.bytes()))) {
    failure = memoryFailure(limitBytes, failure);
  }
  const outcome: WasiOutcome = { exitCode, stdout: stdout.bytes(), stderr: stderr.bytes(), memoryBytes };
  if (failure) outcome.failure = failure;
  return outcome;
}

/**
 * Whether the guest's last stderr says it ran out of memory (Go: `fatal error: out of memory`;
 * Rust: `memory allocation of N bytes failed`). In wasm that can only mean a maximum was hit,
 * even when the failed request was larger than what was left.
 */
export function saysOutOfMemory(stderr: Uint8Array): boolean {
  const tail = new TextDecoder().decode(stderr.subarray(Math.max(0, stderr.byteLength - 4096)));
  const head = new TextDecoder().decode(stderr.subarray(0, 4096));
  return OOM.test(tail) || OOM.test(head);
}

const OOM = /\bout of memory\b|memory allocation of \d+ bytes failed/i;

/** Whether a guest's memory is within one allocation step (4 MiB or 1/8 of the cap) of the cap. */
export function nearCap(memoryBytes: number, capBytes: number): boolean {
  const cap = Math.floor(capBytes / WASM_PAGE_BYTES) * WASM_PAGE_BYTES;
  const slack = Math.max(4 * 1048576, cap / 8);
  return memoryBytes + slack >= cap;
}

export function memoryFailure(capBytes: number, cause?: WasmFailure): WasmFailure {
  const why = cause ? ` (${cause.message})` : '';
  return {
    kind: 'memory',
    message: `function exceeded the memory limit of ${Math.round(capBytes / 1048576)} MiB${why}`,
  };
}
