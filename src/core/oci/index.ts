/**
 * The OCI distribution client's public surface (src/core/oci): references, the client (pull,
 * push), stores, manifests and kpt's WASM image format. See client.ts for the API in brief.
 */
export {
  OciClient,
  type FetchedManifest,
  type OciClientOptions,
  type PulledImage,
  type PulledLayer,
  type PullOptions,
  type PullPolicy,
} from './client.ts';
export { parsePullPolicy, pullPolicyError } from './pull-policy.ts';
export { isOciError, OciError, type OciErrorCode } from './errors.ts';
export { parseChallenge, type Credentials } from './auth.ts';
export {
  formatPlatform,
  MEDIA,
  parsePlatform,
  selectPlatform,
  sha256Digest,
  WASM_PLATFORM,
  type Descriptor,
  type ImageIndex,
  type ImageManifest,
  type Platform,
} from './manifest.ts';
export { formatReference, parseReference, type OciReference } from './reference.ts';
export { MemoryBlobStore, type BlobStore } from './store.ts';
export type { FetchLike } from './transport.ts';
export { pushWasmImage, type WasmPushResult } from './wasm-image.ts';
