/**
 * Byte-array helpers of the WASM host. The host imports nothing outside wasm/ (it runs standalone
 * in workers and browsers), so it keeps this one copy of what src/core/bytes.ts offers the core.
 */

/** The arrays of `parts` joined into one array (the single part itself when there is one). */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0];
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
