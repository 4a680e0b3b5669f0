/** Images the OCI tests build themselves: small layers, configs and multi-platform indexes. */
import { gunzipSync as gunzip, gzipSync } from 'node:zlib';
import { writeTar } from '../../src/core/tar.ts';
import { MEDIA, type Descriptor, type OciClient, type OciReference, type Platform } from '../../src/core/oci/index.ts';

const enc = new TextEncoder();

export function layer(files: Record<string, string>): Uint8Array {
  return new Uint8Array(
    gzipSync(writeTar(Object.entries(files).map(([path, text]) => ({ path, data: enc.encode(text) })))),
  );
}

/**
 * Pushes a one-layer OCI image for `platform` whose file `platform.txt` names it (also under the
 * reference's tag when `tagged`); answers its descriptor.
 */
export async function pushPlatformImage(
  client: OciClient,
  ref: OciReference,
  platform: Platform,
  tagged = false,
): Promise<Descriptor> {
  const config = enc.encode(JSON.stringify({ os: platform.os, architecture: platform.architecture, config: {} }));
  return client.pushImage(ref, {
    config: { bytes: config, mediaType: MEDIA.ociConfig },
    layers: [
      { bytes: layer({ 'platform.txt': `${platform.os}/${platform.architecture}\n` }), mediaType: MEDIA.ociLayerGzip },
    ],
    mediaType: MEDIA.ociManifest,
    platform,
    ...(tagged && ref.tag ? { tag: ref.tag } : {}),
  });
}

/** Pushes images for linux/amd64 and linux/arm64 and an OCI index of both under the tag. */
export async function pushMultiPlatform(client: OciClient, ref: OciReference): Promise<string> {
  const amd = await pushPlatformImage(client, ref, { os: 'linux', architecture: 'amd64' });
  const arm = await pushPlatformImage(client, ref, { os: 'linux', architecture: 'arm64' });
  return client.pushIndex(ref, [amd, arm], MEDIA.ociIndex);
}

export function layerText(bytes: Uint8Array): string {
  // The layers above are gzip tars holding one small text file: the text sits after the 512-byte header.
  const tar = new Uint8Array(gunzip(bytes));
  const size = parseInt(new TextDecoder().decode(tar.subarray(124, 135)), 8);
  return new TextDecoder().decode(tar.subarray(512, 512 + size));
}
