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
import { imageLayerReaders } from '../../runtimes/wasm.ts';
import { wasmFromLayer } from '../../../wasm/oci/layout.ts';
import { parseFlags, str, UsageError } from '../cli-flags.ts';
import { errorLine } from '../error-line.ts';
import { write, type CliIO } from '../io.ts';
import { createNodeOciClient } from '../oci/index.ts';
import { wasmSpec } from './specs/wasm.ts';

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
  const wasm = await wasmFromLayer(img.layers[0].bytes, imageLayerReaders);
  await writeFile(nodePath.resolve(io.cwd, file), wasm);
}

export async function runWasm(argv: string[], io: CliIO): Promise<number> {
  try {
    const p = parseFlags(argv, wasmSpec.flags);
    const [sub, ...rest] = p.positional;
    if (sub === undefined) throw new UsageError('wants a subcommand: push or pull');
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
