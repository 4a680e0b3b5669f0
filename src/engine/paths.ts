/**
 * Slash-path helpers (Go `path` semantics). The engine works only on absolute slash paths; hosts
 * map them to their storage (src/node/fs.ts converts to OS paths).
 */
import { cleanSlashPath } from '../core/kptfile.ts';

export const clean = cleanSlashPath;

export function join(...parts: string[]): string {
  return clean(parts.filter((p) => p !== '').join('/'));
}

export function dirname(p: string): string {
  const c = clean(p);
  const i = c.lastIndexOf('/');
  if (i < 0) return '.';
  return i === 0 ? '/' : c.slice(0, i);
}

export function basename(p: string): string {
  const c = clean(p);
  if (c === '/') return '/';
  return c.slice(c.lastIndexOf('/') + 1);
}

/** `to` relative to `from` (both absolute), Go `filepath.Rel` style; '.' when equal. */
export function relative(from: string, to: string): string {
  const a = clean(from).split('/').filter(Boolean);
  const b = clean(to).split('/').filter(Boolean);
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const up = a.slice(i).map(() => '..');
  const rel = [...up, ...b.slice(i)].join('/');
  return rel === '' ? '.' : rel;
}

/** Whether `p` (absolute) is `root` or below it. */
export function isWithin(root: string, p: string): boolean {
  const r = clean(root);
  const c = clean(p);
  return c === r || c.startsWith(r === '/' ? '/' : r + '/');
}

/** Byte-wise string comparison (Go's sort.Strings order). */
export function byteCompare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
