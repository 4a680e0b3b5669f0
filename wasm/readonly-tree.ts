/**
 * A read-only in-memory directory tree a caller may grant a module (none is granted by default, so
 * every `open()` fails with ENOTCAPABLE). Built on the shim's `Directory`/`File`, with every
 * mutating call answered `EROFS` and every file opened read-only, at any depth.
 */
import { Directory, File, type Inode, OpenDirectory, wasi, type Fd } from '@bjorn3/browser_wasi_shim';

/** Files by slash path relative to the mount point, e.g. `{ 'config/a.yaml': bytes }`. */
export interface ReadOnlyTree {
  /** Guest-visible directory, e.g. `/data`. */
  mountPath: string;
  files: Readonly<Record<string, Uint8Array>>;
}

const WRITE_OFLAGS = wasi.OFLAGS_CREAT | wasi.OFLAGS_TRUNC | wasi.OFLAGS_EXCL;

export function preopenTree(tree: ReadOnlyTree): Fd {
  const root = new Map<string, Inode>();
  for (const [path, data] of Object.entries(tree.files)) {
    const parts = path.split('/').filter((p) => p !== '' && p !== '.');
    if (parts.length === 0 || parts.includes('..'))
      throw new Error(`invalid path in read-only tree: ${JSON.stringify(path)}`);
    let dir = root;
    for (const part of parts.slice(0, -1)) {
      let next = dir.get(part);
      if (!(next instanceof Directory)) {
        next = new Directory(new Map());
        dir.set(part, next);
      }
      dir = (next as Directory).contents;
    }
    dir.set(parts[parts.length - 1], new File(data, { readonly: true }));
  }
  return new ReadOnlyPreopen(tree.mountPath, root);
}

function openReadOnly(
  self: OpenDirectory,
  base: (
    dirflags: number,
    path: string,
    oflags: number,
    rb: bigint,
    ri: bigint,
    fdflags: number,
  ) => { ret: number; fd_obj: Fd | null },
  dirflags: number,
  path: string,
  oflags: number,
  rightsBase: bigint,
  rightsInheriting: bigint,
  fdFlags: number,
): { ret: number; fd_obj: Fd | null } {
  if ((oflags & WRITE_OFLAGS) !== 0 || (rightsBase & BigInt(wasi.RIGHTS_FD_WRITE)) !== 0n) {
    return { ret: wasi.ERRNO_ROFS, fd_obj: null };
  }
  const r = base.call(self, dirflags, path, oflags, rightsBase, rightsInheriting, fdFlags);
  if (r.fd_obj instanceof OpenDirectory) return { ret: r.ret, fd_obj: new ReadOnlyDirectoryFd(r.fd_obj.dir) };
  return r;
}

class ReadOnlyDirectoryFd extends OpenDirectory {
  override path_open(
    d: number,
    p: string,
    o: number,
    rb: bigint,
    ri: bigint,
    f: number,
  ): { ret: number; fd_obj: Fd | null } {
    return openReadOnly(this, OpenDirectory.prototype.path_open, d, p, o, rb, ri, f);
  }
  override path_create_directory(): number {
    return wasi.ERRNO_ROFS;
  }
  override path_link(): number {
    return wasi.ERRNO_ROFS;
  }
  override path_unlink(): { ret: number; inode_obj: Inode | null } {
    return { ret: wasi.ERRNO_ROFS, inode_obj: null };
  }
  override path_unlink_file(): number {
    return wasi.ERRNO_ROFS;
  }
  override path_remove_directory(): number {
    return wasi.ERRNO_ROFS;
  }
}

/** The mount point: a read-only directory that also answers `fd_prestat_get` with its name. */
class ReadOnlyPreopen extends ReadOnlyDirectoryFd {
  private readonly name: string;
  constructor(name: string, contents: Map<string, Inode>) {
    super(new Directory(contents));
    this.name = name;
  }
  override fd_prestat_get(): { ret: number; prestat: wasi.Prestat | null } {
    return { ret: wasi.ERRNO_SUCCESS, prestat: wasi.Prestat.dir(this.name) };
  }
}
