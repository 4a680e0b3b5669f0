/**
 * The OCI distribution client (pull and push) on an injected `fetch`; browser-safe.
 *
 * API (for runtimes: the WASM image loader, the sandbox container runtime):
 *   const client = new OciClient({ fetch, credentials, store });
 *   const img = await client.pull('ghcr.io/org/fn:v1', { platform: { os: 'linux', architecture: 'amd64' } });
 *   img.manifestDigest, img.config (bytes), img.layers[i].bytes (as stored: usually gzip tar), img.source
 *
 * Pull: the manifest for the tag or digest (`@sha256:` wins over a tag), an index resolved to the
 * entry for `platform` (`oci-platform` naming the platforms on offer when none matches; a plain
 * manifest is taken as it is), then config and layers. Every manifest and blob is verified: size
 * and sha256 digest against the descriptor that named it (`oci-digest`), a tag's manifest against
 * the registry's `Docker-Content-Digest`; bodies are read with a cap so a registry lying about
 * sizes is cut off. With a `store`, `policy` decides the registry's part, as kpt's
 * `--image-pull-policy`: `Always` asks the registry for the manifest, `IfNotPresent` (default) uses
 * a stored tag or digest when there is one, `Never` never asks (`oci-not-cached` when absent).
 * Blobs come from the store whenever present (verified again), else from the registry.
 *
 * Push: blobs by a POST + monolithic PUT upload (skipped when the registry has the blob), then
 * manifests and indexes by tag or digest.
 */
import { OciError } from './errors.ts';
import {
  documentMediaType,
  formatPlatform,
  INDEX_MEDIA_TYPES,
  MANIFEST_ACCEPT,
  manifestProblem,
  selectPlatform,
  sha256Digest,
  type Descriptor,
  type ImageIndex,
  type ImageManifest,
  type Platform,
} from './manifest.ts';
import { formatReference, manifestReference, parseReference, type OciReference } from './reference.ts';
import type { BlobStore } from './store.ts';
import { readCapped, RegistryTransport, type TransportOptions } from './transport.ts';

import type { PullPolicy } from './pull-policy.ts';

export type { PullPolicy } from './pull-policy.ts';

export interface OciClientOptions extends TransportOptions {
  store?: BlobStore;
  /** Largest manifest or index accepted (default 4 MiB, as distribution's limit). */
  maxManifestBytes?: number;
  /** Largest blob accepted (default 2 GiB). */
  maxBlobBytes?: number;
}

export interface PullOptions {
  /** The index entry to take (default: the only entry of a one-entry index, else required). */
  platform?: Platform;
  policy?: PullPolicy;
  /** Fetch the layers too (default true); false gives manifest and config only. */
  layers?: boolean;
}

export interface PulledLayer {
  descriptor: Descriptor;
  bytes: Uint8Array;
}

export interface PulledImage {
  /** The reference normalised (`docker.io/library/x:latest`). */
  reference: string;
  /** Digest of the index the reference named, when it named one. */
  indexDigest?: string;
  /** Digest of the image manifest. */
  manifestDigest: string;
  manifest: ImageManifest;
  config: Uint8Array;
  layers: PulledLayer[];
  /** 'cached' when nothing was asked of the registry. */
  source: 'pulled' | 'cached';
}

export interface FetchedManifest {
  digest: string;
  mediaType: string;
  bytes: Uint8Array;
  document: ImageManifest | ImageIndex;
  fromStore: boolean;
}

export interface BlobInput {
  bytes: Uint8Array;
  mediaType: string;
}

const dec = new TextDecoder();
const enc = new TextEncoder();

export class OciClient {
  private readonly transport: RegistryTransport;
  private readonly opts: OciClientOptions;

  constructor(opts: OciClientOptions = {}) {
    this.opts = opts;
    this.transport = new RegistryTransport(opts);
  }

  /** Pulls an image (see the file comment). */
  async pull(image: string | OciReference, opts: PullOptions = {}): Promise<PulledImage> {
    const ref = typeof image === 'string' ? parseReference(image) : image;
    const name = formatReference(ref);
    const policy = opts.policy ?? 'IfNotPresent';
    let top = await this.manifestFor(ref, policy);
    let fromStore = top.fromStore;
    let indexDigest: string | undefined;
    if (INDEX_MEDIA_TYPES.has(top.mediaType)) {
      indexDigest = top.digest;
      const index = top.document as ImageIndex;
      let entry = opts.platform ? selectPlatform(index, opts.platform) : undefined;
      if (!opts.platform && index.manifests.length === 1) entry = index.manifests[0];
      if (!entry) {
        const offered = index.manifests.map((d) => (d.platform ? formatPlatform(d.platform) : 'unknown')).join(', ');
        throw new OciError(
          'oci-platform',
          `pulling ${name}: no image for platform ${opts.platform ? formatPlatform(opts.platform) : '(none given)'} (the index offers ${offered || 'nothing'})`,
          name,
        );
      }
      top = await this.manifestByDescriptor(ref, entry, policy);
      fromStore &&= top.fromStore;
      if (INDEX_MEDIA_TYPES.has(top.mediaType)) {
        throw new OciError('oci-registry', `pulling ${name}: nested image indexes are not supported`, name);
      }
    }
    const manifest = top.document as ImageManifest;
    const config = await this.blob(ref, manifest.config, policy);
    fromStore &&= config.fromStore;
    const layers: PulledLayer[] = [];
    if (opts.layers !== false) {
      for (const d of manifest.layers) {
        const b = await this.blob(ref, d, policy);
        fromStore &&= b.fromStore;
        layers.push({ descriptor: d, bytes: b.bytes });
      }
    }
    return {
      reference: name,
      ...(indexDigest ? { indexDigest } : {}),
      manifestDigest: top.digest,
      manifest,
      config: config.bytes,
      layers,
      source: fromStore ? 'cached' : 'pulled',
    };
  }

