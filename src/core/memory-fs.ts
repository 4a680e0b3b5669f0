/**
 * `MemoryFs`: an in-memory `PackageFs` for tests, servers and browsers. Absolute slash paths;
 * directories exist implicitly above every file and explicitly once made with `mkdirp`.
 * `snapshot()` returns every file as text keyed by path (sorted), handy for golden comparisons.
 */
import { KrmfnError } from './errors.ts';
import type { DirEntry, PackageFs } from './fs.ts';

function norm(p: string): string {
  const parts: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') parts.pop();
    else parts.push(seg);
  }
  return '/' + parts.join('/');
}

function parentOf(p: string): string {
  const i = p.lastIndexOf('/');
  return i <= 0 ? '/' : p.slice(0, i);
}

export class MemoryFs implements PackageFs {
  private readonly files = new Map<string, Uint8Array>();
  private readonly dirs = new Set<string>(['/']);

  /** Files given as path → text or bytes; parent directories are created. */
  constructor(files: Record<string, string | Uint8Array> = {}) {
    for (const [p, data] of Object.entries(files)) this.put(p, data);
  }

  put(path: string, data: string | Uint8Array): void {
    const p = norm(path);
    this.files.set(p, typeof data === 'string' ? new TextEncoder().encode(data) : data);
    for (let d = parentOf(p); ; d = parentOf(d)) {
      this.dirs.add(d);
      if (d === '/') break;
    }
  }

  async readFile(path: string): Promise<Uint8Array> {
    const f = this.files.get(norm(path));
    if (!f)
      throw new KrmfnError({ code: 'package-io', message: `open ${path}: no such file or directory`, file: path });
    return f;
  }

  async readDir(path: string): Promise<DirEntry[]> {
    const d = norm(path);
    if (!this.dirs.has(d))
      throw new KrmfnError({ code: 'package-io', message: `open ${path}: no such file or directory`, file: path });
    const prefix = d === '/' ? '/' : d + '/';
    const seen = new Map<string, DirEntry['kind']>();
    for (const p of this.files.keys()) {
      if (p.startsWith(prefix)) {
        const rest = p.slice(prefix.length);
        const slash = rest.indexOf('/');
        seen.set(slash < 0 ? rest : rest.slice(0, slash), slash < 0 ? 'file' : 'dir');
      }
    }
    for (const p of this.dirs) {
      if (p !== d && p.startsWith(prefix)) {
        const rest = p.slice(prefix.length);
        const slash = rest.indexOf('/');
        seen.set(slash < 0 ? rest : rest.slice(0, slash), 'dir');
      }
    }
    return [...seen]
      .map(([name, kind]) => ({ name, kind }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async stat(path: string): Promise<'file' | 'dir' | 'missing'> {
    const p = norm(path);
    if (this.files.has(p)) return 'file';
    return this.dirs.has(p) ? 'dir' : 'missing';
  }

  async writeFile(path: string, data: Uint8Array): Promise<void> {
    const p = norm(path);
    if (this.dirs.has(p))
      throw new KrmfnError({ code: 'package-io', message: `open ${path}: is a directory`, file: path });
    this.put(p, data);
  }

  async mkdirp(path: string): Promise<void> {
    for (let d = norm(path); ; d = parentOf(d)) {
      this.dirs.add(d);
      if (d === '/') break;
    }
  }

  async remove(path: string): Promise<void> {
    const p = norm(path);
    this.files.delete(p);
    const prefix = p + '/';
    for (const f of [...this.files.keys()]) if (f.startsWith(prefix)) this.files.delete(f);
    for (const d of [...this.dirs]) if (d === p || d.startsWith(prefix)) this.dirs.delete(d);
  }

  /** All files as text, keyed by absolute path, sorted. */
  snapshot(under = '/'): Record<string, string> {
    const base = norm(under);
    const prefix = base === '/' ? '/' : base + '/';
    const dec = new TextDecoder();
    const out: Record<string, string> = {};
    for (const p of [...this.files.keys()].sort()) if (p.startsWith(prefix)) out[p] = dec.decode(this.files.get(p));
    return out;
  }
}
