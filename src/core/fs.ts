/**
 * The filesystem the engine reads packages from and writes them to. Injected: a Node
 * implementation lives at the edge (src/node), `MemoryFs` serves tests, servers and browsers.
 * Paths are absolute slash paths (`/pkg/app/cm.yaml`); implementations map them to their storage.
 */
export interface DirEntry {
  name: string;
  kind: 'file' | 'dir' | 'symlink-file' | 'symlink-dir' | 'other';
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
}