  /** The manifest or index a reference names, from the store or the registry as `policy` says. */
  async manifestFor(ref: OciReference, policy: PullPolicy = 'Always'): Promise<FetchedManifest> {
    const name = formatReference(ref);
    const store = this.opts.store;
    if (store && policy !== 'Always') {
      const digest = ref.digest ?? (await store.getTag(name));
      const stored = digest ? await store.getBlob(digest) : undefined;
      if (digest && stored) {
        if ((await sha256Digest(stored)) === digest) return this.parseManifest(ref, stored, digest, null, true);
      }
      if (policy === 'Never') {
        throw new OciError('oci-not-cached', `image ${name} is not in the cache and the pull policy is Never`, name);
      }
    }
    const res = await this.transport.request(ref, {
      method: 'GET',
      path: `manifests/${manifestReference(ref)}`,
      headers: { Accept: MANIFEST_ACCEPT },
      action: 'pulling',
    });
    const max = this.opts.maxManifestBytes ?? 4 * 1024 * 1024;
    const bytes = await readCapped(res, max, () => this.tooLarge(name, 'manifest', max));
    const digest = await sha256Digest(bytes);
    const expected = ref.digest ?? res.headers.get('docker-content-digest') ?? undefined;
    if (expected && expected !== digest) {
      throw new OciError('oci-digest', `pulling ${name}: manifest has digest ${digest}, expected ${expected}`, name);
    }
    const fetched = this.parseManifest(ref, bytes, digest, res.headers.get('content-type'), false);
    if (store) {
      await store.putBlob(digest, bytes);
      if (!ref.digest) await store.putTag(name, digest);
    }
    return fetched;
  }

  private async manifestByDescriptor(ref: OciReference, d: Descriptor, policy: PullPolicy): Promise<FetchedManifest> {
    const byDigest: OciReference = { registry: ref.registry, repository: ref.repository, digest: d.digest };
    const max = this.opts.maxManifestBytes ?? 4 * 1024 * 1024;
    if (d.size > max) this.tooLarge(formatReference(ref), 'manifest', max);
    const m = await this.manifestFor(byDigest, policy === 'Never' ? 'Never' : 'IfNotPresent');
    if (m.bytes.byteLength !== d.size) {
      throw new OciError(
        'oci-digest',
        `pulling ${formatReference(ref)}: manifest ${d.digest} is ${m.bytes.byteLength} bytes, the index says ${d.size}`,
        formatReference(ref),
      );
    }
    return m;
  }

  private parseManifest(
    ref: OciReference,
    bytes: Uint8Array,
    digest: string,
    contentType: string | null,
    fromStore: boolean,
  ): FetchedManifest {
    const name = formatReference(ref);
    let doc: unknown;
    try {
      doc = JSON.parse(dec.decode(bytes));
    } catch {
      throw new OciError('oci-registry', `pulling ${name}: manifest ${digest} is not JSON`, name);
    }
    const mediaType = documentMediaType(doc, contentType);
    const problem = manifestProblem(doc, mediaType);
    if (problem) throw new OciError('oci-registry', `pulling ${name}: manifest ${digest}: ${problem}`, name);
    return { digest, mediaType, bytes, document: doc as ImageManifest | ImageIndex, fromStore };
  }

