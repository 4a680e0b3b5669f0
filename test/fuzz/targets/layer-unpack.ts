/**
 * The image layer unpacker (src/node/sandbox/unpack.ts) on generated hostile layers: files,
 * directories, symlinks pointing anywhere (outside the root, at `/`, up many levels, at each
 * other), hard links, whiteouts and opaque markers over a few shared names, in one or two layers;
 * and raw bytes as a layer (the corpus). Whatever the input: a clean krmfn error or a tree, never a
 * host exception, nothing written outside the cache, and no half-unpacked tree left in it.
 */
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { writeTar, type TarWriteEntry } from '../../../src/core/tar.ts';
import type { SandboxImage } from '../../../src/node/sandbox/image.ts';
import { unpackImage } from '../../../src/node/sandbox/unpack.ts';
import { onlyCleanErrors, target } from '../harness.ts';

const OUTSIDE = '@OUTSIDE@';
const name = fc.constantFrom('a', 'b', 'etc', 'x');
const path = fc.array(name, { minLength: 1, maxLength: 3 }).map((s) => s.join('/'));
const linkTarget = fc.oneof(
  path,
  fc.constantFrom('/', '.', '..', '../../../..', '/etc', OUTSIDE, `${OUTSIDE}/secret`, '../'.repeat(12) + 'tmp'),
  path.map((p) => `/${p}`),
  path.map((p) => `../${p}`),
);
const record = fc.oneof(
  fc.record({ kind: fc.constant('file' as const), path, data: fc.constantFrom('one', 'two') }),
  fc.record({ kind: fc.constant('dir' as const), path }),
  fc.record({ kind: fc.constant('symlink' as const), path, linkTarget }),
  fc.record({ kind: fc.constant('hardlink' as const), path, linkTarget: path }),
  fc.record({ kind: fc.constant('whiteout' as const), path }),
  fc.record({ kind: fc.constant('opaque' as const), path }),
);
type Rec = { kind: string; path: string; data?: string; linkTarget?: string };

type Input = { kind: 'layers'; layers: Rec[][] } | { kind: 'bytes'; bytes: Uint8Array };

const enc = new TextEncoder();
const sha256 = (b: Uint8Array | string): string => `sha256:${createHash('sha256').update(b).digest('hex')}`;

function tarOf(records: Rec[], outside: string): Uint8Array {
  const entries: TarWriteEntry[] = records.map((r) => {
    const cut = r.path.lastIndexOf('/');
    const parent = cut < 0 ? '' : `${r.path.slice(0, cut)}/`;
    const base = r.path.slice(cut + 1);
    if (r.kind === 'whiteout') return { path: `${parent}.wh.${base}`, data: new Uint8Array(0) };
    if (r.kind === 'opaque') return { path: `${r.path}/.wh..wh..opq`, data: new Uint8Array(0) };
    const linkTarget = r.linkTarget?.replace(OUTSIDE, outside);
    return {
      path: r.path,
      kind: r.kind as TarWriteEntry['kind'],
      data: enc.encode(r.data ?? ''),
      ...(linkTarget !== undefined ? { linkTarget } : {}),
    };
  });
  return writeTar(entries);
}

function check(i: Input): void {
  const work = mkdtempSync(join(tmpdir(), 'krmfn-fuzz-unpack-'));
  try {
    const outside = join(work, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'secret'), 'secret');
    const tars = i.kind === 'bytes' ? [i.bytes] : i.layers.map((l) => tarOf(l, outside));
    const layers = tars.map((t) => {
      const bytes = new Uint8Array(gzipSync(t));
      return {
        mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip',
        digest: sha256(bytes),
        size: bytes.length,
        bytes,
      };
    });
    const image: SandboxImage = {
      reference: 'fuzz.test/layers:1',
      id: sha256(JSON.stringify(layers.map((l) => l.digest))),
      config: { entrypoint: [], cmd: [], env: [], workingDir: '', user: '', os: 'linux', architecture: 'amd64' },
      layers,
    };
    onlyCleanErrors(() => unpackImage(image, join(work, 'cache'), { maxUnpackedBytes: 1 << 20, maxEntries: 1000 }));
    const top = readdirSync(work).sort();
    if (top.join() !== 'cache,outside' && top.join() !== 'outside')
      throw new Error(`written beside the cache: ${top.join()}`);
    if (readdirSync(outside).join() !== 'secret' || readFileSync(join(outside, 'secret'), 'utf8') !== 'secret')
      throw new Error('the unpacker changed a directory outside the cache');
    const rootfs = join(work, 'cache', 'rootfs');
    const left = top.includes('cache') ? readdirSync(rootfs).filter((n) => n.startsWith('.tmp-')) : [];
    if (left.length) throw new Error(`half-unpacked tree left: ${left.join()}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export const layerUnpackTarget = target<Input>({
  name: 'layer-unpack',
  arbitrary: fc
    .array(fc.array(record, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 2 })
    .map((layers) => ({ kind: 'layers' as const, layers })),
  check,
  fromCorpus: (bytes) => ({ kind: 'bytes', bytes }),
});
