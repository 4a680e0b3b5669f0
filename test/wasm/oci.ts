/** Writes kpt-style WASM OCI image layouts for tests: one layer (a tar holding the .wasm). */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { writeTar } from '../../src/core/tar.ts';

const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');
const json = (v: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(v));

export interface Layout {
  files: Record<string, Uint8Array>;
  manifestDigest: string;
}

/** The files of an OCI layout whose index points at a platform index holding a js/wasm image. */
export function wasmLayout(wasm: Uint8Array, opts: { gzip?: boolean; tag?: string } = {}): Layout {
  const files: Record<string, Uint8Array> = {};
  const put = (bytes: Uint8Array): string => {
    const d = sha(bytes);
    files[`blobs/sha256/${d}`] = bytes;
    return `sha256:${d}`;
  };
  let layer = writeTar([{ path: 'fn.wasm', data: wasm }]);
  if (opts.gzip) layer = new Uint8Array(gzipSync(layer));
  const layerDigest = put(layer);
  const config = json({
    architecture: 'wasm',
    os: 'js',
    rootfs: { type: 'layers', diff_ids: [`sha256:${sha(wasm)}`] },
  });
  const configDigest = put(config);
  const manifest = json({
    schemaVersion: 2,
    mediaType: 'application/vnd.oci.image.manifest.v1+json',
    config: { mediaType: 'application/vnd.oci.image.config.v1+json', digest: configDigest, size: config.byteLength },
    layers: [
      {
        mediaType: `application/vnd.oci.image.layer.v1.tar${opts.gzip ? '+gzip' : ''}`,
        digest: layerDigest,
        size: layer.byteLength,
      },
    ],
  });
  const manifestDigest = put(manifest);
  const platformIndex = json({
    schemaVersion: 2,
    mediaType: 'application/vnd.oci.image.index.v1+json',
    manifests: [
      {
        mediaType: 'application/vnd.oci.image.manifest.v1+json',
        digest: manifestDigest,
        size: manifest.byteLength,
        platform: { os: 'js', architecture: 'wasm' },
      },
    ],
  });
  const indexDigest = put(platformIndex);
  files['index.json'] = json({
    schemaVersion: 2,
    manifests: [
      {
        mediaType: 'application/vnd.oci.image.index.v1+json',
        digest: indexDigest,
        size: platformIndex.byteLength,
        annotations: { 'org.opencontainers.image.ref.name': opts.tag ?? 'v1' },
      },
    ],
  });
  files['oci-layout'] = json({ imageLayoutVersion: '1.0.0' });
  return { files, manifestDigest };
}

export function writeLayoutDir(dir: string, layout: Layout): void {
  for (const [p, data] of Object.entries(layout.files)) {
    mkdirSync(join(dir, p, '..'), { recursive: true });
    writeFileSync(join(dir, p), data);
  }
}

export function layoutTar(layout: Layout): Uint8Array {
  return writeTar(Object.entries(layout.files).map(([path, data]) => ({ path, data })));
}
