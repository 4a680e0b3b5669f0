/**
 * A small ustar (POSIX tar) reader and writer over Uint8Array, for moving whole packages through
 * `krmfn serve` and the browser. Regular files and directories only; links, devices and pax
 * extended headers other than `path` are rejected or skipped. Paths are returned as relative slash
 * paths; absolute paths and `..` segments are refused (a package must not escape its root).
 */
import { KrmfnError } from './errors.ts';

export interface TarEntry {
  path: string;
  data: Uint8Array;
}

const BLOCK = 512;
const dec = new TextDecoder();
const enc = new TextEncoder();

function field(buf: Uint8Array, off: number, len: number): string {
  let end = off;
  while (end < off + len && buf[end] !== 0) end++;
  return dec.decode(buf.subarray(off, end));
}

function octal(buf: Uint8Array, off: number, len: number): number {
  const s = field(buf, off, len).trim();
  return s === '' ? 0 : parseInt(s, 8);
}

function safePath(raw: string): string {
  const p = raw.replace(/^\.\//, '').replace(/\/+$/, '');
  const segs = p.split('/');
  if (p.startsWith('/') || segs.some((s) => s === '..')) {
    throw new KrmfnError({ code: 'package-io', message: `tar entry ${JSON.stringify(raw)} escapes the package root` });
  }
  return segs.filter((s) => s !== '' && s !== '.').join('/');
}

/** Reads the regular files of a tar archive (directories are implied by paths). */
export function readTar(buf: Uint8Array, maxEntries = 100_000): TarEntry[] {
  const out: TarEntry[] = [];
  let off = 0;
  let longName: string | undefined;
  while (off + BLOCK <= buf.length) {
    const header = buf.subarray(off, off + BLOCK);
    if (header.every((b) => b === 0)) break;
    const size = octal(header, 124, 12);
    const type = String.fromCharCode(header[156] || 48);
    const magic = field(header, 257, 6);
    let name = field(header, 0, 100);
    if (magic.startsWith('ustar')) {
      const prefix = field(header, 345, 155);
      if (prefix) name = `${prefix}/${name}`;
    }
    const dataStart = off + BLOCK;
    const data = buf.subarray(dataStart, dataStart + size);
    if (data.length < size) throw new KrmfnError({ code: 'package-io', message: 'truncated tar archive' });
    off = dataStart + Math.ceil(size / BLOCK) * BLOCK;
    if (type === 'x') {
      const m = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(dec.decode(data));
      if (m) longName = m[1];
      continue;
    }
    if (type === 'L') {
      longName = dec.decode(data).replace(/\0+$/, '');
      continue;
    }
    if (type === 'g') continue;
    const path = safePath(longName ?? name);
    longName = undefined;
    if (type === '5') continue;
    if (type !== '0' && type !== '\0' && type !== '7') {
      throw new KrmfnError({
        code: 'package-io',
        message: `tar entry ${JSON.stringify(path)}: only regular files are supported`,
      });
    }
    if (path === '') continue;
    out.push({ path, data: data.slice() });
    if (out.length > maxEntries)
      throw new KrmfnError({ code: 'limit-exceeded', message: `tar archive has more than ${maxEntries} files` });
  }
  return out;
}

function writeOctal(h: Uint8Array, off: number, len: number, value: number): void {
  const s = value.toString(8).padStart(len - 1, '0');
  h.set(enc.encode(s), off);
  h[off + len - 1] = 0;
}

/** Writes regular files as a ustar archive (mode 0644, mtime 0: reproducible output). */
export function writeTar(entries: readonly TarEntry[]): Uint8Array {
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
    const h = new Uint8Array(BLOCK);
    h.set(name, 0);
    writeOctal(h, 100, 8, 0o644);
    writeOctal(h, 108, 8, 0);
    writeOctal(h, 116, 8, 0);
    writeOctal(h, 124, 12, e.data.length);
    writeOctal(h, 136, 12, 0);
    h.fill(32, 148, 156);
    h[156] = 48;
    h.set(enc.encode('ustar\u0000'), 257);
    h.set(enc.encode('00'), 263);
    h.set(prefix, 345);
    let sum = 0;
    for (const b of h) sum += b;
    writeOctal(h, 148, 7, sum);
    h[155] = 32;
    parts.push(h, e.data);
    const pad = (BLOCK - (e.data.length % BLOCK)) % BLOCK;
    if (pad) parts.push(new Uint8Array(pad));
  }
  parts.push(new Uint8Array(BLOCK * 2));
  const total = parts.reduce((n, p) => n + p.length, 0);
  const out = new Uint8Array(total);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
