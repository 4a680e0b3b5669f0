/**
 * What the sandbox runtime needs of a container image, whoever fetched it: the parsed config
 * (entrypoint, cmd, env, working directory, user, platform) and the layer blobs in order, each
 * with the digest and size its manifest announced. An `ImageSource` turns a reference into one;
 * the registry client (src/node/sandbox/registry-source.ts) and tests (a memory source) are
 * sources. Nothing here touches the disk.
 */
import { KrmfnError } from '../../core/errors.ts';
import type { PullPolicy } from '../runtimes/container.ts';

export interface ImageRunConfig {
  entrypoint: string[];
  cmd: string[];
  /** `K=V` entries, in order. */
  env: string[];
  workingDir: string;
  user: string;
  os: string;
  architecture: string;
}

export interface LayerBlob {
  mediaType: string;
  /** `sha256:<hex>` as the manifest names it; the unpacker checks the bytes against it. */
  digest: string;
  /** Size the manifest announced; the unpacker refuses a blob of another length. */
  size: number;
  bytes: Uint8Array;
}

export interface SandboxImage {
  /** The reference as written in the pipeline (for messages). */
  reference: string;
  /** A stable identity of the unpacked tree: the config digest (`sha256:<hex>`). */
  id: string;
  config: ImageRunConfig;
  layers: LayerBlob[];
  /** Where it came from, for `--json` (registry sources set it). */
  provenance?: ImageProvenance;
}

/** The registry facts of a pulled image, reported per run like WASM images (src/runtimes/wasm.ts). */
export interface ImageProvenance {
  /** The normalised reference pulled. */
  reference: string;
  /** Digest of the image manifest. */
  digest: string;
  /** Digest of the index the reference named, when it named one. */
  indexDigest?: string;
  /** 'cached' when the registry was not asked. */
  source: 'pulled' | 'cached';
}

export interface ImageSource {
  /** Resolves a reference for `linux/<arch>`; throws KrmfnError (not found, unauthorized...). */
  get(reference: string, policy: PullPolicy): Promise<SandboxImage>;
}

function strings(v: unknown, what: string): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) {
    throw new KrmfnError({ code: 'image-invalid', message: `image config: ${what} must be a list of strings` });
  }
  return v as string[];
}

function optionalString(v: unknown, what: string): string {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') {
    throw new KrmfnError({ code: 'image-invalid', message: `image config: ${what} must be a string` });
  }
  return v;
}

/** Reads an OCI / Docker image config (`application/vnd.oci.image.config.v1+json`). */
export function parseImageConfig(bytes: Uint8Array): ImageRunConfig {
  let doc: unknown;
  try {
    doc = JSON.parse(new TextDecoder().decode(bytes));
  } catch (e) {
    throw new KrmfnError({ code: 'image-invalid', message: `image config is not JSON: ${(e as Error).message}` });
  }
  if (typeof doc !== 'object' || doc === null) {
    throw new KrmfnError({ code: 'image-invalid', message: 'image config is not a JSON object' });
  }
  const d = doc as Record<string, unknown>;
  const c = (typeof d.config === 'object' && d.config !== null ? d.config : {}) as Record<string, unknown>;
  return {
    entrypoint: strings(c.Entrypoint, 'config.Entrypoint'),
    cmd: strings(c.Cmd, 'config.Cmd'),
    env: strings(c.Env, 'config.Env'),
    workingDir: optionalString(c.WorkingDir, 'config.WorkingDir'),
    user: optionalString(c.User, 'config.User'),
    os: optionalString(d.os, 'os'),
    architecture: optionalString(d.architecture, 'architecture'),
  };
}
