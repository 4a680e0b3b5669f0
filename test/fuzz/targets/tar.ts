/**
 * The tar reader (src/core/tar.ts): archives written by writeTar read back as the same entries;
 * random, truncated and corrupted archives give entries or a krmfn error, never a host exception,
 * from `readTar` and from `readTarRecords` alike.
 */
import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { readTar, readTarRecords, writeTar, type TarEntry } from '../../../src/core/tar.ts';
import { onlyCleanErrors, target } from '../harness.ts';

const seg = fc.stringMatching(/^[a-zA-Z0-9_.-]{1,20}$/).filter((s) => s !== '.' && s !== '..');
const entry = fc.record({
  path: fc.array(seg, { minLength: 1, maxLength: 4 }).map((s) => s.join('/')),
  data: fc.uint8Array({ maxLength: 1500 }),
});
const entries = fc.uniqueArray(entry, { selector: (e) => e.path, maxLength: 4 });

type Input =
  | { kind: 'roundtrip'; entries: TarEntry[] }
  | { kind: 'mutated'; entries: TarEntry[]; cut: number; flips: Array<[number, number]> }
  | { kind: 'bytes'; bytes: Uint8Array };

function check(i: Input): void {
  if (i.kind === 'bytes') {
    onlyCleanErrors(() => readTar(i.bytes));
    onlyCleanErrors(() => readTarRecords(i.bytes));
    return;
  }
  const tar = writeTar(i.entries);
  if (i.kind === 'roundtrip') {
    const back = readTar(tar).map((e) => ({ path: e.path, data: new Uint8Array(e.data) }));
    if (
      !isDeepStrictEqual(
        back,
        i.entries.map((e) => ({ path: e.path, data: new Uint8Array(e.data) })),
      )
    )
      throw new Error(`tar round trip changed the entries: ${JSON.stringify(back.map((e) => e.path))}`);
    const records = readTarRecords(tar).map((r) => ({ path: r.path, data: new Uint8Array(r.data), kind: r.kind }));
    if (
      !isDeepStrictEqual(
        records,
        back.map((e) => ({ ...e, kind: 'file' })),
      )
    )
      throw new Error('readTarRecords and readTar disagree on the files of an archive');
    return;
  }
  const bytes = tar.slice(0, Math.min(tar.length, i.cut));
  for (const [at, value] of i.flips) if (bytes.length) bytes[at % bytes.length] = value;
  onlyCleanErrors(() => readTar(bytes));
  onlyCleanErrors(() => readTarRecords(bytes));
}

export const tarTarget = target<Input>({
  name: 'tar',
  arbitrary: fc.oneof(
    entries.map((e) => ({ kind: 'roundtrip' as const, entries: e })),
    fc.record({
      kind: fc.constant('mutated' as const),
      entries,
      cut: fc.nat({ max: 8000 }),
      flips: fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 6 }),
    }),
    fc.uint8Array({ maxLength: 3000 }).map((bytes) => ({ kind: 'bytes' as const, bytes })),
  ),
  check,
  fromCorpus: (bytes) => ({ kind: 'bytes', bytes }),
});
