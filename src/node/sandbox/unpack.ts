/**
 * Unpacks a container image's layers into a root filesystem in the cache, safely:
 *
 * - every blob must have the size and sha256 digest its manifest announced (a lying size or a
 *   swapped blob is refused before anything is decompressed);
 * - gzip'd and zstd layers (told by their magic numbers) are inflated with a byte cap (a
 *   decompression bomb stops at the cap; zstd through src/node/sandbox/zstd.ts), and entries are
 *   capped per image; tar is read by the one tar reader (src/core/tar.ts
 *   `readTarRecords`, which refuses absolute paths and `..`);
 * - parent directories are resolved inside the root (src/node/sandbox/scoped-path.ts), files are
 *   created with O_EXCL (never through a symlink), hard links must name a file already in the
 *   root: nothing is ever written outside it, whatever a symlink in an earlier layer points at;
 * - whiteouts (`.wh.NAME` removes NAME, `.wh..wh..opq` empties the directory of what lower layers
 *   put there) as the OCI image spec's layer format describes them;
 * - set-id bits are dropped, devices and fifos skipped (the sandbox gets its own /dev).
 *
 * The tree is built in a temporary directory beside its final place and renamed into
 * `<cache>/rootfs/<config digest>/` when complete, so a crash never leaves a half tree in use.
 */
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { KrmfnError, LimitExceededError } from '../../core/errors.ts';
import { readTarRecords, type TarRecord } from '../../core/tar.ts';
import type { LayerBlob, SandboxImage } from './image.ts';
import { resolveDirInRoot } from './scoped-path.ts';
import { inflateZstd, isZstd, ZstdLayerError } from './zstd.ts';

export interface UnpackLimits {
  /** Bytes of uncompressed tar accepted over all layers. */
  maxUnpackedBytes: number;
  /** Tar entries accepted over all layers. */
  maxEntries: number;
}

export const DEFAULT_UNPACK_LIMITS: UnpackLimits = { maxUnpackedBytes: 1024 * 1024 * 1024, maxEntries: 200_000 };

const COMPLETE_MARK = '.krmfn-complete';
const OPAQUE = '.wh..wh..opq';
const WHITEOUT = '.wh.';

function invalid(image: SandboxImage, message: string): KrmfnError {
  return new KrmfnError({
    code: 'image-invalid',
    message: `image ${image.reference}: ${message}`,
    function: image.reference,
  });
}

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/** The blob checked against its descriptor, then inflated to tar bytes within `budget`. */
function layerTar(image: SandboxImage, layer: LayerBlob, budget: number): Uint8Array {
  if (layer.bytes.length !== layer.size) {
    throw invalid(image, `layer ${layer.digest} is ${layer.bytes.length} bytes, its manifest says ${layer.size}`);
  }
  const m = /^sha256:([0-9a-f]{64})$/.exec(layer.digest);
  if (!m) throw invalid(image, `layer digest ${JSON.stringify(layer.digest)} is not a sha256 digest`);
  const actual = createHash('sha256').update(layer.bytes).digest('hex');
  if (actual !== m[1]) throw invalid(image, `layer ${layer.digest} has digest sha256:${actual} (digest mismatch)`);
  // The compression is read from the bytes, as containerd does, whatever the media type says.
  if (isZstd(layer.bytes)) {
    try {
      return inflateZstd(layer.bytes, Math.max(1, budget));
    } catch (e) {
      if (!(e instanceof ZstdLayerError)) throw e;
      if (e.reason === 'too-big') throw tooBig(image);
      throw invalid(image, `layer ${layer.digest} is not valid zstd: ${e.message}`);
    }
  }
  const gzipped = layer.bytes[0] === 0x1f && layer.bytes[1] === 0x8b;
  if (!gzipped) {
    if (layer.bytes.length > budget) throw tooBig(image);
    return layer.bytes;
  }
  try {
    return gunzipSync(layer.bytes, { maxOutputLength: Math.max(1, budget) });
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooBig(image);
    throw invalid(image, `layer ${layer.digest} is not valid gzip: ${(e as Error).message}`);
  }
}

function tooBig(image: SandboxImage): LimitExceededError {
  return new LimitExceededError('output', `image ${image.reference}: layers unpack to more than the size cap`);
}

/** Removes whatever is at `path` (a symlink itself, never its target). */
function removeEntry(path: string): void {
  rmSync(path, { recursive: true, force: true });
}

interface LayerState {
  root: string;
  /** Paths (root-relative) this layer created: an opaque whiteout keeps them. */
  created: Set<string>;
  /** Directory host paths and the modes they get once unpacking ends. */
  dirModes: Map<string, number>;
}

function parentAndBase(path: string): [string, string] {
  const cut = path.lastIndexOf('/');
  return cut < 0 ? ['', path] : [path.slice(0, cut), path.slice(cut + 1)];
}

function applyWhiteout(s: LayerState, parent: string, base: string): void {
  const dir = resolveDirInRoot(s.root, parent, false);
  if (!dir) return;
  if (base === OPAQUE) {
    for (const child of readdirSync(dir)) {
      if (!s.created.has(parent ? `${parent}/${child}` : child)) removeEntry(join(dir, child));
    }
    return;
  }
  removeEntry(join(dir, base.slice(WHITEOUT.length)));
}

