/**
 * Layer unpacking (src/node/sandbox/unpack.ts) on real files: the OCI layer rules (whiteouts,
 * opaque directories, links, modes), zstd layers written by the real `zstd` CLI, the cache, and
 * hostile images (paths and links escaping the root, gzip and zstd decompression bombs, zstd frames
 * declaring huge windows, lying sizes, digest mismatches, entry floods): each refused or
 * confined, with nothing written outside the cache and no half-unpacked tree left in it.
 */
import {
  existsSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isKrmfnError } from '../../src/core/errors.ts';
import { writeTar } from '../../src/core/tar.ts';
import type { LayerBlob, SandboxImage } from '../../src/node/sandbox/image.ts';
import { unpackImage } from '../../src/node/sandbox/unpack.ts';
import { enc, image, layer, sha256, withFirstHeader, ZSTD_LAYER, zstdBlob, zstdCompress } from './helpers.ts';

const none = new Uint8Array(0);
let work: string;
let cache: string;
let outside: string;

beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'krmfn-unpack-'));
  cache = join(work, 'cache');
  outside = join(work, 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret'), 'host secret\n');
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

function blob(tar: Uint8Array): LayerBlob {
  const bytes = new Uint8Array(gzipSync(tar));
  return { mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', digest: sha256(bytes), size: bytes.length, bytes };
}

function refusal(img: SandboxImage, limits?: { maxUnpackedBytes: number; maxEntries: number }): string {
  try {
    unpackImage(img, cache, limits);
  } catch (e) {
    if (!isKrmfnError(e)) throw e;
    return `${e.code}: ${e.message}`;
  }
  throw new Error('unpacked a hostile image');
}

/** Nothing but finished trees in the cache, and the host file untouched. */
function expectNothingLeaked(): void {
  const left = existsSync(join(cache, 'rootfs')) ? readdirSync(join(cache, 'rootfs')) : [];
  expect(left.filter((n) => n.startsWith('.tmp-'))).toEqual([]);
  expect(readdirSync(outside)).toEqual(['secret']);
  expect(readFileSync(join(outside, 'secret'), 'utf8')).toBe('host secret\n');
}

describe('layer rules', () => {
  it('applies files, modes, directories, links and whiteouts in layer order', () => {
    const base = layer([
      { path: 'bin', kind: 'dir', data: none },
      { path: 'bin/tool', data: enc('#!/bin/sh\n'), mode: 0o755 },
      { path: 'bin/alias', kind: 'symlink', linkTarget: 'tool', data: none },
      { path: 'bin/hard', kind: 'hardlink', linkTarget: 'bin/tool', data: none },
      { path: 'gone', data: enc('removed by a whiteout') },
      { path: 'opq/lower', data: enc('hidden by an opaque whiteout') },
      { path: 'keep/a', data: enc('a') },
      { path: 'suid', data: enc('x'), mode: 0o4755 },
    ]);
    const top = layer([
      { path: '.wh.gone', data: none },
      { path: 'opq/upper-before', data: enc('same layer, before the marker') },
      { path: 'opq/.wh..wh..opq', data: none },
      { path: 'opq/upper-after', data: enc('same layer, after the marker') },
      { path: 'keep/b', data: enc('b') },
    ]);
    const root = unpackImage(image('example.test/layers:1', [base, top]), cache);
    expect(readFileSync(join(root, 'bin/tool'), 'utf8')).toBe('#!/bin/sh\n');
    expect(statSync(join(root, 'bin/tool')).mode & 0o777).toBe(0o755);
    expect(readlinkSync(join(root, 'bin/alias'))).toBe('tool');
    expect(statSync(join(root, 'bin/hard')).ino).toBe(statSync(join(root, 'bin/tool')).ino);
    expect(existsSync(join(root, 'gone'))).toBe(false);
    expect(readdirSync(join(root, 'opq')).sort()).toEqual(['upper-after', 'upper-before']);
    expect(readdirSync(join(root, 'keep')).sort()).toEqual(['a', 'b']);
    expect(statSync(join(root, 'suid')).mode & 0o7777).toBe(0o755);
  });

  it('reuses the unpacked tree of an image id without reading its layers again', () => {
    const img = image('example.test/cached:1', [layer([{ path: 'f', data: enc('one') }])]);
    const first = unpackImage(img, cache);
    const broken = { ...img, layers: [{ ...img.layers[0], bytes: enc('not gzip') }] };
    expect(unpackImage(broken, cache)).toBe(first);
  });
});

describe('zstd layers', () => {
  const files = [
    { path: 'etc', kind: 'dir' as const, data: none },
    { path: 'etc/motd', data: enc('zstd layer\n') },
    { path: 'big', data: new Uint8Array(3 * 1024 * 1024).map((_, i) => (i * 7919) % 251) },
  ];

  it('unpacks a layer compressed by the zstd CLI, over a gzip layer, as the same tree', () => {
    const gzipBase = layer([{ path: 'base', data: enc('from gzip') }]);
    const root = unpackImage(image('example.test/zstd:1', [gzipBase, zstdBlob(writeTar(files), ['-19'])]), cache);
    expect(readFileSync(join(root, 'etc/motd'), 'utf8')).toBe('zstd layer\n');
    expect(sha256(readFileSync(join(root, 'big')))).toBe(sha256(files[2].data));
    expect(readFileSync(join(root, 'base'), 'utf8')).toBe('from gzip');
  });

  it('reads several frames, a skippable frame, and a layer whose media type does not say zstd', () => {
    const tar = writeTar(files);
    const skippable = new Uint8Array([0x5a, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 1, 2, 3]);
    const bytes = new Uint8Array([
      ...zstdCompress(tar.subarray(0, 1000 * 512), ['--no-check']),
      ...skippable,
      ...zstdCompress(tar.subarray(1000 * 512), ['-1']),
    ]);
    const blob = {
      mediaType: 'application/vnd.oci.image.layer.v1.tar',
      digest: sha256(bytes),
      size: bytes.length,
      bytes,
    };
    const root = unpackImage(image('example.test/zstd:frames', [blob]), cache);
    expect(sha256(readFileSync(join(root, 'big')))).toBe(sha256(files[2].data));
  });
});

describe('hostile images', () => {
  const placeholderTar = (): Uint8Array => writeTar([{ path: 'placeholder', data: enc('x') }]).slice();

  it('refuses a path with .. and an absolute path', () => {
    for (const name of ['../escaped', 'a/../../escaped', '/etc/escaped']) {
      const msg = refusal(image('example.test/dotdot:1', [blob(withFirstHeader(placeholderTar(), name))]));
      expect(msg).toMatch(/^image-invalid: .*escapes the package root/);
    }
    expectNothingLeaked();
  });

  it('confines writes through a symlink to the root, in one layer or across layers', () => {
    const rel = `${'../'.repeat(12)}${outside.slice(1)}`;
    const one = layer([
      { path: 'esc', kind: 'symlink', linkTarget: rel, data: none },
      { path: 'esc/pwned', data: enc('owned') },
    ]);
    const root1 = unpackImage(image('example.test/symlink:1', [one]), cache);
    expect(readFileSync(join(root1, outside, 'pwned'), 'utf8')).toBe('owned');
    const lower = layer([{ path: 'abs', kind: 'symlink', linkTarget: outside, data: none }]);
    const upper = layer([
      { path: 'abs/secret', data: enc('overwritten?') },
      { path: 'abs/.wh.secret', data: none },
    ]);
    const root2 = unpackImage(image('example.test/symlink:2', [lower, upper]), cache);
    expect(existsSync(join(root2, outside, 'secret'))).toBe(false);
    expectNothingLeaked();
  });

  it('refuses hard links that leave the root or name a host file through a symlink', () => {
    const dotdot = withFirstHeader(
      writeTar([{ path: 'h', kind: 'hardlink', linkTarget: 'x', data: none }]).slice(),
      'h',
      '../../outside/secret',
    );
    expect(refusal(image('example.test/hardlink:1', [blob(dotdot)]))).toMatch(
      /^image-invalid: .*escapes the package root/,
    );
    const viaLink = layer([
      { path: 'd', kind: 'symlink', linkTarget: outside, data: none },
      { path: 'h', kind: 'hardlink', linkTarget: 'd/secret', data: none },
    ]);
    expect(refusal(image('example.test/hardlink:2', [viaLink]))).toMatch(/^image-invalid: .*not a file in the image/);
    expectNothingLeaked();
  });

  it('stops a decompression bomb at the size cap', () => {
    const bomb = blob(writeTar([{ path: 'zeros', data: new Uint8Array(16 * 1024 * 1024) }]));
    expect(bomb.size).toBeLessThan(64 * 1024);
    const msg = refusal(image('example.test/bomb:1', [bomb]), { maxUnpackedBytes: 1024 * 1024, maxEntries: 100 });
    expect(msg).toMatch(/^limit-exceeded: .*more than the size cap/);
    expectNothingLeaked();
  });

  it('stops a zstd decompression bomb at the size cap', () => {
    const bomb = zstdBlob(writeTar([{ path: 'zeros', data: new Uint8Array(64 * 1024 * 1024) }]), ['-19']);
    expect(bomb.size).toBeLessThan(16 * 1024);
    const msg = refusal(image('example.test/zstd-bomb:1', [bomb]), { maxUnpackedBytes: 1024 * 1024, maxEntries: 100 });
    expect(msg).toMatch(/^limit-exceeded: .*more than the size cap/);
    expectNothingLeaked();
  });

  it('refuses zstd frames declaring windows past 32 MiB before decoding them, and truncated zstd', () => {
    const long = zstdBlob(writeTar([{ path: 'f', data: enc('small') }]), ['--long=27']);
    expect(refusal(image('example.test/zstd-long:1', [long]))).toMatch(
      /^image-invalid: .*not valid zstd: zstd window of 134217728 bytes is larger than the 33554432 supported/,
    );
    // A hand-made single-segment frame claiming 2 GiB of content in 12 bytes.
    const claim = new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, 0xa0, 0, 0, 0, 0x80, 0x01, 0, 0]);
    const liar = { mediaType: ZSTD_LAYER, digest: sha256(claim), size: claim.length, bytes: claim };
    expect(refusal(image('example.test/zstd-claim:1', [liar]))).toMatch(/zstd window of 2147483648 bytes/);
    const whole = zstdCompress(writeTar([{ path: 'f', data: new Uint8Array(200_000).map((_, i) => i % 13) }]));
    const cut = whole.subarray(0, whole.length - 40);
    const cutBlob = { mediaType: ZSTD_LAYER, digest: sha256(cut), size: cut.length, bytes: cut };
    expect(refusal(image('example.test/zstd-cut:1', [cutBlob]))).toMatch(/^image-invalid: .*not valid zstd: truncated/);
    expectNothingLeaked();
  });

  it('refuses a zstd block whose Huffman weights would loop the decoder forever', () => {
    // Found by the zstd-layer fuzz target: one byte changed in a frame the zstd CLI wrote.
    const bytes = readFileSync(
      new URL('../fuzz/corpus/zstd-layer/huffman-weights-zero-bit-states.zst', import.meta.url),
    );
    const hostile = { mediaType: ZSTD_LAYER, digest: sha256(bytes), size: bytes.length, bytes: new Uint8Array(bytes) };
    expect(refusal(image('example.test/zstd-huffman:1', [hostile]))).toMatch(
      /^image-invalid: .*not valid zstd: zstd block at byte \d+ has a Huffman description of more than 255 weights/,
    );
    expectNothingLeaked();
  });

  it('refuses a blob whose size or digest is not what the manifest says', () => {
    const good = layer([{ path: 'f', data: enc('content') }]);
    expect(refusal(image('example.test/size:1', [{ ...good, size: good.size + 100 }]))).toMatch(
      /^image-invalid: .*is \d+ bytes, its manifest says \d+/,
    );
    const other = layer([{ path: 'f', data: enc('swapped') }]);
    expect(refusal(image('example.test/digest:1', [{ ...other, digest: good.digest, size: other.size }]))).toMatch(
      /^image-invalid: .*digest mismatch/,
    );
    expectNothingLeaked();
  });

  it('caps entries over all layers and refuses a truncated layer', () => {
    const many = (p: string) => layer(Array.from({ length: 6 }, (_, i) => ({ path: `${p}${i}`, data: enc('x') })));
    expect(
      refusal(image('example.test/flood:1', [many('a'), many('b')]), { maxUnpackedBytes: 1 << 20, maxEntries: 10 }),
    ).toMatch(/^limit-exceeded: .*more than 4 entries/);
    const whole = writeTar([{ path: 'f', data: new Uint8Array(4096) }]);
    expect(refusal(image('example.test/cut:1', [blob(whole.subarray(0, 2048))]))).toMatch(
      /^image-invalid: .*truncated/,
    );
    expectNothingLeaked();
  });

  it('keeps a hostile symlink a symlink: the unpacked file is in the tree, not the host', () => {
    const img = image('example.test/link-file:1', [
      layer([{ path: 'secret', kind: 'symlink', linkTarget: join(outside, 'secret'), data: none }]),
    ]);
    const root = unpackImage(img, cache);
    expect(lstatSync(join(root, 'secret')).isSymbolicLink()).toBe(true);
    expectNothingLeaked();
  });
});
