/** Byte-array helpers shared by the core's readers and writers and the Node edge (src/core/capped-read.ts, src/core/tar.ts, src/node/sandbox/zstd.ts). */

/** The arrays of `parts` joined into one new array. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  let total = 0;
  for (const p of parts) total += p.byteLength;
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}