function applyRecord(image: SandboxImage, s: LayerState, r: TarRecord): void {
  const [parent, base] = parentAndBase(r.path);
  if (base.startsWith(WHITEOUT)) return applyWhiteout(s, parent, base);
  if (r.path === '') {
    s.dirModes.set(s.root, r.mode);
    return;
  }
  const dir = resolveDirInRoot(s.root, parent, true)!;
  const host = join(dir, base);
  const existing = lstatOrUndefined(host);
  const mode = r.mode & 0o1777;
  switch (r.kind) {
    case 'dir':
      if (existing && !existing.isDirectory()) removeEntry(host);
      if (!existing?.isDirectory()) mkdirSync(host, { mode: 0o755 });
      s.dirModes.set(host, mode);
      break;
    case 'file':
      if (existing) removeEntry(host);
      writeFileSync(host, r.data, { flag: 'wx', mode: 0o600 });
      chmodSync(host, mode);
      break;
    case 'symlink':
      if (existing) removeEntry(host);
      symlinkSync(r.linkTarget ?? '', host);
      break;
    case 'hardlink': {
      const [lp, lb] = parentAndBase(r.linkTarget ?? '');
      const linkDir = resolveDirInRoot(s.root, lp, false);
      const source = linkDir && lb ? join(linkDir, lb) : undefined;
      const st = source ? lstatOrUndefined(source) : undefined;
      if (!source || !st || st.isDirectory()) {
        throw invalid(
          image,
          `hard link ${r.path} names ${JSON.stringify(r.linkTarget)}, which is not a file in the image`,
        );
      }
      if (source === host) break; // a link to itself: the entry is already there
      if (source.startsWith(`${host}/`)) {
        throw invalid(image, `hard link ${r.path} would replace the directory holding its target ${r.linkTarget}`);
      }
      if (existing) removeEntry(host);
      linkSync(source, host);
      break;
    }
    default:
      return;
  }
  s.created.add(r.path);
}

/** Applies one layer's tar records on top of `root`. */
function applyLayer(image: SandboxImage, root: string, records: TarRecord[], dirModes: Map<string, number>): void {
  const s: LayerState = { root, created: new Set(), dirModes };
  for (const r of records) {
    try {
      applyRecord(image, s, r);
    } catch (e) {
      if (e instanceof KrmfnError) throw e;
      // A combination of entries the file system refuses (an errno error): the image is at fault.
      throw invalid(image, `entry ${JSON.stringify(r.path)}: ${(e as Error).message.replace(root, '<root>')}`);
    }
  }
}

/** Host path of the image's root filesystem, unpacking it into `cacheDir` unless already there. */
export function unpackImage(
  image: SandboxImage,
  cacheDir: string,
  limits: UnpackLimits = DEFAULT_UNPACK_LIMITS,
): string {
  const m = /^sha256:([0-9a-f]{64})$/.exec(image.id);
  if (!m) throw invalid(image, `image id ${JSON.stringify(image.id)} is not a sha256 digest`);
  const base = join(cacheDir, 'rootfs');
  const final = join(base, m[1]);
  if (existsSync(join(final, COMPLETE_MARK))) return join(final, 'rootfs');
  mkdirSync(base, { recursive: true });
  const tmp = mkdtempSync(join(base, '.tmp-'));
  try {
    const root = join(tmp, 'rootfs');
    mkdirSync(root, { mode: 0o755 });
    const dirModes = new Map<string, number>();
    let bytes = 0;
    let entries = 0;
    for (const layer of image.layers) {
      const tar = layerTar(image, layer, limits.maxUnpackedBytes - bytes);
      bytes += tar.length;
      if (bytes > limits.maxUnpackedBytes) throw tooBig(image);
      let records: TarRecord[];
      try {
        records = readTarRecords(tar, { maxEntries: limits.maxEntries - entries });
      } catch (e) {
        if (e instanceof KrmfnError && e.code !== 'limit-exceeded')
          throw invalid(image, `layer ${layer.digest}: ${e.message}`);
        throw e;
      }
      entries += records.length;
      applyLayer(image, root, records, dirModes);
    }
    // Deepest first, so a read-only parent never blocks setting its children; directories a later
    // entry removed or replaced are skipped.
    for (const [dir, mode] of [...dirModes].sort((a, b) => b[0].length - a[0].length)) {
      if (lstatOrUndefined(dir)?.isDirectory()) chmodSync(dir, mode | 0o100);
    }
    writeFileSync(join(tmp, COMPLETE_MARK), image.reference + '\n');
    try {
      renameSync(tmp, final);
    } catch {
      // Another run finished the same image first: use its tree.
      if (!existsSync(join(final, COMPLETE_MARK))) throw invalid(image, `cannot store the unpacked image in ${final}`);
      removeEntry(tmp);
    }
    return join(final, 'rootfs');
  } catch (e) {
    removeEntry(tmp);
    throw e;
  }
}
