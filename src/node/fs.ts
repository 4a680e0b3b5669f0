/**
 * `NodeFs`: the `PackageFs` over the real filesystem. Engine paths are absolute slash paths; on
 * POSIX they are the OS paths, on Windows `/C:/x` style paths map to `C:\x`. Symlinked files are
 * reported as `symlink-file` (read through), symlinked directories as `symlink-dir` (not followed
 * by the walker, as kpt).
 */
import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import { KrmfnError } from '../core/errors.ts';
import type { DirEntry, PackageFs } from '../core/fs.ts';

/** An OS path as an absolute engine (slash) path. */
export function toEnginePath(osPath: string, cwd = process.cwd()): string {
  const abs = nodePath.resolve(cwd, osPath);
  if (nodePath.sep === '/') return abs;
  return '/' + abs.split(nodePath.sep).join('/');
}

export function toOsPath(p: string): string {
  if (nodePath.sep === '/') return p;
  return p.replace(/^\//, '').split('/').join(nodePath.sep);
}

function ioError(e: unknown, path: string, op = 'open'): KrmfnError {
  const err = e as NodeJS.ErrnoException;
  const what =
    err.code === 'ENOENT'
      ? 'no such file or directory'
      : err.code === 'EISDIR'
        ? 'is a directory'
        : (err.message ?? String(e));
  return new KrmfnError({ code: 'package-io', message: `${op} ${path}: ${what}`, file: path, cause: e });
}

export class NodeFs implements PackageFs {
  async readFile(path: string): Promise<Uint8Array> {
    try {
      const b = await fsp.readFile(toOsPath(path));
      return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
    } catch (e) {
      throw ioError(e, path);
    }
  }

  async readDir(path: string): Promise<DirEntry[]> {
    let entries;
    try {
      entries = await fsp.readdir(toOsPath(path), { withFileTypes: true });
    } catch (e) {
      throw ioError(e, path);
    }
    const out: DirEntry[] = [];
    for (const e of entries) {
      let kind: DirEntry['kind'] = e.isFile() ? 'file' : e.isDirectory() ? 'dir' : 'other';
      if (e.isSymbolicLink()) {
        const st = await fsp.stat(nodePath.join(toOsPath(path), e.name)).catch(() => undefined);
        kind = st?.isDirectory() ? 'symlink-dir' : st?.isFile() ? 'symlink-file' : 'other';
      }
      out.push({ name: e.name, kind });
    }
    return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async stat(path: string): Promise<'file' | 'dir' | 'missing'> {
    try {
      const st = await fsp.stat(toOsPath(path));
      return st.isDirectory() ? 'dir' : 'file';
    } catch {
      return 'missing';
    }
  }

  async writeFile(path: string, data: Uint8Array): Promise<void> {
    try {
      await fsp.writeFile(toOsPath(path), data);
    } catch (e) {
      throw ioError(e, path);
    }
  }

  /**
   * Creates `path` and its missing parents as Go's os.MkdirAll does (errors name the component
   * that failed). Node's recursive mkdir is not used: it never returns on paths such as /proc/x.
   */
  async mkdirp(path: string): Promise<void> {
    const os = toOsPath(path);
    const st = await fsp.stat(os).catch(() => undefined);
    if (st?.isDirectory()) return;
    if (st) throw ioError(Object.assign(new Error('not a directory'), { code: 'ENOTDIR' }), path, 'mkdir');
    const parent = nodePath.dirname(os);
    if (parent !== os) await this.mkdirp(toEnginePath(parent));
    try {
      await fsp.mkdir(os);
    } catch (e) {
      if ((await this.stat(path)) !== 'dir') throw ioError(e, path, 'mkdir');
    }
  }

  async remove(path: string): Promise<void> {
    await fsp.rm(toOsPath(path), { recursive: true, force: true });
  }
}
