/**
 * `krmfn wasm push FILE IMAGE` and `krmfn wasm pull IMAGE FILE`: kpt's WASM images
 * (`kpt alpha wasm push` / `pull`; the format is src/core/oci/wasm-image.ts) through krmfn's own OCI
 * client, with the disk cache and Docker config credentials of src/node/oci.
 *
 * push prints kpt's two lines, `digest of the image: …` and `digest of the image index: …`; pull
 * writes the module (the `js/wasm` entry of the index, or a one-layer image) to FILE, following
 * `--image-pull-policy` (default IfNotPresent; an `@sha256:` pin is verified). Errors are one line,
 * `error: …`, exit 1.
 */
import { readFile, writeFile } from 'node:fs/promises';
import * as nodePath from 'node:path';
import type { PullPolicy } from '../../core/oci/client.ts';
import { parsePullPolicy, pullPolicyError } from '../../core/oci/pull-policy.ts';
import { WASM_PLATFORM } from '../../core/oci/manifest.ts';
import { parseReference } from '../../core/oci/reference.ts';
import { pushWasmImage } from '../../core/oci/wasm-image.ts';
import { readImageTar } from '../../runtimes/wasm.ts';
import { wasmFromLayer } from '../../../wasm/oci/layout.ts';
import { bool, parseFlags, str, UsageError, type FlagSpec } from '../cli-flags.ts';
import { errorLine } from '../error-line.ts';
import { write, type CliIO, type Command } from '../io.ts';
import { createNodeOciClient } from '../oci/index.ts';

const HELP = `Push and pull kpt WASM function images.

Usage:
  krmfn wasm push FILE.wasm IMAGE
  krmfn wasm pull IMAGE FILE.wasm [--image-pull-policy Always|IfNotPresent|Never]

Images are written as \`kpt alpha wasm push\` writes them (an index with a js/wasm entry).
Credentials come from the Docker config file ($DOCKER_CONFIG/config.json or ~/.docker/config.json);
pulled blobs are cached under $KRMFN_CACHE_DIR, $XDG_CACHE_HOME/krmfn or ~/.cache/krmfn.
`;

const FLAGS: readonly FlagSpec[] = [
  { name: 'help', short: 'h', kind: 'bool' },
  { name: 'image-pull-policy', kind: 'string' },
];

async function push(args: string[], io: CliIO): Promise<void> {
  if (args.length !== 2) throw new UsageError(`accepts 2 arg(s), received ${args.length}`);
  const [file, image] = args as [string, string];
  const ref = parseReference(image);
  const bytes = new Uint8Array(await readFile(nodePath.resolve(io.cwd, file)));
  const { client } = createNodeOciClient(io.env);
  const r = await pushWasmImage(client, ref, bytes, nodePath.basename(file));
  await write(
    io.stdout,
    `digest of the image: ${r.imageDigest}\ndigest of the image index: ${r.indexDigest}\nimage has been pushed to ${image}\n`,
  );
}

async function pull(args: string[], io: CliIO, policy: PullPolicy): Promise<void> {
  if (args.length !== 2) throw new UsageError(`accepts 2 arg(s), received ${args.length}`);
  const [image, file] = args as [string, string];
  const { client } = createNodeOciClient(io.env);
  const img = await client.pull(parseReference(image), { platform: WASM_PLATFORM, policy });
  if (img.layers.length !== 1)
    throw new Error(`${img.reference} is not a WASM image: it has ${img.layers.length} layers`);
  const wasm = await wasmFromLayer(img.layers[0].bytes, readImageTar);
  await writeFile(nodePath.resolve(io.cwd, file), wasm);
}

async function runWasm(argv: string[], io: CliIO): Promise<number> {
  try {
    const p = parseFlags(argv, FLAGS);
    const [sub, ...rest] = p.positional;
    if (bool(p, 'help') || sub === undefined) {
      await write(bool(p, 'help') ? io.stdout : io.stderr, HELP);
      return bool(p, 'help') ? 0 : 1;
    }
    const policyText = str(p, 'image-pull-policy') ?? 'IfNotPresent';
    const policy = parsePullPolicy(policyText);
    if (!policy) throw new UsageError(pullPolicyError(policyText));
    if (sub === 'push') await push(rest, io);
    else if (sub === 'pull') await pull(rest, io, policy);
    else throw new UsageError(`unknown command ${JSON.stringify(sub)} for "krmfn wasm" (push, pull)`);
    return 0;
  } catch (e) {
    await write(io.stderr, errorLine(e));
    return 1;
  }
}

export const wasmCommand: Command = {
  name: 'wasm',
  summary: 'Push and pull kpt WASM function images (kpt alpha wasm push/pull)',
  run: runWasm,
};
