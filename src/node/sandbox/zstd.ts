/**
 * Inflates a zstd layer (`application/vnd.oci.image.layer.v1.tar+zstd`) under the same byte cap
 * as gzip layers (src/node/sandbox/unpack.ts), or throws `ZstdLayerError`.
 *
 * Node 20's zlib has no zstd, so decompression is fzstd's streaming decoder (pure JS, MIT, no
 * dependencies; the project's only pure-JS zstd decoder that streams): output is counted block by
 * block and decoding stops as soon as it passes the cap, so a bomb never grows past
 * `cap + one block` (128 KiB).
 *
 * Before any byte is decoded every frame is walked (RFC 8878, section 3.1: frame header, block
 * headers, checksum; skippable frames) and refused when it declares a window larger than
 * `MAX_ZSTD_WINDOW`: the decoder allocates the declared window up front, so a 40-byte frame could
 * otherwise claim 2 GiB, and fzstd cannot follow back-references farther than 32 MiB (its README,
 * "Considerations"), which only `zstd --long` or levels 20+ on large inputs produce. Dictionaries
 * are refused (an image layer has none to name). A compressed block whose Huffman weights would
 * send fzstd into an endless loop is refused too (src/node/sandbox/zstd-huffman-guard.ts).
 */
import { concatBytes } from '../../core/bytes.ts';
import { Decompress } from 'fzstd';
import { huffmanWeightsOverflow } from './zstd-huffman-guard.ts';

/** Largest window accepted: fzstd's back-reference reach (2^25 bytes). */
export const MAX_ZSTD_WINDOW = 32 * 1024 * 1024;

export class ZstdLayerError extends Error {
  /** `too-big`: output passed the cap; `invalid`: not a zstd stream this decoder accepts. */
  readonly reason: 'too-big' | 'invalid';
  constructor(reason: 'too-big' | 'invalid', message: string) {
    super(message);
    this.reason = reason;
  }
}

const invalid = (message: string): ZstdLayerError => new ZstdLayerError('invalid', message);

/** True when `bytes` starts with a zstd frame or a skippable frame magic number. */
export function isZstd(bytes: Uint8Array): boolean {
  if (bytes.length < 4) return false;
  if (bytes[0] === 0x28 && bytes[1] === 0xb5 && bytes[2] === 0x2f && bytes[3] === 0xfd) return true;
  return (bytes[0] & 0xf0) === 0x50 && bytes[1] === 0x2a && bytes[2] === 0x4d && bytes[3] === 0x18;
}

const u32 = (b: Uint8Array, at: number): number => (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16)) + b[at + 3] * 2 ** 24;

function need(b: Uint8Array, end: number): void {
  if (end > b.length) throw invalid('truncated zstd frame');
}

/** Offset after the frame (zstd or skippable) starting at `at`; refuses large windows and dictionaries. */
function checkFrame(b: Uint8Array, at: number): number {
  need(b, at + 8);
  if ((b[at] & 0xf0) === 0x50 && b[at + 1] === 0x2a && b[at + 2] === 0x4d && b[at + 3] === 0x18) {
    const end = at + 8 + u32(b, at + 4);
    need(b, end);
    return end;
  }
  if (!(b[at] === 0x28 && b[at + 1] === 0xb5 && b[at + 2] === 0x2f && b[at + 3] === 0xfd)) {
    throw invalid(`no zstd frame at byte ${at}`);
  }
  const fhd = b[at + 4];
  const fcsFlag = fhd >> 6;
  const singleSegment = (fhd >> 5) & 1;
  const checksum = (fhd >> 2) & 1;
  const dictFlag = fhd & 3;
  if (fhd & 8) throw invalid('zstd frame header has its reserved bit set');
  if (dictFlag !== 0) throw invalid('zstd frames compressed with a dictionary are not supported');
  let p = at + 5;
  let window = 0;
  if (!singleSegment) {
    const wd = b[p++];
    const base = 2 ** (10 + (wd >> 3));
    window = base + (base / 8) * (wd & 7);
  }
  const fcsBytes = [singleSegment, 2, 4, 8][fcsFlag];
  need(b, p + fcsBytes + 3);
  if (singleSegment) {
    // The window is the whole content: its declared size.
    if (fcsBytes === 1) window = b[p];
    else if (fcsBytes === 2) window = (b[p] | (b[p + 1] << 8)) + 256;
    else if (fcsBytes === 4) window = u32(b, p);
    else window = u32(b, p) + u32(b, p + 4) * 2 ** 32;
  }
  p += fcsBytes;
  if (window > MAX_ZSTD_WINDOW) {
    throw invalid(`zstd window of ${window} bytes is larger than the ${MAX_ZSTD_WINDOW} supported (zstd --long)`);
  }
  for (;;) {
    need(b, p + 3);
    const header = b[p] | (b[p + 1] << 8) | (b[p + 2] << 16);
    const type = (header >> 1) & 3;
    if (type === 3) throw invalid('zstd block of the reserved type');
    if (type === 2 && huffmanWeightsOverflow(b, p + 3)) {
      throw invalid(`zstd block at byte ${p} has a Huffman description of more than 255 weights`);
    }
    p += 3 + (type === 1 ? 1 : header >>> 3);
    need(b, p);
    if (header & 1) break;
  }
  p += checksum * 4;
  need(b, p);
  return p;
}

/** The tar bytes of a zstd layer, at most `cap` of them (see the file comment). */
export function inflateZstd(bytes: Uint8Array, cap: number): Uint8Array {
  for (let at = 0; at < bytes.length;) at = checkFrame(bytes, at);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const stream = new Decompress((chunk) => {
    total += chunk.length;
    if (total > cap) throw new ZstdLayerError('too-big', `zstd layer inflates past ${cap} bytes`);
    chunks.push(chunk);
  });
  try {
    stream.push(bytes, true);
  } catch (e) {
    if (e instanceof ZstdLayerError) throw e;
    throw invalid((e as Error).message);
  }
  return concatBytes(chunks);
}
