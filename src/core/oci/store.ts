/**
 * Where pulled content is kept between calls: blobs (manifests, configs, layers) by digest, and
 * which manifest digest a tag named when it was last pulled. Content addressed, so a blob is valid
 * for every reference; the client verifies a blob against its digest when it reads it back, so a
 * corrupted store is refused, not trusted. `MemoryBlobStore` is the in-process store (browsers,
 * tests); the Node edge keeps one on disk (src/node/oci/disk-store.ts), shared by runs.
 */
export interface BlobStore {
  getBlob(digest: string): Promise<Uint8Array | undefined>;
  putBlob(digest: string, bytes: Uint8Array): Promise<void>;
  /** The manifest digest `name` (`registry/repository:tag`) pointed at when last pulled. */
  getTag(name: string): Promise<string | undefined>;
  putTag(name: string, digest: string): Promise<void>;
}

export class MemoryBlobStore implements BlobStore {
  readonly blobs = new Map<string, Uint8Array>();
  readonly tags = new Map<string, string>();

  getBlob(digest: string): Promise<Uint8Array | undefined> {
    return Promise.resolve(this.blobs.get(digest));
  }
  putBlob(digest: string, bytes: Uint8Array): Promise<void> {
    this.blobs.set(digest, bytes);
    return Promise.resolve();
  }
  getTag(name: string): Promise<string | undefined> {
    return Promise.resolve(this.tags.get(name));
  }
  putTag(name: string, digest: string): Promise<void> {
    this.tags.set(name, digest);
    return Promise.resolve();
  }
}
