/**
 * Resolves a path inside an unpacked root filesystem the way the kernel would inside a chroot:
 * symlinks met on the way are followed with their targets read relative to the root (an absolute
 * target restarts at the root, `..` stops at the root), so the answer is always a host path under
 * `root`, whatever the links say. Used by the layer unpacker (src/node/sandbox/unpack.ts) for every
 * parent directory it writes into; the last segment is never followed (the caller decides).
 */
import { lstatSync, mkdirSync, readlinkSync, type Stats } from 'node:fs';
import { KrmfnError } from '../../core/errors.ts';

const MAX_LINK_HOPS = 40;

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/**
 * The host path of directory `rel` (root-relative, `/`-separated) under `root`, following symlinks
 * scoped to the root. Missing directories are created (mode 0755) when `create` is set; otherwise
 * a missing one answers undefined. A non-directory on the way is an `image-invalid` error.
 */
export function resolveDirInRoot(root: string, rel: string, create: boolean): string | undefined {
  const pending = rel.split('/').filter((s) => s !== '' && s !== '.');
  const resolved: string[] = [];
  let hops = 0;
  while (pending.length > 0) {
    const seg = pending.shift()!;
    if (seg === '..') {
      resolved.pop();
      continue;
    }
    const host = [root, ...resolved, seg].join('/');
    const st = lstatOrUndefined(host);
    if (!st) {
      if (!create) return undefined;
      mkdirSync(host, { mode: 0o755 });
      resolved.push(seg);
      continue;
    }
    if (st.isSymbolicLink()) {
      if (++hops > MAX_LINK_HOPS) {
        throw new KrmfnError({ code: 'image-invalid', message: `too many levels of symbolic links in ${rel}` });
      }
      const target = readlinkSync(host);
      if (target.startsWith('/')) resolved.length = 0;
      pending.unshift(...target.split('/').filter((s) => s !== '' && s !== '.'));
      continue;
    }
    if (!st.isDirectory()) {
      throw new KrmfnError({
        code: 'image-invalid',
        message: `${rel}: ${[...resolved, seg].join('/')} is not a directory`,
      });
    }
    resolved.push(seg);
  }
  return [root, ...resolved].join('/');
}
