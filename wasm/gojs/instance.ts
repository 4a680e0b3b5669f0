/**
 * kpt's alpha ABI for Go `GOOS=js GOARCH=wasm` KRM functions, written from the ABI description in
 * docs/wasm.md, "Go `js/wasm` (kpt's alpha ABI)" (not derived from Go's wasm_exec.js). One `GoJsInstance` holds one running Go
 * program: `start()` runs `main` until every goroutine blocks (the program has registered
 * `processResourceList` / `processResourceListErrors` on its global and waits forever); each
 * `processResourceList(input)` call then re-enters Go through a `js.FuncOf` wrapper.
 *
 * The imports are provided under both `go` (Go < 1.21) and `gojs` (Go >= 1.21). The program's
 * global is a curated object (globals.ts), its writes to fd 1/2 are its stderr, and its output is
 * capped. After any failure or exit the instance is dead: callers discard it.
 */
import { failureFromThrown, WasmHostError, type WasmFailure } from '../errors.ts';
import type { PreparedModule } from '../module-cache.ts';
import { WASM_PAGE_BYTES } from '../memory-cap.ts';
import { nearCap, memoryFailure } from '../run-wasi.ts';
import { CollectorFd, outputBudget } from '../sink.ts';
import { traceImports, type TraceSink } from '../strace.ts';
import { curatedGlobal } from './globals.ts';
import { ValueTable } from './values.ts';

/** Where Go's linker starts global data; argv and environment must fit below it. */
const ARGS_START = 4096;
const ARGS_END = 12288;

interface GoExports {
  mem: WebAssembly.Memory;
  run(argc: number, argv: number): void;
  resume(): void;
  getsp(): number;
}

interface PendingEvent {
  id: number;
  this: unknown;
  args: unknown[];
  result?: unknown;
}

export interface GoJsOptions {
  /** Bytes the program may write to fd 1/2 during one call (default 16 MiB). */
  maxOutputBytes?: number;
  /** argv, default `["js"]`. */
  args?: readonly string[];
  env?: Readonly<Record<string, string>>;
  trace?: TraceSink;
  /** Sees every chunk the program writes to fd 1/2, as it writes it. */
  onOutput?: (chunk: Uint8Array) => void;
}

export interface GoJsCallOutcome {
  /** What `processResourceList` returned (a string), or '' when it failed to return one. */
  output: string;
  /** Text the program wrote to fd 1/2 during this call. */
  stderr: string;
  /** Set when the call did not return normally (trap, exit, output cap, memory cap). */
  failure?: WasmFailure;
  /** The program exited during this call (always a failure). */
  exitCode?: number;
}

export class GoJsInstance {
  private readonly prepared: PreparedModule;
  private readonly opts: GoJsOptions;
  private readonly global: Record<string, unknown>;
  private readonly glue: { _pendingEvent: PendingEvent | null; _makeFuncWrapper(id: number): unknown };
  private readonly values: ValueTable;
  private readonly maxOutputBytes: number;
  /** Collects fd 1/2 writes of the current call; replaced at the start of every call. */
  private out: CollectorFd;
  private readonly timers = new Map<number, ReturnType<typeof setTimeout>>();
  private nextTimer = 1;
  private exports!: GoExports;
  private view!: DataView;
  private exitCodeValue: number | undefined;
  private dead = false;
  private readonly encoder = new TextEncoder();
  private readonly decoder = new TextDecoder();

  constructor(prepared: PreparedModule, opts: GoJsOptions = {}) {
    if (prepared.abi.abi !== 'gojs') throw new WasmHostError('abi', 'GoJsInstance needs a Go js/wasm module');
    this.prepared = prepared;
    this.opts = opts;
    this.maxOutputBytes = opts.maxOutputBytes ?? 16 * 1048576;
    this.out = new CollectorFd(outputBudget(this.maxOutputBytes), opts.onOutput);
    this.global = curatedGlobal((bytes) => this.out.append(bytes));
    const self = this;
    this.glue = {
      _pendingEvent: null,
      _makeFuncWrapper(id: number): unknown {
        return function (this: unknown, ...args: unknown[]): unknown {
          const event: PendingEvent = { id, this: this, args };
          self.glue._pendingEvent = event;
          self.resume();
          return event.result;
        };
      },
    };
    this.values = new ValueTable(this.global, this.glue);
  }

  /** The program exited (or failed) and can run no more calls. */
  get isDead(): boolean {
    return this.dead;
  }

  get exitCode(): number | undefined {
    return this.exitCodeValue;
  }

