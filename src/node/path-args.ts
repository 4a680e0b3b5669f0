/**
 * Path arguments as kpt v1.0.0-beta.56 treats them, so every message shows a path the way kpt
 * does. The one rule: a path is shown as the user typed it (relative to the working directory
 * when typed so), never absolutised by krmfn; the messages kpt itself prints with an absolute
 * path (`No Kptfile found at`, `Kptfile at … can't be read`, `--fn-config must be under`) come
 * from the engine, which works on absolute paths.
 *
 * - `evalSymlinks` is Go's `filepath.EvalSymlinks` (relative in, relative out) and
 *   `resolvePackageArg` kpt's `argutil.ResolveSymlink` (kptdev/kpt internal/util/argutil at
 *   v1.0.0-beta.56), with its `[WARN] resolved symlink` line.
 * - `checkOutputDirAbsent` and `prepareResultsDir` are the checks kpt's render and eval run
 *   before anything else (commands/fn/render/cmdrender.go, cmdeval.go `preRunE`).
 */
import { promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import { UsageError } from './cli-flags.ts';
import { errnoText } from './errno.ts';
import { toEnginePath } from './fs.ts';
import { write, type CliIO } from './io.ts';
import { mkdirAll } from './mkdir-all.ts';

/** The parent of a Go-cleaned relative or absolute path being built (`dest` of EvalSymlinks). */
function dropLast(dest: string): string {
  const i = dest.lastIndexOf('/');
  return i < 0 ? '' : i === 0 ? '/' : dest.slice(0, i);
}

/**
 * Go's `filepath.EvalSymlinks` on POSIX: resolves every link component by component; the result
 * is relative when the path and the links it meets are. Errors read as Go's (`lstat PATH: …`).
 */
export async function evalSymlinks(path: string, cwd: string): Promise<string> {
  let rest = path;
  let dest = path.startsWith('/') ? '/' : '';
  let links = 0;
  let i = dest === '/' ? 1 : 0;
  while (i < rest.length) {
    while (i < rest.length && rest[i] === '/') i++;
    let end = i;
    while (end < rest.length && rest[end] !== '/') end++;
    const part = rest.slice(i, end);
    i = end;
    if (part === '' || part === '.') continue;
    if (part === '..') {
      const last = dest.slice(dest.lastIndexOf('/') + 1);
      if (dest === '' || last === '..') dest = dest === '' ? '..' : `${dest}/..`;
      else if (dest !== '/') dest = dropLast(dest);
      continue;
    }
    dest = dest === '' ? part : dest === '/' ? `/${part}` : `${dest}/${part}`;
    let st;
    try {
      st = await fsp.lstat(nodePath.resolve(cwd, dest));
    } catch (e) {
      throw new UsageError(`lstat ${dest}: ${errnoText(e)}`);
    }
    if (!st.isSymbolicLink()) {
      if (!st.isDirectory() && i < rest.length) throw new UsageError(`lstat ${dest}: not a directory`);
      continue;
    }
    if (++links > 255) throw new UsageError('EvalSymlinks: too many links');
    const link = await fsp.readlink(nodePath.resolve(cwd, dest));
    rest = link + rest.slice(i);
    if (link.startsWith('/')) {
      dest = '/';
      i = 1;
    } else {
      dest = dropLast(dest);
      i = 0;
    }
  }
  return dest === '' ? '.' : nodePath.posix.normalize(dest);
}

/** A package argument resolved as kpt does (warning on stderr for a symlink); the engine path. */
export async function resolvePackageArg(arg: string | undefined, io: CliIO): Promise<string> {
  const given = arg ?? '.';
  const isLink = await fsp.lstat(nodePath.resolve(io.cwd, given)).then(
    (st) => st.isSymbolicLink(),
    () => false,
  );
  const resolved = await evalSymlinks(given, io.cwd);
  if (isLink) {
    await write(
      io.stderr,
      `[WARN] resolved symlink ${JSON.stringify(given)} to ${JSON.stringify(resolved)}, please note that the symlinks within the package are ignored\n`,
    );
  }
  return toEnginePath(resolved, io.cwd);
}

/** `-o DIR`: the directory must not exist yet (kpt's cmdutil.CheckDirectoryNotPresent). */
export async function checkOutputDirAbsent(dest: string | undefined, io: CliIO): Promise<void> {
  if (dest === undefined || dest === '' || dest === 'stdout' || dest === 'unwrap') return;
  const exists = await fsp.stat(nodePath.resolve(io.cwd, dest)).then(
    () => true,
    () => false,
  );
  if (exists)
    throw new UsageError(`directory ${JSON.stringify(dest)} already exists, please delete the directory and retry`);
}

/** `--results-dir DIR`: created up front, as kpt does (os.MkdirAll), or a usage error. */
export async function prepareResultsDir(dir: string | undefined, io: CliIO): Promise<void> {
  if (dir === undefined || dir === '') return;
  try {
    await mkdirAll(dir, io.cwd);
  } catch (e) {
    // Go's MkdirAll names the component that failed (src/node/mkdir-all.ts).
    throw new UsageError(`cannot read or create results dir ${JSON.stringify(dir)}: ${(e as Error).message}`);
  }
}
