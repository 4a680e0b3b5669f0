/**
 * Where the sandbox runtime gets images: the OCI registry client (src/core/oci/client.ts) with the
 * Node disk cache and Docker credentials (src/node/oci/index.ts), pulling the `linux/<arch>` image
 * of this machine with kpt's pull policy. Blobs arrive verified against their digests; the unpacker
 * checks them again. Unpacked root filesystems live beside the blob cache, in
 * `<cache root>/sandbox` (the cache root: `$KRMFN_CACHE_DIR`, else `$XDG_CACHE_HOME/krmfn`, else
 * `~/.cache/krmfn`).
 */
import { join } from 'node:path';
import type { OciClient } from '../../core/oci/client.ts';
import { cacheRoot, createNodeOciClient } from '../oci/index.ts';
import type { PullPolicy } from '../runtimes/container.ts';
import { parseImageConfig, type ImageSource, type SandboxImage } from './image.ts';

const OCI_ARCH: Partial<Record<string, string>> = {
  x64: 'amd64',
  arm64: 'arm64',
  arm: 'arm',
  ia32: '386',
  ppc64: 'ppc64le',
  s390x: 's390x',
  riscv64: 'riscv64',
};

/** The OCI architecture name of a Node `process.arch` (`x64` -> `amd64`, `arm64`...), this machine's by default. */
export function hostArchitecture(nodeArch: string = process.arch): string {
  return OCI_ARCH[nodeArch] ?? nodeArch;
}

export function sandboxCacheDir(env: Record<string, string | undefined>): string {
  return join(cacheRoot(env), 'sandbox');
}

/** An image source over one OCI client (injected in tests). */
export function ociImageSource(client: OciClient, architecture = hostArchitecture()): ImageSource {
  return {
    async get(reference: string, policy: PullPolicy): Promise<SandboxImage> {
      const pulled = await client.pull(reference, { platform: { os: 'linux', architecture }, policy });
      return {
        reference,
        id: pulled.manifest.config.digest,
        config: parseImageConfig(pulled.config),
        provenance: {
          reference: pulled.reference,
          digest: pulled.manifestDigest,
          ...(pulled.indexDigest ? { indexDigest: pulled.indexDigest } : {}),
          source: pulled.source,
        },
        layers: pulled.layers.map((l) => ({
          mediaType: l.descriptor.mediaType,
          digest: l.descriptor.digest,
          size: l.descriptor.size,
          bytes: l.bytes,
        })),
      };
    },
  };
}

export function registryImageSource(env: Record<string, string | undefined>): ImageSource {
  return ociImageSource(createNodeOciClient(env).client);
}
