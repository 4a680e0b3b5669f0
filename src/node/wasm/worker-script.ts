/**
 * Where the WASM worker's script is. From the build it is `wasm-worker.js` beside the bundle. From
 * sources (tests, `node --experimental-strip-types`-less Node 20) the TypeScript entry cannot run
 * in a worker, so it is bundled once per process with esbuild (a dev dependency) into a temp file.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

let pending: Promise<URL> | undefined;

export function workerScriptUrl(): Promise<URL> {
  pending ??= locate();
  return pending;
}

async function locate(): Promise<URL> {
  const built = new URL('./wasm-worker.js', import.meta.url);
  if (built.protocol === 'file:' && existsSync(fileURLToPath(built))) return built;
  const entry = fileURLToPath(new URL('./worker-entry.ts', import.meta.url));
  if (!existsSync(entry))
    throw new Error(`krmfn: WASM worker script not found next to ${fileURLToPath(import.meta.url)}`);
  // A non-literal specifier keeps esbuild (only needed when running from source) out of the CLI bundle.
  const esbuild = 'esbuild';
  const { build } = (await import(/* @vite-ignore */ esbuild)) as typeof import('esbuild');
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    write: false,
    logLevel: 'silent',
  });
  const dir = await mkdtemp(join(tmpdir(), 'krmfn-wasm-worker-'));
  const file = join(dir, 'wasm-worker.mjs');
  await writeFile(file, result.outputFiles[0]!.contents);
  return pathToFileURL(file);
}
