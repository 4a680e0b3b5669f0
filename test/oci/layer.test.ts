/**
 * Reading the module out of a WASM image layer (wasm/oci/layout.ts `wasmFromLayer`): a bare
 * module, a tar holding it (also without tar's end-of-archive marker or last padding, as kpt
 * writes layers), and a decompression bomb refused while it inflates.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { writeTar } from '../../src/core/tar.ts';
import { imageLayerReaders } from '../../src/runtimes/wasm.ts';
import { wasmFromLayer } from '../../wasm/oci/layout.ts';

const MODULE = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0, 7, 7, 7]);

describe('wasmFromLayer', () => {
  it('takes a bare module, gzip or not', async () => {
    expect(await wasmFromLayer(MODULE, imageLayerReaders)).toEqual(MODULE);
    expect(await wasmFromLayer(new Uint8Array(gzipSync(MODULE)), imageLayerReaders)).toEqual(MODULE);
  });

  it('takes the .wasm of a tar, with or without the end-of-archive marker and last padding', async () => {
    const full = writeTar([
      { path: 'README', data: new TextEncoder().encode('hi') },
      { path: 'fn.wasm', data: MODULE },
    ]);
    expect(await wasmFromLayer(new Uint8Array(gzipSync(full)), imageLayerReaders)).toEqual(MODULE);
    const unterminated = full.subarray(0, full.length - 1024 - (512 - MODULE.length));
    expect(await wasmFromLayer(unterminated, imageLayerReaders)).toEqual(MODULE);
    // A cut inside the data is still an error.
    await expect(wasmFromLayer(unterminated.subarray(0, unterminated.length - 3), imageLayerReaders)).rejects.toThrow(
      /truncated/,
    );
  });

  it('refuses a layer inflating past the cap, while inflating', async () => {
    const bomb = new Uint8Array(gzipSync(new Uint8Array(4 * 1024 * 1024)));
    expect(bomb.byteLength).toBeLessThan(10_000);
    await expect(wasmFromLayer(bomb, imageLayerReaders, 1024 * 1024)).rejects.toThrow(
      'the layer inflates to more than 1048576 bytes',
    );
  });
});
