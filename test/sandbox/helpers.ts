/**
 * Test images for the sandbox runtime, built here from our own parts: the static C function
 * (fixtures/probe-fn.c, compiled once per source hash with `gcc -static`), layers written with
 * krmfn's tar writer and gzip'd (or compressed by the real `zstd` CLI), configs as a registry would serve them, and an in-memory
 * `ImageSource`; and `withFirstHeader`, which renames a tar's first entry to what the tar writer
 * refuses to write (`..`, absolute paths) for the hostile-image cases.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { KrmfnError } from '../../src/core/errors.ts';
import { writeTar, type TarWriteEntry } from '../../src/core/tar.ts';
import type { ImageSource, LayerBlob, SandboxImage } from '../../src/node/sandbox/image.ts';
import { parseImageConfig } from '../../src/node/sandbox/image.ts';

const SOURCE = new URL('./fixtures/probe-fn.c', import.meta.url);

export const sha256 = (b: Uint8Array | string): string => `sha256:${createHash('sha256').update(b).digest('hex')}`;

/** The compiled probe function (cached in the temp dir by source hash). */
export function probeBinary(): Uint8Array {
  const src = readFileSync(SOURCE);
  const dir = join(tmpdir(), 'krmfn-sandbox-test');
  const out = join(dir, `probe-fn-${sha256(src).slice(7, 19)}`);
  if (!existsSync(out)) {
    mkdirSync(dir, { recursive: true });
    const tmp = `${out}.${process.pid}`;
    execFileSync('gcc', ['-static', '-O2', '-o', tmp, SOURCE.pathname], { stdio: 'pipe' });
    renameSync(tmp, out);
  }
  return readFileSync(out);
}

export const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

export const ZSTD_LAYER = 'application/vnd.oci.image.layer.v1.tar+zstd';

/** `bytes` compressed by the real `zstd` CLI (from stdin, so the frame declares no content size). */
export function zstdCompress(bytes: Uint8Array, flags: string[] = []): Uint8Array {
  return new Uint8Array(execFileSync('zstd', ['-q', '-c', ...flags], { input: bytes, maxBuffer: 1 << 30 }));
}

/** A zstd layer blob of `tar` with its true digest and size. */
export function zstdBlob(tar: Uint8Array, flags: string[] = []): LayerBlob {
  const bytes = zstdCompress(tar, flags);
  return { mediaType: ZSTD_LAYER, digest: sha256(bytes), size: bytes.length, bytes };
}

/** A gzip'd layer blob with its true digest and size. */
export function layer(entries: TarWriteEntry[]): LayerBlob {
  const bytes = new Uint8Array(gzipSync(writeTar(entries)));
  return { mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', digest: sha256(bytes), size: bytes.length, bytes };
}

export interface ConfigFields {
  Entrypoint?: string[];
  Cmd?: string[];
  Env?: string[];
  WorkingDir?: string;
}

export function image(reference: string, layers: LayerBlob[], config: ConfigFields = {}): SandboxImage {
  const json = enc(JSON.stringify({ architecture: 'amd64', os: 'linux', config }));
  return { reference, id: sha256(json), config: parseImageConfig(json), layers };
}

export const PASSWD = 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin\n';

/** The base layer of every probe image: /fn, /etc/passwd with `nobody`, /work as working dir. */
export function probeLayer(): LayerBlob {
  return layer([
    { path: 'fn', data: probeBinary(), mode: 0o755 },
    { path: 'etc', kind: 'dir', data: new Uint8Array(0) },
    { path: 'etc/passwd', data: enc(PASSWD) },
    { path: 'work', kind: 'dir', data: new Uint8Array(0) },
  ]);
}

/** An image running `/fn MODE` from /work. */
export function probeImage(mode: string, extra: ConfigFields = {}): SandboxImage {
  return image(`example.test/probe:${mode}`, [probeLayer()], {
    Entrypoint: ['/fn'],
    Cmd: [mode],
    WorkingDir: '/work',
    Env: ['PATH=/bin', 'FOO=from-image'],
    ...extra,
  });
}

export function memorySource(images: SandboxImage[]): ImageSource & { gets: number } {
  const byRef = new Map(images.map((i) => [i.reference, i]));
  const source = {
    gets: 0,
    async get(reference: string): Promise<SandboxImage> {
      source.gets++;
      const found = byRef.get(reference);
      if (!found) throw new KrmfnError({ code: 'function-not-found', message: `${reference}: not found` });
      return found;
    },
  };
  return source;
}

/** Rewrites the name (and link name) of a tar's first header: the writer itself refuses `..`. */
export function withFirstHeader(tar: Uint8Array, name: string, linkName?: string): Uint8Array {
  const h = tar.subarray(0, 512);
  h.fill(0, 0, 100);
  h.set(enc(name), 0);
  if (linkName !== undefined) {
    h.fill(0, 157, 257);
    h.set(enc(linkName), 157);
  }
  h.fill(32, 148, 156);
  let sum = 0;
  for (const b of h) sum += b;
  h.set(enc(sum.toString(8).padStart(6, '0') + '\0 '), 148);
  return tar;
}
