/**
 * Reads a byte stream to its end into one array, failing once it passes a byte cap: the stream is
 * cancelled and `onOverflow` (which throws the caller's own error) is called. The one capped reader
 * of the tree: registry bodies (src/core/oci/transport.ts `readCapped`) and inflating WASM image
 * layers (wasm/oci/layout.ts, which receives it by injection since wasm/ imports nothing in the repo).
 */
import { concatBytes } from './bytes.ts';

export async function readStreamCapped(
  stream: ReadableStream<Uint8Array> | null,
  max: number,
  onOverflow: () => never,
): Promise<Uint8Array> {
  if (!stream) return new Uint8Array(0);
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel();
      onOverflow();
    }
    chunks.push(value);
  }
  return concatBytes(chunks);
}
