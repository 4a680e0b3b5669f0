/**
 * The zstd layer decoder (src/node/sandbox/zstd.ts) on damaged frames: the seed corpus (frames
 * written by the zstd CLI from our own generated data: text, several frames with a skippable one,
 * no checksum) with bytes overwritten, cut, repeated or inserted. Whatever the input: the tar
 * bytes, never more than the cap, or a `ZstdLayerError`; never a host exception (a RangeError, an
 * allocation the frame header claimed) and never a hang.
 */
import fc from 'fast-check';
import { inflateZstd, ZstdLayerError } from '../../../src/node/sandbox/zstd.ts';
import { corpusOf, onlyCleanErrors, target } from '../harness.ts';

const CAP = 1 << 20;
const seeds = corpusOf('zstd-layer').map((c) => c.bytes);

const mutation = fc.oneof(
  fc.record({ op: fc.constant('set' as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ op: fc.constant('cut' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('repeat' as const), at: fc.nat(), length: fc.nat({ max: 64 }) }),
  fc.record({ op: fc.constant('insert' as const), at: fc.nat(), bytes: fc.uint8Array({ maxLength: 16 }) }),
);
type Mutation = typeof mutation extends fc.Arbitrary<infer M> ? M : never;

function mutate(seed: Uint8Array, mutations: Mutation[]): Uint8Array {
  let b = seed.slice();
  for (const m of mutations) {
    if (b.length === 0) break;
    const at = m.at % b.length;
    if (m.op === 'set') b[at] = m.byte;
    else if (m.op === 'cut') b = b.slice(0, at);
    else if (m.op === 'repeat') b = new Uint8Array([...b.subarray(0, at + m.length), ...b.subarray(at)]);
    else b = new Uint8Array([...b.subarray(0, at), ...m.bytes, ...b.subarray(at)]);
  }
  return b;
}

function check(bytes: Uint8Array): void {
  const out = onlyCleanErrors(
    () => inflateZstd(bytes, CAP),
    (e) => e instanceof ZstdLayerError,
  );
  if (out && out.length > CAP) throw new Error(`decoded ${out.length} bytes past the cap of ${CAP}`);
}

export const zstdLayerTarget = target<Uint8Array>({
  name: 'zstd-layer',
  arbitrary: fc
    .record({ seed: fc.nat(), mutations: fc.array(mutation, { minLength: 1, maxLength: 4 }) })
    .map(({ seed, mutations }) => mutate(seeds[seed % seeds.length], mutations)),
  check,
  fromCorpus: (bytes) => bytes,
});
