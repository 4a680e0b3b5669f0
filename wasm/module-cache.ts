/**
 * Compiles modules once per content and memory cap. The key is the sha256 of the original bytes
 * (crypto.subtle) plus the cap, so the same file under two caps compiles twice and a changed file
 * never hits a stale entry. A `WebAssembly.Module` is structured-cloneable: workers receive the
 * cached one and share its code instead of recompiling.
 *
 * The cache is an object the caller owns (no module-wide singleton); entries are evicted least
 * recently used beyond `maxEntries`.
 */
import { classifyModule, type ModuleAbi } from './classify.ts';
import { WasmHostError } from './errors.ts';
import { capModuleMemory, pagesForBytes, type MemoryLimits } from './memory-cap.ts';

export interface PreparedModule {
  module: WebAssembly.Module;
  /** `sha256:<hex>` of the bytes as loaded (before the memory patch). */
  digest: string;
  abi: ModuleAbi;
  /** The host's linear-memory cap, in 64 KiB pages, the module was compiled with. */
  capPages: number;
  /** The most pages the memory can reach: min(the module's declared maximum, capPages). */
  maxPages: number;
  /** Cache key: digest and cap. Workers use it to keep per-module state (Go js instances). */
  key: string;
  /** Declared limits of an imported memory; the host creates it with `maximum` capped. */
  importedMemory?: MemoryLimits;
}

export interface PrepareOptions {
  /** Linear-memory cap in bytes. */
  maxMemoryBytes: number;
}

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  const view = new Uint8Array(digest);
  let hex = '';
  for (const b of view) hex += b.toString(16).padStart(2, '0');
  return hex;
}

/** Patches the memory cap in, compiles and classifies, with no caching. */
export async function prepareModule(bytes: Uint8Array, opts: PrepareOptions, digest?: string): Promise<PreparedModule> {
  const capPages = pagesForBytes(opts.maxMemoryBytes);
  const d = digest ?? `sha256:${await sha256Hex(bytes)}`;
  const capped = capModuleMemory(bytes, capPages);
  let module: WebAssembly.Module;
  try {
    module = await WebAssembly.compile(capped.bytes as Uint8Array<ArrayBuffer>);
  } catch (e) {
    throw new WasmHostError('compile', `invalid WebAssembly module: ${e instanceof Error ? e.message : String(e)}`);
  }
  const prepared: PreparedModule = {
    module,
    digest: d,
    abi: classifyModule(module),
    capPages,
    maxPages: capped.maxPages,
    key: `${d}/${capPages}`,
  };
  if (capped.importedMemory) prepared.importedMemory = capped.importedMemory;
  return prepared;
}

export class ModuleCache {
  private readonly entries = new Map<string, Promise<PreparedModule>>();
  private readonly maxEntries: number;
  hits = 0;
  misses = 0;

  constructor(maxEntries = 64) {
    this.maxEntries = maxEntries;
  }

  /** The compiled module for these bytes under this cap; compiles on first use. */
  async get(bytes: Uint8Array, opts: PrepareOptions): Promise<PreparedModule> {
    const digest = `sha256:${await sha256Hex(bytes)}`;
    const key = `${digest}/${pagesForBytes(opts.maxMemoryBytes)}`;
    const hit = this.entries.get(key);
    if (hit) {
      this.hits++;
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    this.misses++;
    const pending = prepareModule(bytes, opts, digest);
    this.entries.set(key, pending);
    pending.catch(() => this.entries.delete(key));
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
    return pending;
  }

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
  }
}
