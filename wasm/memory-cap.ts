/**
 * Bounds a module's linear memory by rewriting its memory section before compilation
 * (docs/wasm.md, "Sandboxing"): every defined memory gets `max = min(declared max, cap)`, or `cap` when it
 * declares none. A module whose initial size already exceeds the cap, or whose memory is shared or
 * 64-bit, is refused. Imported memories are not touched here: the host caps them by the
 * `WebAssembly.Memory` it passes in (see `importedMemory` in classify.ts).
 *
 * Only section 5 is re-encoded; every other byte is copied unchanged, because no other section
 * refers to byte offsets inside it.
 */
import { concatBytes } from './bytes.ts';
import { WasmHostError } from './errors.ts';

export const WASM_PAGE_BYTES = 65_536;
/** The largest 32-bit memory a module may declare (4 GiB). */
export const MAX_WASM_PAGES = 65_536;

/** Cap in pages for a cap in bytes (rounded down, at least one page, at most 4 GiB). */
export function pagesForBytes(bytes: number): number {
  return Math.max(1, Math.min(MAX_WASM_PAGES, Math.floor(bytes / WASM_PAGE_BYTES)));
}

/** Limits of a memory the module imports, in pages (`maximum` absent when undeclared). */
export interface MemoryLimits {
  initial: number;
  maximum?: number;
}

export interface CappedModule {
  bytes: Uint8Array;
  /** The most pages the module's memory can reach: min(declared maximum, cap). */
  maxPages: number;
  /** Set when the module imports its memory: the host must create it within these limits. */
  importedMemory?: MemoryLimits;
}

/** `capMemory` plus what the host needs to supply an imported memory. */
export function capModuleMemory(bytes: Uint8Array, capPages: number): CappedModule {
  const limit = { maxPages: 0 };
  const out: CappedModule = { bytes: capMemory(bytes, capPages, limit), maxPages: capPages };
  if (limit.maxPages > 0) out.maxPages = limit.maxPages;
  const imported = importedMemoryLimits(bytes);
  if (imported) {
    out.maxPages = Math.min(imported.maximum ?? capPages, capPages);
    if (imported.initial > capPages) {
      throw new WasmHostError(
        'memory',
        `module needs ${imported.initial} pages (${mib(imported.initial)} MiB) of memory initially, above the cap of ${capPages} pages (${mib(capPages)} MiB)`,
      );
    }
    out.importedMemory = imported;
  }
  return out;
}

/** Limits of the first imported memory, read from the import section (id 2). */
export function importedMemoryLimits(bytes: Uint8Array): MemoryLimits | undefined {
  const r = new Reader(bytes, 8);
  while (r.pos < bytes.byteLength) {
    const id = r.byte();
    const size = r.u32();
    const end = r.pos + size;
    if (id !== 2) {
      r.pos = end;
      continue;
    }
    const count = r.u32();
    for (let i = 0; i < count; i++) {
      for (let name = 0; name < 2; name++) {
        const len = r.u32(); // module name, then field name
        r.pos += len;
      }
      const kind = r.byte();
      if (kind === 0) r.u32();
      else if (kind === 1) {
        r.byte();
        const flags = r.byte();
        r.u32();
        if (flags & 1) r.u32();
      } else if (kind === 2) {
        const flags = r.byte();
        if (flags & 0x06) throw new WasmHostError('compile', 'shared or 64-bit memories are not supported');
        const initial = r.u32();
        return flags & 1 ? { initial, maximum: r.u32() } : { initial };
      } else if (kind === 3) {
        r.byte();
        r.byte();
      } else if (kind === 4) {
        r.byte();
        r.u32();
      } else throw new WasmHostError('compile', `malformed module: unknown import kind ${kind}`);
    }
    return undefined;
  }
  return undefined;
}

/** `limit.maxPages` receives the largest effective maximum of the module's defined memories. */
export function capMemory(bytes: Uint8Array, capPages: number, limit?: { maxPages: number }): Uint8Array {
  if (bytes.byteLength < 8 || bytes[0] !== 0x00 || bytes[1] !== 0x61 || bytes[2] !== 0x73 || bytes[3] !== 0x6d) {
    throw new WasmHostError('compile', 'not a WebAssembly module: expected magic word 00 61 73 6d');
  }
  const r = new Reader(bytes, 8);
  const out: Uint8Array[] = [bytes.subarray(0, 8)];
  let changed = false;
  while (r.pos < bytes.byteLength) {
    const start = r.pos;
    const id = r.byte();
    const size = r.u32();
    const payloadStart = r.pos;
    const end = payloadStart + size;
    if (end > bytes.byteLength) throw new WasmHostError('compile', 'malformed module: section runs past the end');
    if (id === 5) {
      out.push(rewriteMemorySection(bytes.subarray(payloadStart, end), capPages, limit));
      changed = true;
    } else {
      out.push(bytes.subarray(start, end));
    }
    r.pos = end;
  }
  return changed ? concatBytes(out) : bytes;
}

function rewriteMemorySection(payload: Uint8Array, capPages: number, limit?: { maxPages: number }): Uint8Array {
  const r = new Reader(payload, 0);
  const count = r.u32();
  const body: number[] = [];
  pushU32(body, count);
  for (let i = 0; i < count; i++) {
    const flags = r.byte();
    if (flags & 0x02) throw new WasmHostError('compile', 'shared memories are not supported');
    if (flags & 0x04) throw new WasmHostError('compile', '64-bit memories are not supported');
    const min = r.u32();
    const max = flags & 0x01 ? r.u32() : MAX_WASM_PAGES;
    if (min > capPages) {
      throw new WasmHostError(
        'memory',
        `module needs ${min} pages (${mib(min)} MiB) of memory initially, above the cap of ${capPages} pages (${mib(capPages)} MiB)`,
      );
    }
    body.push(0x01);
    pushU32(body, min);
    const effective = Math.min(max, capPages);
    pushU32(body, effective);
    if (limit) limit.maxPages = Math.max(limit.maxPages, effective);
  }
  const header: number[] = [5];
  pushU32(header, body.length);
  return Uint8Array.from([...header, ...body]);
}

function mib(pages: number): string {
  return String(Math.round((pages * WASM_PAGE_BYTES) / 1048576));
}

function pushU32(out: number[], v: number): void {
  do {
    let b = v & 0x7f;
    v >>>= 7;
    if (v !== 0) b |= 0x80;
    out.push(b);
  } while (v !== 0);
}

class Reader {
  readonly buf: Uint8Array;
  pos: number;
  constructor(buf: Uint8Array, pos: number) {
    this.buf = buf;
    this.pos = pos;
  }
  byte(): number {
    if (this.pos >= this.buf.byteLength) throw new WasmHostError('compile', 'malformed module: unexpected end');
    return this.buf[this.pos++];
  }
  u32(): number {
    let result = 0;
    let shift = 0;
    for (;;) {
      const b = this.byte();
      result += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) break;
      shift += 7;
      if (shift > 28) throw new WasmHostError('compile', 'malformed module: LEB128 too long');
    }
    return result;
  }
}
