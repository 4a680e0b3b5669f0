/**
 * A guard run on every compressed zstd block before fzstd decodes it: `huffmanWeightsOverflow`
 * says whether the block's Huffman tree description (RFC 8878, section 4.2.1) holds FSE-compressed
 * weights whose decoding would produce more than 255 weights.
 *
 * Why: fzstd 0.1.1 decodes those weights in a loop that ends only when its bit position passes the
 * start of the stream, and checks the 255-weight maximum after the loop. A table whose states read
 * zero bits (or a state past the table, which makes the position NaN) never moves the position:
 * the loop never ends and the whole process hangs on a 300-byte layer (found by the zstd-layer
 * fuzz target, test/fuzz/corpus/zstd-layer/huffman-weights-zero-bit-states.zst). The reference
 * decoder stops at the maximum instead (facebook/zstd lib/common/entropy_common.c at v1.5.5, HUF_readStats).
 *
 * The guard replays fzstd's table construction and weight loop with the same integer arithmetic
 * (typed arrays of the same widths, so out-of-range reads and wrapping behave alike) and stops
 * as soon as the count passes 255: a block it flags is one fzstd would reject or hang on, so
 * refusing it changes no successful decode. Where the replay meets an error fzstd reports itself
 * (bad accuracy log, probabilities that do not add up), it answers false and leaves the report to
 * fzstd. Hand-written: fzstd exports no hook, and it is the only pure-JS streaming decoder
 * (src/node/sandbox/zstd.ts).
 */

/** Most significant bit of `v`, -1 for 0 (fzstd's `msb`). */
function msb(v: number): number {
  let bits = 0;
  while (2 ** bits <= v) bits++;
  return bits - 1;
}

interface FseTable {
  accuracyLog: number;
  symbols: Uint8Array;
  bits: Uint8Array;
  next: Uint16Array;
}

/** The FSE table at byte `at` and the byte after its description, or undefined where fzstd fails. */
function readFseTable(b: Uint8Array, at: number): { end: number; table: FseTable } | undefined {
  let tpos = (at << 3) + 4;
  const al = (b[at] & 15) + 5;
  if (al > 6) return undefined;
  const size = 1 << al;
  let probs = size;
  let sym = -1;
  let high = size;
  const shared = new ArrayBuffer(512);
  const freq = new Int16Array(shared, 0, 256);
  const state = new Uint16Array(shared, 0, 256); // the same bytes as freq, as in fzstd
  const next = new Uint16Array(size);
  const symbols = new Uint8Array(size);
  const bits = new Uint8Array(size);
  while (sym < 255 && probs > 0) {
    const n = msb(probs + 1);
    const cbt = tpos >> 3;
    const mask = (1 << (n + 1)) - 1;
    let val = ((b[cbt] | (b[cbt + 1] << 8) | (b[cbt + 2] << 16)) >> (tpos & 7)) & mask;
    const mask1 = (1 << n) - 1;
    const maxSmall = mask - probs - 1;
    const small = val & mask1;
    if (small < maxSmall) {
      tpos += n;
      val = small;
    } else {
      tpos += n + 1;
      if (val > mask1) val -= maxSmall;
    }
    freq[++sym] = --val;
    if (val === -1) {
      probs += val;
      symbols[--high] = sym;
    } else probs -= val;
    if (!val) {
      let repeat: number;
      do {
        const rbt = tpos >> 3;
        repeat = ((b[rbt] | (b[rbt + 1] << 8)) >> (tpos & 7)) & 3;
        tpos += 2;
        sym += repeat;
      } while (repeat === 3);
    }
  }
  if (sym > 255 || probs) return undefined;
  let pos = 0;
  const step = (size >> 1) + (size >> 3) + 3;
  for (let s = 0; s <= sym; s++) {
    const count = freq[s];
    if (count < 1) {
      state[s] = -count;
      continue;
    }
    for (let i = 0; i < count; i++) {
      symbols[pos] = s;
      do pos = (pos + step) & (size - 1);
      while (pos >= high);
    }
  }
  if (pos) return undefined;
  for (let i = 0; i < size; i++) {
    const ns = state[symbols[i]]++;
    const nb = (bits[i] = al - msb(ns));
    next[i] = (ns << nb) - size;
  }
  return { end: (tpos + 7) >> 3, table: { accuracyLog: al, symbols, bits, next } };
}

/** The most weights a Huffman tree description may hold (RFC 8878, section 4.2.1.1). */
const MAX_WEIGHTS = 255;

/** Whether the FSE-compressed weights starting with header byte `at` decode past the maximum. */
function weightsOverflow(b: Uint8Array, at: number): boolean {
  const header = b[at];
  const read = readFseTable(b, at + 1);
  if (!read) return false;
  const { table } = read;
  const last = at + header;
  const lastByte = b[last];
  if (!lastByte) return false;
  const start = read.end << 3;
  let fpos = ((last + 1) << 3) - 8 + msb(lastByte);
  let st1 = 0;
  let st2 = 0;
  let bits1: number = table.accuracyLog;
  let bits2: number = bits1;
  // A state past the table reads undefined (noUncheckedIndexedAccess is off), and the position
  // becomes NaN, as in fzstd: only the weight count ends the loop then.
  const at8 = (p: number): number => (b[p >> 3] | (b[(p >> 3) + 1] << 8)) >> (p & 7);
  for (let weights = 0; ;) {
    fpos -= bits1;
    if (fpos < start) return false;
    st1 += at8(fpos) & ((1 << bits1) - 1);
    if (++weights > MAX_WEIGHTS) return true;
    fpos -= bits2;
    if (fpos < start) return false;
    st2 += at8(fpos) & ((1 << bits2) - 1);
    if (++weights > MAX_WEIGHTS) return true;
    bits1 = table.bits[st1];
    st1 = table.next[st1];
    bits2 = table.bits[st2];
    st2 = table.next[st2];
  }
}

/**
 * Whether the compressed block whose content starts at `at` has a Huffman tree description with
 * FSE-compressed weights that decode past 255 (see the file comment).
 */
export function huffmanWeightsOverflow(b: Uint8Array, at: number): boolean {
  const first = b[at];
  if ((first & 3) !== 2) return false; // not Compressed_Literals_Block: no tree description
  const sizeFormat = (first >> 2) & 3;
  const treeAt = at + [3, 3, 4, 5][sizeFormat];
  return b[treeAt] < 128 && weightsOverflow(b, treeAt);
}
