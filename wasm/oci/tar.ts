/**
 * The regular files of a ustar/pax/GNU tar archive, in archive order. Enough for OCI layouts and
 * image layers: pax `path` records and GNU long names are honoured, links and devices skipped.
 */
import { WasmHostError } from '../errors.ts';

export interface TarFile {
  path: string;
  data: Uint8Array;
}

const BLOCK = 512;
const dec = new TextDecoder();

function text(buf: Uint8Array, off: number, len: number): string {
  let end = off;
  while (end < off + len && buf[end] !== 0) end++;
  return dec.decode(buf.subarray(off, end));
}

function octal(buf: Uint8Array, off: number, len: number): number {
  const s = text(buf, off, len).trim();
  const n = s === '' ? 0 : parseInt(s, 8);
  if (!Number.isFinite(n) || n < 0) throw new WasmHostError('compile', 'malformed tar archive: bad size field');
  return n;
}

export function tarFiles(buf: Uint8Array): TarFile[] {
  const out: TarFile[] = [];
  let pos = 0;
  let longName: string | undefined;
  while (pos + BLOCK <= buf.byteLength) {
    const header = buf.subarray(pos, pos + BLOCK);
    if (header.every((b) => b === 0)) break;
    const size = octal(header, 124, 12);
    const type = String.fromCharCode(header[156]!);
    const dataStart = pos + BLOCK;
    if (dataStart + size > buf.byteLength)
      throw new WasmHostError('compile', 'malformed tar archive: entry runs past the end');
    const data = buf.subarray(dataStart, dataStart + size);
    pos = dataStart + Math.ceil(size / BLOCK) * BLOCK;
    if (type === 'x') {
      const m = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(dec.decode(data));
      if (m) longName = m[1];
      continue;
    }
    if (type === 'L') {
      longName = text(data, 0, data.byteLength);
      continue;
    }
    if (type === 'g') continue;
    const prefix = text(header, 345, 155);
    const name = longName ?? (prefix ? `${prefix}/${text(header, 0, 100)}` : text(header, 0, 100));
    longName = undefined;
    if (type === '0' || type === '\0' || type === '7') out.push({ path: name.replace(/^\.\//, ''), data });
  }
  return out;
}
