/**
 * Loads a WASM module from an OCI image layout (a directory with `oci-layout`, `index.json` and
 * `blobs/sha256/…`, or the same as a tar archive), as kpt publishes WASM functions: an image (or
 * an index holding one for platform `js/wasm`) with one layer whose tar holds the `.wasm`. A layer
 * that is the module itself (`\0asm`, e.g. media type `application/wasm`) is accepted too.
 *
 * Every blob is checked against its sha256 digest. Bytes come through `read(relativePath)`, so
 * this works over any storage (Node fs, an in-memory tree, fetch).
 */
import { WasmHostError } from '../errors.ts';
import { sha256Hex } from '../module-cache.ts';

export type LayoutReader = (relativePath: string) => Promise<Uint8Array>;

/**
 * Reads the regular files of a tar archive in order (links skipped), throwing on a malformed or
 * truncated archive. Injected: the host passes its one tar reader (src/core/tar.ts `readTar` with
 * `nonRegular: 'skip'`), so wasm/ keeps no reader of its own.
 */
export type TarReader = (archive: Uint8Array) => readonly { path: string; data: Uint8Array }[];

/**
 * Reads a stream to its end, calling `onOverflow` (which throws) once it passes `max` bytes.
 * Injected: the host passes its one capped reader (src/core/capped-read.ts `readStreamCapped`).
 */
export type CappedReader = (
  stream: ReadableStream<Uint8Array>,
  max: number,
  onOverflow: () => never,
) => Promise<Uint8Array>;

/** What reading a layer needs from the host: its tar reader and its capped stream reader. */
export interface LayerReaders {
  readTar: TarReader;
  readCapped: CappedReader;
}

export interface OciModule {
  bytes: Uint8Array;
  /** Digest of the image manifest the module came from. */
  manifestDigest: string;
  /** Digest of the layer blob. */
  layerDigest: string;
}

interface Descriptor {
  mediaType?: string;
  digest: string;
  size?: number;
  platform?: { os?: string; architecture?: string };
  annotations?: Record<string, string>;
}

const INDEX_TYPES = new Set([
  'application/vnd.oci.image.index.v1+json',
  'application/vnd.docker.distribution.manifest.list.v2+json',
]);
const dec = new TextDecoder();

function fail(message: string): never {
  throw new WasmHostError('compile', `OCI layout: ${message}`);
}

async function blob(read: LayoutReader, digest: string): Promise<Uint8Array> {
  const m = /^sha256:([0-9a-f]{64})$/.exec(digest);
  if (!m) fail(`unsupported digest ${JSON.stringify(digest)}`);
  const bytes = await read(`blobs/sha256/${m[1]}`);
  if ((await sha256Hex(bytes)) !== m[1]) fail(`blob ${digest} does not match its digest`);
  return bytes;
}

function json(bytes: Uint8Array, what: string): Record<string, unknown> {
  try {
    return JSON.parse(dec.decode(bytes)) as Record<string, unknown>;
  } catch {
    return fail(`${what} is not JSON`);
  }
}

function pick(manifests: Descriptor[], tag: string | undefined): Descriptor {
  let candidates = manifests;
  if (tag) {
    candidates = manifests.filter((d) => d.annotations?.['org.opencontainers.image.ref.name'] === tag);
    if (candidates.length === 0) fail(`no manifest tagged ${JSON.stringify(tag)}`);
  }
  const wasm = candidates.filter((d) => d.platform?.os === 'js' && d.platform.architecture === 'wasm');
  if (wasm.length > 0) return wasm[0];
  const unplatformed = candidates.filter((d) => !d.platform);
  if (unplatformed.length > 0) return unplatformed[0];
  return fail('no manifest for platform js/wasm');
}

/** Layers inflate to at most this many bytes (a decompression bomb stops here). */
export const MAX_LAYER_BYTES = 256 * 1024 * 1024;

function gunzip(bytes: Uint8Array, max: number, readCapped: CappedReader): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('gzip'));
  return readCapped(stream, max, () => fail(`the layer inflates to more than ${max} bytes`));
}

const isWasm = (b: Uint8Array): boolean =>
  b.byteLength >= 4 && b[0] === 0 && b[1] === 0x61 && b[2] === 0x73 && b[3] === 0x6d;
const isGzip = (b: Uint8Array): boolean => b.byteLength >= 2 && b[0] === 0x1f && b[1] === 0x8b;

export async function loadOciModule(read: LayoutReader, readers: LayerReaders, tag?: string): Promise<OciModule> {
  const layoutFile = json(await read('oci-layout'), 'oci-layout');
  if (typeof layoutFile.imageLayoutVersion !== 'string') fail('oci-layout has no imageLayoutVersion');
  let index = json(await read('index.json'), 'index.json');
  let desc = pick((index.manifests as Descriptor[] | undefined) ?? [], tag);
  // Follow nested indexes (an image index for several platforms) down to one image manifest.
  for (let depth = 0; desc.mediaType && INDEX_TYPES.has(desc.mediaType); depth++) {
    if (depth > 4) fail('image indexes nested too deeply');
    index = json(await blob(read, desc.digest), `index ${desc.digest}`);
    desc = pick((index.manifests as Descriptor[] | undefined) ?? [], undefined);
  }
  const manifest = json(await blob(read, desc.digest), `manifest ${desc.digest}`);
  const layers = (manifest.layers as Descriptor[] | undefined) ?? [];
  if (layers.length !== 1) fail(`expected one layer holding the .wasm, found ${layers.length}`);
  const layer = layers[0];
  const bytes = await wasmFromLayer(await blob(read, layer.digest), readers);
  return { bytes, manifestDigest: desc.digest, layerDigest: layer.digest };
}

/**
 * The module a WASM image's one layer holds, as kpt reads it (kptdev/kpt `pkg/wasm/client.go`,
 * `loadWasmFromTar`): the layer, gunzipped when gzip, is the module itself (`\0asm`) or a tar whose
 * `.wasm` file (else first file) is the module. Used for layouts on disk and for registry pulls.
 * A gzip layer inflating past `maxBytes` is refused as it inflates.
 */
export async function wasmFromLayer(
  layer: Uint8Array,
  readers: LayerReaders,
  maxBytes = MAX_LAYER_BYTES,
): Promise<Uint8Array> {
  let data = layer;
  if (isGzip(data)) data = await gunzip(data, maxBytes, readers.readCapped);
  if (isWasm(data)) return data;
  const files = readers.readTar(data);
  const bytes = files.find((f) => f.path.endsWith('.wasm'))?.data ?? files[0]?.data;
  if (!bytes) fail('the layer holds no file');
  return bytes;
}

/** A reader over the files of a tar archive holding an OCI layout. */
export function tarLayoutReader(archive: Uint8Array, readTar: TarReader): LayoutReader {
  const files = new Map(readTar(archive).map((f) => [f.path.replace(/^\/+/, ''), f.data]));
  return async (p) => {
    const f = files.get(p);
    if (!f) fail(`archive has no ${p}`);
    return f;
  };
}
