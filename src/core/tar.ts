/**
 * The one tar reader of krmfn (packages through `krmfn serve` and the browser; OCI image layouts
 * and layers for WASM, injected into wasm/oci/layout.ts) and a ustar writer, over Uint8Array.
 *
 * Reading checks every header's checksum, requires the end-of-archive marker (so an archive cut at
 * any point is an error, never a silently shorter list), reads ustar prefixes, pax `path` records
 * and GNU long names, refuses absolute paths and `..` segments (nothing may escape the root), and
 * caps the number of files. Directories are implied by paths; links, devices and fifos are
 * refused (`nonRegular: 'reject'`, packages) or skipped (`'skip'`, image layers).
 *
 * `readTarRecords` is the same reader keeping every entry with its kind, mode and link target
 * (container image layers, unpacked by src/node/sandbox/unpack.ts): a hard link's target is
 * checked like a path; a symlink's target is kept as written (where it points is the unpacker's
 * concern). `writeTar` writes those kinds too (directories, symlinks, hard links, modes).
 */
import { concatBytes } from './bytes.ts';
import { KrmfnError } from './errors.ts';

export interface TarEntry {
  path: string;
  data: Uint8Array;
}

export type TarKind = 'file' | 'dir' | 'symlink' | 'hardlink' | 'other';

/** One archive entry as `readTarRecords` returns it; `data` is empty except for files. */
export interface TarRecord {
  path: string;
  kind: TarKind;
  /** Permission bits (mode & 0o7777). */
  mode: number;
  data: Uint8Array;
  /** Symlink target as written, or the hard-linked entry's (checked) path. */
  linkTarget?: string;
}

/** What `writeTar` accepts: a regular file by default. */
export interface TarWriteEntry extends TarEntry {
  kind?: 'file' | 'dir' | 'symlink' | 'hardlink';
  mode?: number;
  linkTarget?: string;
}

export interface ReadTarOptions {
  /** Files accepted (default 100,000). */
  maxEntries?: number;
  /** Links, devices and fifos: an error (default) or skipped. */
  nonRegular?: 'reject' | 'skip';
  /**
   * The end-of-archive marker: required (default), or optional: an archive may then also end
   * right after an entry's data, padded or not (kpt's WASM image layers end so: kptdev/kpt
   * `pkg/wasm/client.go`, `wasmFileToTar`, never flushes or closes its tar writer, and kpt reads
   * only the first file). A cut inside a header or an entry's data is still an error.
   */
  endMarker?: 'required' | 'optional';
}

const BLOCK = 512;
const dec = new TextDecoder();
const enc = new TextEncoder();
const REGULAR = new Set(['0', '\0', '7']);
const NON_REGULAR = new Set(['1', '2', '3', '4', '6']);

function tarError(message: string): KrmfnError {
  return new KrmfnError({ code: 'package-io', message: `tar archive: ${message}` });
}

function field(buf: Uint8Array, off: number, len: number): string {
  let end = off;
  while (end < off + len && buf[end] !== 0) end++;
  return dec.decode(buf.subarray(off, end));
}

function octal(buf: Uint8Array, off: number, len: number, what: string, at: number): number {
  const s = field(buf, off, len).trim();
  if (!/^[0-7]*$/.test(s)) throw tarError(`header at byte ${at} has a malformed ${what} field`);
  return s === '' ? 0 : parseInt(s, 8);
}

/** tar's checksum: the header's bytes summed with the checksum field read as spaces (either sign). */
function checksumMatches(h: Uint8Array, at: number): boolean {
  const stored = octal(h, 148, 8, 'checksum', at);
  let unsigned = 0;
  let signed = 0;
  for (let i = 0; i < BLOCK; i++) {
    const b = i >= 148 && i < 156 ? 32 : h[i];
    unsigned += b;
    signed += b > 127 ? b - 256 : b;
  }
  return stored === unsigned || stored === signed;
}