  /** Instantiates and runs `main` until it blocks. Returns a failure if it exits or traps. */
  async start(): Promise<GoJsCallOutcome> {
    const ns = this.imports();
    const imports: WebAssembly.Imports = { go: ns, gojs: ns };
    const instance = await WebAssembly.instantiate(this.prepared.module, imports);
    this.exports = instance.exports as unknown as GoExports;
    this.refreshView();
    return this.guard(() => {
      const { argc, argv } = this.writeArgs(this.opts.args ?? ['js'], this.opts.env ?? {});
      this.exports.run(argc, argv);
      if (this.exitCodeValue !== undefined) {
        throw new WasmHostError('trap', `Go program exited with code ${this.exitCodeValue} during start-up`);
      }
      return '';
    });
  }

  /** Calls the registered `processResourceList(input)`. */
  processResourceList(input: string): GoJsCallOutcome {
    return this.callRegistered('processResourceList', input);
  }

  /** Calls `processResourceListErrors(input)`: the error messages of the last output, or ''. */
  processResourceListErrors(input: string): GoJsCallOutcome {
    return this.callRegistered('processResourceListErrors', input);
  }

  private callRegistered(name: string, input: string): GoJsCallOutcome {
    if (this.dead) throw new WasmHostError('trap', 'Go program has already exited');
    const fn = this.global[name];
    if (typeof fn !== 'function') {
      return this.fail({ kind: 'abi', message: `Go js/wasm module did not register ${name} on the global object` });
    }
    return this.guard(() => {
      const result = (fn as (s: string) => unknown)(input);
      if (this.exitCodeValue !== undefined)
        throw new WasmHostError('trap', `Go program exited with code ${this.exitCodeValue}`);
      if (typeof result !== 'string') throw new WasmHostError('abi', `${name} returned ${typeof result}, not a string`);
      return result;
    });
  }

  private guard(body: () => string): GoJsCallOutcome {
    this.out = new CollectorFd(outputBudget(this.maxOutputBytes), this.opts.onOutput);
    try {
      const output = body();
      return { output, stderr: this.stderr() };
    } catch (e) {
      let failure = failureFromThrown(e);
      const memBytes = this.exports?.mem.buffer.byteLength ?? 0;
      const capBytes = this.prepared.maxPages * WASM_PAGE_BYTES;
      const stderr = this.stderr();
      if (
        (failure.kind === 'trap' || failure.kind === 'abi') &&
        (nearCap(memBytes, capBytes) || /out of memory/.test(stderr))
      ) {
        failure = memoryFailure(capBytes, failure);
      }
      return { ...this.fail(failure), stderr };
    }
  }

  private fail(failure: WasmFailure): GoJsCallOutcome {
    this.kill();
    const o: GoJsCallOutcome = { output: '', stderr: '', failure };
    if (this.exitCodeValue !== undefined) o.exitCode = this.exitCodeValue;
    return o;
  }

  /** Stops timers and drops every reference; the instance cannot be used afterwards. */
  kill(): void {
    this.dead = true;
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    this.values.clear();
  }

  private stderr(): string {
    return this.decoder.decode(this.out.bytes());
  }

  private resume(): void {
    if (this.dead || this.exitCodeValue !== undefined) throw new Error('Go program has already exited');
    this.exports.resume();
  }

  private refreshView(): void {
    this.view = new DataView(this.exports.mem.buffer);
  }

  private mem(): DataView {
    if (this.view.buffer !== this.exports.mem.buffer) this.refreshView();
    return this.view;
  }

  private writeArgs(args: readonly string[], env: Readonly<Record<string, string>>): { argc: number; argv: number } {
    let offset = ARGS_START;
    const bytes = new Uint8Array(this.exports.mem.buffer);
    const put = (s: string): number => {
      const ptr = offset;
      const b = this.encoder.encode(`${s}\0`);
      if (offset + b.byteLength > ARGS_END)
        throw new WasmHostError('abi', 'arguments and environment too large for a Go js/wasm program');
      bytes.set(b, offset);
      offset += b.byteLength;
      offset += (8 - (offset % 8)) % 8;
      return ptr;
    };
    const ptrs = args.map(put);
    ptrs.push(0);
    for (const k of Object.keys(env).sort()) ptrs.push(put(`${k}=${env[k]}`));
    ptrs.push(0);
    const argv = offset;
    if (argv + ptrs.length * 8 > ARGS_END)
      throw new WasmHostError('abi', 'arguments and environment too large for a Go js/wasm program');
    const view = this.mem();
    for (const p of ptrs) {
      view.setUint32(offset, p, true);
      view.setUint32(offset + 4, 0, true);
      offset += 8;
    }
    return { argc: args.length, argv };
  }

