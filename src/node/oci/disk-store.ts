/**
 * The OCI blob store on disk, shared by every run on the machine (src/core/oci/store.ts
 * `BlobStore`): `<root>/oci/blobs/sha256/<hex>` holds each blob once, `<root>/oci/tags/<name>` the
 * manifest digest a tag named when last pulled. Writes go to a temporary file renamed into place,
 * so concurrent runs never see half a blob; readers verify digests (src/core/oci/client.ts), so a
 * damaged file is refetched, never trusted.
 *
 * The root is `$KRMFN_CACHE_DIR`, else `$XDG_CACHE_HOME/krmfn`, else `~/.cache/krmfn`.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { BlobStore } from '../../core/oci/store.ts';

export function cacheRoot(env: Record<string, string | undefined>): string {
  if (env.KRMFN_CACHE_DIR) return env.KRMFN_CACHE_DIR;
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 'krmfn');
  return join(env.HOME || homedir(), '.cache', 'krmfn');
}

const HEX = /^sha256:([0-9a-f]{64})$/;
let counter = 0;

async function readOrUndefined(path: string): Promise<Uint8Array | undefined> {
  try {
    const b = await readFile(path);
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  } catch {
    return undefined;
  }
}

async function writeAtomically(dir: string, file: string, bytes: Uint8Array | string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const tmp = join(dir, `.${file}.${process.pid}.${++counter}.tmp`);
  await writeFile(tmp, bytes);
  await rename(tmp, join(dir, file));
}

export class DiskBlobStore implements BlobStore {
  readonly blobDir: string;
  readonly tagDir: string;

  constructor(root: string) {
    this.blobDir = join(root, 'oci', 'blobs', 'sha256');
    this.tagDir = join(root, 'oci', 'tags');
  }

  /** The file a blob is kept in, or undefined for a digest that is not sha256. */
  blobPath(digest: string): string | undefined {
    const m = HEX.exec(digest);
    return m ? join(this.blobDir, m[1]) : undefined;
  }

  async getBlob(digest: string): Promise<Uint8Array | undefined> {
    const p = this.blobPath(digest);
    return p ? readOrUndefined(p) : undefined;
  }

  async putBlob(digest: string, bytes: Uint8Array): Promise<void> {
    const m = HEX.exec(digest);
    if (m) await writeAtomically(this.blobDir, m[1], bytes);
  }

  async getTag(name: string): Promise<string | undefined> {
    const b = await readOrUndefined(join(this.tagDir, encodeURIComponent(name)));
    const text = b ? new TextDecoder().decode(b).trim() : '';
    return HEX.test(text) ? text : undefined;
  }

  async putTag(name: string, digest: string): Promise<void> {
    await writeAtomically(this.tagDir, encodeURIComponent(name), `${digest}\n`);
  }
}
