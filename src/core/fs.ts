/**
 * The filesystem the engine reads packages from and writes them to. Injected: a Node
 * implementation lives at the edge (src/node), `MemoryFs` serves tests, servers and browsers.
 * Paths are absolute slash paths (`/pkg/app/cm.yaml`); implementations map them to their storage.
 */
export interface DirEntry {
  name: string;
  kind: 'file' | 'dir' | 'symlink-file' | 'symlink-dir' | 'other';
}

/** The files one write of a package changes: every write first, then every delete. */
export interface FileCommit {
  /** Absolute path → new bytes; parent directories are created as needed. */
  writes: ReadonlyMap<string, Uint8Array>;
  /** Absolute paths of files to delete once every write succeeded. */
  deletes: readonly string[];
}

export interface PackageFs {
  readFile(path: string): Promise<Uint8Array>;
  /** Entries sorted by name (byte order), as Go's filepath.Walk sees them. */
  readDir(path: string): Promise<DirEntry[]>;
  /** 'missing' when nothing is there. Symlinks are followed. */
  stat(path: string): Promise<'file' | 'dir' | 'missing'>;
  writeFile(path: string, data: Uint8Array): Promise<void>;
  mkdirp(path: string): Promise<void>;
  remove(path: string): Promise<void>;
  /**
   * Optional: applies a whole commit so that each file ends up entirely old or entirely new and a
   * failure before the first replacement leaves everything as it was (docs/writes.md). Without
   * it the engine writes the files one at a time, then deletes.
   */
  commit?(changes: FileCommit): Promise<void>;
}
