/** Reads WASM modules and OCI layouts from the local filesystem, for the WASM runtime's loader. */
import { readFile, stat } from 'node:fs/promises';
import type { WasmLoader } from '../../runtimes/wasm.ts';

export function createNodeWasmLoader(): WasmLoader {
  return {
    async readFile(path: string): Promise<Uint8Array> {
      const b = await readFile(path);
      return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    },
    async stat(path: string): Promise<'file' | 'dir' | 'missing'> {
      try {
        const s = await stat(path);
        return s.isDirectory() ? 'dir' : 'file';
      } catch {
        return 'missing';
      }
    },
  };
}