  /** A blob, verified against its descriptor; from the store when there, else the registry. */
  async blob(
    ref: OciReference,
    d: Descriptor,
    policy: PullPolicy = 'IfNotPresent',
  ): Promise<{ bytes: Uint8Array; fromStore: boolean }> {
    const name = formatReference(ref);
    const max = this.opts.maxBlobBytes ?? 2 * 1024 * 1024 * 1024;
    if (d.size > max) this.tooLarge(name, `blob ${d.digest}`, max);
    const stored = await this.opts.store?.getBlob(d.digest);
    if (stored && stored.byteLength === d.size && (await sha256Digest(stored)) === d.digest) {
      return { bytes: stored, fromStore: true };
    }
    if (policy === 'Never') {
      throw new OciError(
        'oci-not-cached',
        `blob ${d.digest} of ${name} is not in the cache and the pull policy is Never`,
        name,
      );
    }
    const res = await this.transport.request(ref, { method: 'GET', path: `blobs/${d.digest}`, action: 'pulling' });
    const bytes = await readCapped(res, d.size, () => {
      throw new OciError(
        'oci-digest',
        `pulling ${name}: blob ${d.digest} is larger than the ${d.size} bytes its descriptor says`,
        name,
      );
    });
    if (bytes.byteLength !== d.size) {
      throw new OciError(
        'oci-digest',
        `pulling ${name}: blob ${d.digest} is ${bytes.byteLength} bytes, its descriptor says ${d.size}`,
        name,
      );
    }
    const actual = await sha256Digest(bytes);
    if (actual !== d.digest) {
      throw new OciError('oci-digest', `pulling ${name}: blob has digest ${actual}, expected ${d.digest}`, name);
    }
    await this.opts.store?.putBlob(d.digest, bytes);
    return { bytes, fromStore: false };
  }

  /** Uploads a blob unless the repository has it; answers its descriptor. */
  async pushBlob(ref: OciReference, blob: BlobInput): Promise<Descriptor> {
    const digest = await sha256Digest(blob.bytes);
    const desc: Descriptor = { mediaType: blob.mediaType, digest, size: blob.bytes.byteLength };
    const head = await this.transport.request(ref, {
      method: 'HEAD',
      path: `blobs/${digest}`,
      push: true,
      accept: [404],
      action: 'pushing',
    });
    if (head.status === 200) return desc;
    const start = await this.transport.request(ref, {
      method: 'POST',
      path: 'blobs/uploads/',
      push: true,
      action: 'pushing',
    });
    await start.body?.cancel();
    const location = start.headers.get('location');
    if (!location) {
      throw new OciError(
        'oci-registry',
        `pushing ${formatReference(ref)}: the registry gave no upload location`,
        formatReference(ref),
      );
    }
    const url = new URL(location, this.transport.baseUrl(ref));
    url.searchParams.set('digest', digest);
    const put = await this.transport.request(ref, {
      method: 'PUT',
      path: url.toString(),
      headers: { 'Content-Type': 'application/octet-stream' },
      body: blob.bytes,
      push: true,
      action: 'pushing',
    });
    await put.body?.cancel();
    return desc;
  }

  /** Uploads a manifest or index under `tagOrDigest` (default: the reference's); answers its digest. */
  async pushManifest(ref: OciReference, bytes: Uint8Array, mediaType: string, tagOrDigest?: string): Promise<string> {
    const digest = await sha256Digest(bytes);
    const res = await this.transport.request(ref, {
      method: 'PUT',
      path: `manifests/${tagOrDigest ?? manifestReference(ref)}`,
      headers: { 'Content-Type': mediaType },
      body: bytes,
      push: true,
      action: 'pushing',
    });
    await res.body?.cancel();
    const answered = res.headers.get('docker-content-digest');
    if (answered && answered !== digest) {
      throw new OciError(
        'oci-digest',
        `pushing ${formatReference(ref)}: the registry stored ${answered}, expected ${digest}`,
        formatReference(ref),
      );
    }
    return digest;
  }

  /**
   * Pushes config and layers, then the manifest by digest (and under `image.tag` when given);
   * answers the manifest's descriptor.
   */
  async pushImage(
    ref: OciReference,
    image: { config: BlobInput; layers: readonly BlobInput[]; mediaType: string; platform?: Platform; tag?: string },
  ): Promise<Descriptor> {
    const config = await this.pushBlob(ref, image.config);
    const layers: Descriptor[] = [];
    for (const l of image.layers) layers.push(await this.pushBlob(ref, l));
    const bytes = enc.encode(JSON.stringify({ schemaVersion: 2, mediaType: image.mediaType, config, layers }));
    const digest = await this.pushManifest(ref, bytes, image.mediaType, await sha256Digest(bytes));
    if (image.tag) await this.pushManifest(ref, bytes, image.mediaType, image.tag);
    return {
      mediaType: image.mediaType,
      digest,
      size: bytes.byteLength,
      ...(image.platform ? { platform: image.platform } : {}),
    };
  }

  /** Pushes an index of already pushed manifests under the reference's tag; answers its digest. */
  async pushIndex(ref: OciReference, manifests: readonly Descriptor[], mediaType: string): Promise<string> {
    const bytes = enc.encode(JSON.stringify({ schemaVersion: 2, mediaType, manifests }));
    return this.pushManifest(ref, bytes, mediaType);
  }

  private tooLarge(name: string, what: string, max: number): never {
    throw new OciError('oci-registry', `pulling ${name}: ${what} is larger than the limit of ${max} bytes`, name);
  }
}