  // --- memory helpers (all offsets unsigned) ---

  private getInt64(addr: number): number {
    const v = this.mem();
    return v.getUint32(addr, true) + v.getInt32(addr + 4, true) * 4294967296;
  }

  private setInt64(addr: number, n: number): void {
    const v = this.mem();
    v.setUint32(addr, n >>> 0, true);
    v.setUint32(addr + 4, Math.floor(n / 4294967296), true);
  }

  private loadSlice(addr: number): Uint8Array {
    return new Uint8Array(this.exports.mem.buffer, this.getInt64(addr), this.getInt64(addr + 8));
  }

  private loadString(addr: number): string {
    return this.decoder.decode(new Uint8Array(this.exports.mem.buffer, this.getInt64(addr), this.getInt64(addr + 8)));
  }

  private loadValue(addr: number): unknown {
    return this.values.load(this.mem(), addr);
  }

  private storeValue(addr: number, v: unknown): void {
    this.values.store(this.mem(), addr, v);
  }

  private loadValues(addr: number): unknown[] {
    const ptr = this.getInt64(addr);
    const len = this.getInt64(addr + 8);
    const out = new Array<unknown>(len);
    for (let i = 0; i < len; i++) out[i] = this.loadValue(ptr + i * 8);
    return out;
  }

  /** The Go stack may move while JS re-enters Go: re-read sp before writing results. */
  private sp(): number {
    return this.exports.getsp() >>> 0;
  }