function safePath(raw: string): string {
  const p = raw.replace(/^\.\//, '').replace(/\/+$/, '');
  const segs = p.split('/');
  if (p.startsWith('/') || segs.some((s) => s === '..')) {
    throw new KrmfnError({ code: 'package-io', message: `tar entry ${JSON.stringify(raw)} escapes the package root` });
  }
  return segs.filter((s) => s !== '' && s !== '.').join('/');
}

/** Reads the regular files of a tar archive, in archive order. Throws KrmfnError('package-io'). */
export function readTar(buf: Uint8Array, opts: ReadTarOptions = {}): TarEntry[] {
  const maxEntries = opts.maxEntries ?? 100_000;
  const out: TarEntry[] = [];
  walkTar(buf, opts, (r, type) => {
    if (r.kind === 'dir') return;
    if (r.kind !== 'file') {
      if (opts.nonRegular === 'skip' && NON_REGULAR.has(type)) return;
      throw tarError(
        `entry ${JSON.stringify(r.path)}: only regular files are supported (type ${JSON.stringify(type)})`,
      );
    }
    if (r.path === '') return;
    out.push({ path: r.path, data: r.data });
    if (out.length > maxEntries)
      throw new KrmfnError({ code: 'limit-exceeded', message: `tar archive has more than ${maxEntries} files` });
  });
  return out;
}

/** Reads every entry (files, directories, links, others) in archive order; caps entries of any kind. */
export function readTarRecords(buf: Uint8Array, opts: { maxEntries?: number } = {}): TarRecord[] {
  const maxEntries = opts.maxEntries ?? 100_000;
  const out: TarRecord[] = [];
  walkTar(buf, {}, (r) => {
    out.push(r);
    if (out.length > maxEntries)
      throw new KrmfnError({ code: 'limit-exceeded', message: `tar archive has more than ${maxEntries} entries` });
  });
  return out;
}

function kindOf(type: string): TarKind {
  if (REGULAR.has(type)) return 'file';
  if (type === '5') return 'dir';
  if (type === '2') return 'symlink';
  if (type === '1') return 'hardlink';
  return 'other';
}

function walkTar(
  buf: Uint8Array,
  opts: Pick<ReadTarOptions, 'endMarker'>,
  visit: (r: TarRecord, type: string) => void,
): void {
  let off = 0;
  let count = 0;
  let longName: string | undefined;
  let longLink: string | undefined;
  for (;;) {
    if (off === buf.length && opts.endMarker === 'optional') break;
    if (off + BLOCK > buf.length) {
      throw tarError(
        `truncated at byte ${buf.length}: no end-of-archive marker after ${count} entr${count === 1 ? 'y' : 'ies'}`,
      );
    }
    const header = buf.subarray(off, off + BLOCK);
    if (header.every((b) => b === 0)) break;
    if (!checksumMatches(header, off))
      throw tarError(`header at byte ${off} has a bad checksum (corrupt or not a tar)`);
    const size = octal(header, 124, 12, 'size', off);
    const type = String.fromCharCode(header[156]);
    let name = field(header, 0, 100);
    // POSIX ustar (magic "ustar\0"): a path prefix; old GNU headers use those bytes for times.
    if (field(header, 257, 6) === 'ustar' && header[262] === 0) {
      const prefix = field(header, 345, 155);
      if (prefix) name = `${prefix}/${name}`;
    }
    const dataStart = off + BLOCK;
    const data = buf.subarray(dataStart, dataStart + size);
    if (data.length < size) {
      throw tarError(
        `truncated in entry ${JSON.stringify(longName ?? name)} (${size} bytes announced, ${data.length} present)`,
      );
    }
    off = Math.min(dataStart + Math.ceil(size / BLOCK) * BLOCK, opts.endMarker === 'optional' ? buf.length : Infinity);
    if (type === 'x') {
      const text = dec.decode(data);
      const m = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(text);
      if (m) longName = m[1];
      const l = /(?:^|\n)\d+ linkpath=([^\n]*)\n/.exec(text);
      if (l) longLink = l[1];
      continue;
    }
    if (type === 'L' || type === 'K') {
      const v = dec.decode(data).replace(/\0+$/, '');
      if (type === 'L') longName = v;
      else longLink = v;
      continue;
    }
    if (type === 'g') continue;
    const path = safePath(longName ?? name);
    const kind = kindOf(type);
    const rawLink = longLink ?? field(header, 157, 100);
    longName = undefined;
    longLink = undefined;
    count++;
    const record: TarRecord = {
      path,
      kind,
      mode: octal(header, 100, 8, 'mode', off) & 0o7777,
      data: kind === 'file' ? data.slice() : new Uint8Array(0),
    };
    if (kind === 'symlink') record.linkTarget = rawLink;
    if (kind === 'hardlink') record.linkTarget = safePath(rawLink);
    visit(record, type);
  }
}

function writeOctal(h: Uint8Array, off: number, len: number, value: number): void {
  const s = value.toString(8).padStart(len - 1, '0');
  h.set(enc.encode(s), off);
  h[off + len - 1] = 0;
}

const TYPE_FLAG = { file: 48, dir: 53, symlink: 50, hardlink: 49 } as const;

/**
 * Writes a ustar archive (mtime 0: reproducible output). Regular files by default with mode 0644;
 * directories, symlinks and hard links when `kind` says so (link targets up to 100 bytes).
 */
export function writeTar(entries: readonly TarWriteEntry[]): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const e of entries) {
    const path = safePath(e.path);
    let name = enc.encode(path);
    let prefix = new Uint8Array(0);
    if (name.length > 100) {
      const cut = path.lastIndexOf('/', 155);
      if (cut <= 0 || enc.encode(path.slice(cut + 1)).length > 100) {
        throw new KrmfnError({ code: 'package-io', message: `path too long for tar: ${path}` });
      }
      prefix = enc.encode(path.slice(0, cut));
      name = enc.encode(path.slice(cut + 1));
    }
    const kind = e.kind ?? 'file';
    const data = kind === 'file' ? e.data : new Uint8Array(0);
    const link = enc.encode(e.linkTarget ?? '');
    if (link.length > 100)
      throw new KrmfnError({ code: 'package-io', message: `link target too long for tar: ${path}` });
    const h = new Uint8Array(BLOCK);
    h.set(name, 0);
    writeOctal(h, 100, 8, e.mode ?? (kind === 'dir' ? 0o755 : 0o644));
    writeOctal(h, 108, 8, 0);
    writeOctal(h, 116, 8, 0);
    writeOctal(h, 124, 12, data.length);
    writeOctal(h, 136, 12, 0);
    h.fill(32, 148, 156);
    h[156] = TYPE_FLAG[kind];
    h.set(link, 157);
    h.set(enc.encode('ustar\u0000'), 257);
    h.set(enc.encode('00'), 263);
    h.set(prefix, 345);
    let sum = 0;
    for (const b of h) sum += b;
    writeOctal(h, 148, 7, sum);
    h[155] = 32;
    parts.push(h, data);
    const pad = (BLOCK - (data.length % BLOCK)) % BLOCK;
    if (pad) parts.push(new Uint8Array(pad));
  }
  parts.push(new Uint8Array(BLOCK * 2));
  return concatBytes(parts);
}
