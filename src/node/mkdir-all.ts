/**
 * Go's `os.MkdirAll` (kpt makes results and output directories with it), instead of Node's
 * `mkdir({ recursive: true })`, which never returns for a path under /proc (Node 20 loops on
 * ENOENT there). Errors are `MkdirError`s worded as Go's: `mkdir file: not a directory`, with
 * the path as given.
 */
import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import { errnoText } from './errno.ts';

export class MkdirError extends Error {
  readonly path: string;
  constructor(path: string, cause: unknown) {
    super(`mkdir ${path}: ${errnoText(cause)}`, { cause });
    this.path = path;
  }
}

const notADirectory = (): NodeJS.ErrnoException => Object.assign(new Error('not a directory'), { code: 'ENOTDIR' });

/**
 * Makes `path` (resolved against `cwd`) and its missing parents with `mode`; returns the topmost
 * directory it created (absolute), or undefined when it already existed. Throws MkdirError.
 */
export async function mkdirAll(path: string, cwd = process.cwd(), mode = 0o755): Promise<string | undefined> {
  const abs = (p: string): string => nodePath.resolve(cwd, p);
  const existing = await fsp.stat(abs(path)).catch(() => undefined);
  if (existing) {
    if (existing.isDirectory()) return undefined;
    throw new MkdirError(path, notADirectory());
  }
  // The parent as Go slices it: trailing separators dropped, then the last element.
  let i = path.length;
  while (i > 0 && path[i - 1] === nodePath.sep) i--;
  let j = i;
  while (j > 0 && path[j - 1] !== nodePath.sep) j--;
  let first: string | undefined;
  if (j > 1) first = await mkdirAll(path.slice(0, j - 1), cwd, mode);
  try {
    await fsp.mkdir(abs(path), mode);
  } catch (e) {
    const st = await fsp.lstat(abs(path)).catch(() => undefined);
    if (st?.isDirectory()) return first;
    throw new MkdirError(path, e);
  }
  return first ?? abs(path);
}