  private imports(): Record<string, (sp: number) => void> {
    const ns: Record<string, (sp: number) => void> = {
      'runtime.wasmExit': (sp) => {
        sp >>>= 0;
        this.exitCodeValue = this.mem().getInt32(sp + 8, true);
        this.kill();
      },
      'runtime.wasmWrite': (sp) => {
        sp >>>= 0;
        const ptr = this.getInt64(sp + 16);
        const len = this.mem().getInt32(sp + 24, true);
        this.out.append(new Uint8Array(this.exports.mem.buffer, ptr, len).slice());
      },
      'runtime.resetMemoryDataView': () => this.refreshView(),
      'runtime.nanotime1': (sp) => {
        this.setInt64((sp >>> 0) + 8, Math.round((performance.timeOrigin + performance.now()) * 1e6));
      },
      'runtime.walltime': (sp) => {
        sp >>>= 0;
        const ms = Date.now();
        this.setInt64(sp + 8, Math.floor(ms / 1000));
        this.mem().setInt32(sp + 16, (ms % 1000) * 1e6, true);
      },
      'runtime.scheduleTimeoutEvent': (sp) => {
        sp >>>= 0;
        const id = this.nextTimer++;
        const delay = this.getInt64(sp + 8);
        const fire = (): void => {
          if (this.dead) return;
          try {
            this.resume();
            // Go clears a timer it handled; one still set was missed, so wake Go again.
            while (!this.dead && this.timers.has(id)) this.resume();
          } catch {
            this.kill();
          }
        };
        this.timers.set(id, setTimeout(fire, delay));
        this.mem().setInt32(sp + 16, id, true);
      },
      'runtime.clearTimeoutEvent': (sp) => {
        const id = this.mem().getInt32((sp >>> 0) + 8, true);
        clearTimeout(this.timers.get(id));
        this.timers.delete(id);
      },
      'runtime.getRandomData': (sp) => {
        const dst = this.loadSlice((sp >>> 0) + 8);
        for (let i = 0; i < dst.byteLength; i += 65536)
          crypto.getRandomValues(dst.subarray(i, i + 65536) as Uint8Array<ArrayBuffer>);
      },
      'syscall/js.finalizeRef': (sp) => {
        this.values.finalize(this.mem().getUint32((sp >>> 0) + 8, true));
      },
      'syscall/js.stringVal': (sp) => {
        sp >>>= 0;
        this.storeValue(sp + 24, this.loadString(sp + 8));
      },
      'syscall/js.valueGet': (sp) => {
        sp >>>= 0;
        const result: unknown = Reflect.get(this.loadValue(sp + 8) as object, this.loadString(sp + 16));
        this.storeValue(this.sp() + 32, result);
      },
      'syscall/js.valueSet': (sp) => {
        sp >>>= 0;
        Reflect.set(this.loadValue(sp + 8) as object, this.loadString(sp + 16), this.loadValue(sp + 32));
      },
      'syscall/js.valueDelete': (sp) => {
        sp >>>= 0;
        Reflect.deleteProperty(this.loadValue(sp + 8) as object, this.loadString(sp + 16));
      },
      'syscall/js.valueIndex': (sp) => {
        sp >>>= 0;
        this.storeValue(sp + 24, Reflect.get(this.loadValue(sp + 8) as object, this.getInt64(sp + 16)));
      },
      'syscall/js.valueSetIndex': (sp) => {
        sp >>>= 0;
        Reflect.set(this.loadValue(sp + 8) as object, this.getInt64(sp + 16), this.loadValue(sp + 24));
      },
      'syscall/js.valueCall': (sp) => {
        sp >>>= 0;
        this.callIntoGo(56, () => {
          const receiver = this.loadValue(sp + 8) as object;
          const method = Reflect.get(receiver, this.loadString(sp + 16)) as (...a: unknown[]) => unknown;
          return Reflect.apply(method, receiver, this.loadValues(sp + 32));
        });
      },
      'syscall/js.valueInvoke': (sp) => {
        sp >>>= 0;
        this.callIntoGo(40, () =>
          Reflect.apply(this.loadValue(sp + 8) as (...a: unknown[]) => unknown, undefined, this.loadValues(sp + 16)),
        );
      },
      'syscall/js.valueNew': (sp) => {
        sp >>>= 0;
        this.callIntoGo(40, () =>
          Reflect.construct(this.loadValue(sp + 8) as new (...a: unknown[]) => unknown, this.loadValues(sp + 16)),
        );
      },
      'syscall/js.valueLength': (sp) => {
        sp >>>= 0;
        this.setInt64(sp + 16, Number((this.loadValue(sp + 8) as { length: number }).length));
      },
      'syscall/js.valuePrepareString': (sp) => {
        sp >>>= 0;
        const bytes = this.encoder.encode(String(this.loadValue(sp + 8)));
        this.storeValue(sp + 16, bytes);
        this.setInt64(sp + 24, bytes.byteLength);
      },
      'syscall/js.valueLoadString': (sp) => {
        sp >>>= 0;
        const src = this.loadValue(sp + 8) as Uint8Array;
        this.loadSlice(sp + 16).set(src);
      },
      'syscall/js.valueInstanceOf': (sp) => {
        sp >>>= 0;
        const v = this.loadValue(sp + 8);
        const t = this.loadValue(sp + 16) as abstract new (...a: never[]) => unknown;
        this.mem().setUint8(sp + 24, v instanceof t ? 1 : 0);
      },
      'syscall/js.copyBytesToGo': (sp) => {
        sp >>>= 0;
        const dst = this.loadSlice(sp + 8);
        const src = this.loadValue(sp + 32);
        if (!(src instanceof Uint8Array || src instanceof Uint8ClampedArray)) {
          this.mem().setUint8(sp + 48, 0);
          return;
        }
        const part = src.subarray(0, dst.byteLength);
        dst.set(part);
        this.setInt64(sp + 40, part.byteLength);
        this.mem().setUint8(sp + 48, 1);
      },
      'syscall/js.copyBytesToJS': (sp) => {
        sp >>>= 0;
        const dst = this.loadValue(sp + 8);
        const src = this.loadSlice(sp + 16);
        if (!(dst instanceof Uint8Array || dst instanceof Uint8ClampedArray)) {
          this.mem().setUint8(sp + 48, 0);
          return;
        }
        const part = src.subarray(0, dst.byteLength);
        dst.set(part);
        this.setInt64(sp + 40, part.byteLength);
        this.mem().setUint8(sp + 48, 1);
      },
      debug: (value) => {
        this.opts.trace?.(`gojs.debug(${value})`);
      },
    };
    return this.opts.trace ? traceImports(ns, this.opts.trace, 'gojs') : ns;
  }

  /**
   * Host limits (output cap) and traps must unwind the whole Go program, not become a JS exception
   * Go could catch and carry on from.
   */
  /**
   * Runs a JS call for the Go program and stores its outcome where Go expects it: the value (or
   * the thrown error) at `sp + offset`, then an ok byte at `sp + offset + 8`. The stack pointer is
   * read after the call, because the call may re-enter Go and move the stack.
   */
  private callIntoGo(offset: number, call: () => unknown): void {
    let value: unknown;
    let ok = 1;
    try {
      value = call();
    } catch (e) {
      this.rethrowHostFailure(e);
      value = e;
      ok = 0;
    }
    const at = this.sp();
    this.storeValue(at + offset, value);
    this.mem().setUint8(at + offset + 8, ok);
  }

  private rethrowHostFailure(e: unknown): void {
    if (
      typeof e === 'object' &&
      e !== null &&
      ((e as { isWasmHostError?: unknown }).isWasmHostError === true || (e as Error).name === 'RuntimeError')
    ) {
      throw e;
    }
  }
}
