/**
 * The OCI client as the Node edge uses it: the disk cache (disk-store.ts) and Docker config
 * credentials (docker-config.ts) wired into src/core/oci's `OciClient`. For runtimes that pull:
 *
 *   const { client, store } = createNodeOciClient(io.env);
 *   const img = await client.pull(ref, { platform: { os: 'linux', architecture: 'amd64' }, policy });
 *   // img.config and img.layers[i].bytes are verified; store.blobPath(digest) is the cached file.
 */
import { OciClient } from '../../core/oci/client.ts';
import { cacheRoot, DiskBlobStore } from './disk-store.ts';
import { dockerCredentials } from './docker-config.ts';

export { cacheRoot, DiskBlobStore } from './disk-store.ts';
export { dockerConfigPath, dockerCredentials } from './docker-config.ts';

export interface NodeOciClient {
  client: OciClient;
  store: DiskBlobStore;
}

export function createNodeOciClient(env: Record<string, string | undefined>): NodeOciClient {
  const store = new DiskBlobStore(cacheRoot(env));
  return { client: new OciClient({ store, credentials: dockerCredentials(env) }), store };
}
