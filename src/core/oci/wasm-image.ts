/**
 * kpt's WASM images, in the format `kpt alpha wasm push` writes (kptdev/kpt `pkg/wasm/client.go`
 * at v1.0.0-beta.56, `PushWasm`): one gzip layer (a tar holding the module under its file's base
 * name, mode 0644), a Docker schema 2 image manifest, and under the tag a Docker manifest list whose
 * entry for platform `js/wasm` names that image. An existing index under the tag keeps its other
 * entries (its `js/wasm` entry is replaced); an existing non-index fails with kpt's message.
 *
 * Deliberate difference: the config omits `created` (kpt stamps the push time), so pushing the same
 * module twice gives the same digests. Reading modules back out of a layer is wasm/oci/layout.ts
 * `wasmFromLayer`, shared with OCI layouts on disk.
 */
import { writeTar } from '../tar.ts';
import type { OciClient } from './client.ts';
import { isOciError, OciError } from './errors.ts';
import { INDEX_MEDIA_TYPES, MEDIA, sha256Digest, WASM_PLATFORM, type Descriptor, type ImageIndex } from './manifest.ts';
import { formatReference, type OciReference } from './reference.ts';

export interface WasmPushResult {
  imageDigest: string;
  indexDigest: string;
}

const enc = new TextEncoder();

async function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Pushes `wasm` (named `fileName` inside the layer) to `ref` as kpt does. */
export async function pushWasmImage(
  client: OciClient,
  ref: OciReference,
  wasm: Uint8Array,
  fileName: string,
): Promise<WasmPushResult> {
  const name = formatReference(ref);
  let existing: Descriptor[] = [];
  try {
    const m = await client.manifestFor(ref, 'Always');
    if (!INDEX_MEDIA_TYPES.has(m.mediaType)) {
      throw new OciError(
        'oci-registry',
        `unexpected media type: ${m.mediaType}, expect either ${MEDIA.ociIndex} or ${MEDIA.dockerList}`,
        name,
      );
    }
    existing = (m.document as ImageIndex).manifests;
  } catch (e) {
    if (!(isOciError(e) && e.code === 'oci-not-found')) throw e;
  }
  const tar = writeTar([{ path: fileName.replace(/^.*\//, ''), data: wasm }]);
  const layer = await gzip(tar);
  const config = enc.encode(
    JSON.stringify({
      architecture: '',
      os: '',
      config: {},
      rootfs: { type: 'layers', diff_ids: [await sha256Digest(tar)] },
    }),
  );
  const image = await client.pushImage(ref, {
    config: { bytes: config, mediaType: MEDIA.dockerConfig },
    layers: [{ bytes: layer, mediaType: MEDIA.dockerLayerGzip }],
    mediaType: MEDIA.dockerManifest,
  });
  const others = existing.filter(
    (d) => !(d.platform?.os === WASM_PLATFORM.os && d.platform.architecture === WASM_PLATFORM.architecture),
  );
  const entry: Descriptor = { ...image, platform: { architecture: WASM_PLATFORM.architecture, os: WASM_PLATFORM.os } };
  const indexDigest = await client.pushIndex(ref, [...others, entry], MEDIA.dockerList);
  return { imageDigest: image.digest, indexDigest };
}
