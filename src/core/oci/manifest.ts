/**
 * OCI and Docker v2 manifest and index documents: media types, the shapes the client reads, a
 * structural check of parsed JSON (a registry's answer is untrusted), platform selection in an index,
 * and sha256 digests through Web Crypto (`crypto.subtle`, in browsers and Node 20).
 *
 * Why a digest helper here and not wasm/module-cache.ts `sha256Hex`: src/core may import nothing
 * else in the repo (docs/architecture.md, "The layers"); both are three lines over `crypto.subtle`.
 */
export const MEDIA = {
  ociManifest: 'application/vnd.oci.image.manifest.v1+json',
  ociIndex: 'application/vnd.oci.image.index.v1+json',
  ociConfig: 'application/vnd.oci.image.config.v1+json',
  ociLayer: 'application/vnd.oci.image.layer.v1.tar',
  ociLayerGzip: 'application/vnd.oci.image.layer.v1.tar+gzip',
  dockerManifest: 'application/vnd.docker.distribution.manifest.v2+json',
  dockerList: 'application/vnd.docker.distribution.manifest.list.v2+json',
  dockerConfig: 'application/vnd.docker.container.image.v1+json',
  dockerLayerGzip: 'application/vnd.docker.image.rootfs.diff.tar.gzip',
} as const;

export const INDEX_MEDIA_TYPES: ReadonlySet<string> = new Set([MEDIA.ociIndex, MEDIA.dockerList]);
export const MANIFEST_MEDIA_TYPES: ReadonlySet<string> = new Set([MEDIA.ociManifest, MEDIA.dockerManifest]);
/** The Accept header of manifest requests. */
export const MANIFEST_ACCEPT = [MEDIA.ociIndex, MEDIA.dockerList, MEDIA.ociManifest, MEDIA.dockerManifest].join(', ');

export interface Platform {
  os: string;
  architecture: string;
  variant?: string;
}

export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
  platform?: Platform;
  annotations?: Record<string, string>;
}

export interface ImageManifest {
  schemaVersion: 2;
  mediaType?: string;
  config: Descriptor;
  layers: Descriptor[];
  annotations?: Record<string, string>;
}

export interface ImageIndex {
  schemaVersion: 2;
  mediaType?: string;
  manifests: Descriptor[];
  annotations?: Record<string, string>;
}

/** kpt's WASM images: the index entry `kpt alpha wasm push` writes (kptdev/kpt `pkg/wasm/client.go`). */
export const WASM_PLATFORM: Platform = Object.freeze({ os: 'js', architecture: 'wasm' });

const DIGEST = /^sha256:[0-9a-f]{64}$/;

export async function sha256Digest(bytes: Uint8Array): Promise<string> {
  const d = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  let hex = '';
  for (const b of d) hex += b.toString(16).padStart(2, '0');
  return `sha256:${hex}`;
}

export function isDescriptor(v: unknown): v is Descriptor {
  if (typeof v !== 'object' || v === null) return false;
  const d = v as Record<string, unknown>;
  return (
    typeof d.mediaType === 'string' &&
    typeof d.digest === 'string' &&
    DIGEST.test(d.digest) &&
    typeof d.size === 'number' &&
    Number.isSafeInteger(d.size) &&
    d.size >= 0
  );
}

/** Why `doc` is not a usable manifest or index, or undefined when it is. */
export function manifestProblem(doc: unknown, mediaType: string): string | undefined {
  if (typeof doc !== 'object' || doc === null) return 'not a JSON object';
  const m = doc as Record<string, unknown>;
  if (m.schemaVersion !== 2) return `unsupported schemaVersion ${JSON.stringify(m.schemaVersion)}`;
  if (INDEX_MEDIA_TYPES.has(mediaType)) {
    if (!Array.isArray(m.manifests) || !m.manifests.every(isDescriptor)) return 'index without valid manifests';
    return undefined;
  }
  if (!MANIFEST_MEDIA_TYPES.has(mediaType)) return `unsupported media type ${JSON.stringify(mediaType)}`;
  if (!isDescriptor(m.config)) return 'manifest without a valid config descriptor';
  if (!Array.isArray(m.layers) || !m.layers.every(isDescriptor)) return 'manifest without valid layers';
  return undefined;
}

/** The media type a manifest document declares, else the one the registry sent. */
export function documentMediaType(doc: unknown, contentType: string | null): string {
  const declared = (doc as { mediaType?: unknown } | null)?.mediaType;
  if (typeof declared === 'string' && declared) return declared;
  const ct = (contentType ?? '').split(';')[0].trim();
  if (ct && ct !== 'application/json') return ct;
  // An OCI document without mediaType: an index has `manifests`.
  return Array.isArray((doc as { manifests?: unknown } | null)?.manifests) ? MEDIA.ociIndex : MEDIA.ociManifest;
}

/** The index entry for `platform` (variant compared only when asked), or undefined. */
export function selectPlatform(index: ImageIndex, platform: Platform): Descriptor | undefined {
  return index.manifests.find(
    (d) =>
      d.platform?.os === platform.os &&
      d.platform.architecture === platform.architecture &&
      (platform.variant === undefined || d.platform.variant === platform.variant),
  );
}

export function formatPlatform(p: Platform): string {
  return `${p.os}/${p.architecture}${p.variant ? `/${p.variant}` : ''}`;
}

/** Parses `os/arch[/variant]`, or undefined when malformed. */
export function parsePlatform(text: string): Platform | undefined {
  const parts = text.split('/');
  if (parts.length < 2 || parts.length > 3 || parts.some((p) => !p)) return undefined;
  return { os: parts[0], architecture: parts[1], ...(parts[2] ? { variant: parts[2] } : {}) };
}
