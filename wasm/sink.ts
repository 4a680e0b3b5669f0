/**
 * An output file descriptor that collects what the guest writes, without the quadratic copying of
 * the shim's `OpenFile` (it reallocates its buffer on every append). The shim already hands each
 * write over as a fresh copy, so the sink keeps the chunks and concatenates once at the end.
 *
 * It reports itself as `FILETYPE_UNKNOWN` (not a character device), so wasi-libc buffers fully
 * instead of line by line. An optional callback sees every chunk as it arrives (streaming
 * consumers); a shared `OutputBudget` caps stdout and stderr together: the write that overruns it
 * throws `WasmHostError('output')`, which unwinds the guest immediately.
 */
import { Fd, Inode, wasi } from '@bjorn3/browser_wasi_shim';
import { WasmHostError } from './errors.ts';

export interface OutputBudget {
  /** Bytes still allowed across all sinks sharing this budget. */
  remaining: number;
  readonly limit: number;
}

export function outputBudget(limit: number): OutputBudget {
  return { remaining: limit, limit };
}

export class CollectorFd extends Fd {
  private readonly parts: Uint8Array[] = [];
  private size = 0;
  private readonly ino: bigint = Inode.issue_ino();

  private readonly budget: OutputBudget;
  private readonly onChunk: ((chunk: Uint8Array) => void) | undefined;

  constructor(budget: OutputBudget, onChunk?: (chunk: Uint8Array) => void) {
    super();
    this.budget = budget;
    this.onChunk = onChunk;
  }

  override fd_fdstat_get(): { ret: number; fdstat: wasi.Fdstat | null } {
    const st = new wasi.Fdstat(wasi.FILETYPE_UNKNOWN, 0);
    st.fs_rights_base = BigInt(wasi.RIGHTS_FD_WRITE);
    return { ret: wasi.ERRNO_SUCCESS, fdstat: st };
  }

  override fd_filestat_get(): { ret: number; filestat: wasi.Filestat } {
    return { ret: wasi.ERRNO_SUCCESS, filestat: new wasi.Filestat(this.ino, wasi.FILETYPE_UNKNOWN, 0n) };
  }

  override fd_write(data: Uint8Array): { ret: number; nwritten: number } {
    this.append(data);
    return { ret: wasi.ERRNO_SUCCESS, nwritten: data.byteLength };
  }

  /** Adds bytes written by the guest (also used by non-WASI adapters). Throws past the budget. */
  append(data: Uint8Array): void {
    if (data.byteLength > this.budget.remaining) {
      this.budget.remaining = 0;
      throw new WasmHostError('output', `function output exceeded the limit of ${this.budget.limit} bytes`);
    }
    this.budget.remaining -= data.byteLength;
    this.parts.push(data);
    this.size += data.byteLength;
    this.onChunk?.(data);
  }

  get byteLength(): number {
    return this.size;
  }

  /** Everything written so far, as one buffer (one copy; none when there is a single chunk). */
  bytes(): Uint8Array {
    if (this.parts.length === 1) return this.parts[0];
    const out = new Uint8Array(this.size);
    let at = 0;
    for (const p of this.parts) {
      out.set(p, at);
      at += p.byteLength;
    }
    return out;
  }
}
