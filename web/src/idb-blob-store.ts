/**
 * The playground's OCI blob store in IndexedDB (database `krmfn-oci`, stores `blobs` by digest and
 * `tags` by `registry/repository:tag`), so a WASM image pulled once is used again after a reload
 * and offline, as the CLI's disk cache is (src/node/oci/disk-store.ts). The client checks every
 * blob against its digest when it reads it back (src/core/oci/store.ts), so a damaged entry is
 * refused, not trusted. Where IndexedDB cannot be opened (disabled storage, private modes),
 * `openBlobStore` gives the in-memory store instead.
 */
import { MemoryBlobStore, type BlobStore } from 'krmfn';

const DB = 'krmfn-oci';
const BLOBS = 'blobs';
const TAGS = 'tags';

function request<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error ?? new Error('IndexedDB request failed'));
  });
}

class IndexedDbBlobStore implements BlobStore {
  private readonly db: IDBDatabase;

  constructor(db: IDBDatabase) {
    this.db = db;
  }

  private async get<T>(store: string, key: string): Promise<T | undefined> {
    return (await request(this.db.transaction(store).objectStore(store).get(key))) as T | undefined;
  }

  private async put(store: string, key: string, value: unknown): Promise<void> {
    const tx = this.db.transaction(store, 'readwrite');
    tx.objectStore(store).put(value, key);
    await new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = tx.onabort = () => reject(tx.error ?? new Error('IndexedDB write failed'));
    });
  }

  getBlob(digest: string): Promise<Uint8Array | undefined> {
    return this.get<Uint8Array>(BLOBS, digest);
  }
  putBlob(digest: string, bytes: Uint8Array): Promise<void> {
    return this.put(BLOBS, digest, bytes);
  }
  getTag(name: string): Promise<string | undefined> {
    return this.get<string>(TAGS, name);
  }
  putTag(name: string, digest: string): Promise<void> {
    return this.put(TAGS, name, digest);
  }
}

/** The IndexedDB store, or the in-memory one where IndexedDB cannot be opened. */
export async function openBlobStore(): Promise<BlobStore> {
  try {
    const open = indexedDB.open(DB, 1);
    open.onupgradeneeded = () => {
      open.result.createObjectStore(BLOBS);
      open.result.createObjectStore(TAGS);
    };
    return new IndexedDbBlobStore(await request(open));
  } catch {
    return new MemoryBlobStore();
  }
}
