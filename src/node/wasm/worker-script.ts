/**
 * Where the WASM worker's script is. From the build it is `wasm-worker.js` beside the bundle. From
 * sources (tests, `node --experimental-strip-types`-less Node 20) the TypeScript entry cannot run
 * in a worker, so it is bundled once per process with esbuild (a dev dependency) into a temp
 * directory, removed when the process exits (or by removeBundledWorkerScripts).
 */
import { existsSync, rmSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

let pending: Promise<URL> | undefined;
/** The temp directories holding bundled worker scripts, until removeBundledWorkerScripts. */
const bundled = new Set<string>();
let removeAtExit = false;

/**
 * Removes the temp directories of the worker scripts bundled so far; never throws. Runs when the
 * process exits. A worker thread ended by `Worker.terminate()` gets no 'exit' event, so vitest's
 * threads call it after each test file (test/harness/remove-worker-scripts.ts). A later
 * workerScriptUrl() bundles afresh.
 */
export function removeBundledWorkerScripts(): void {
  for (const dir of bundled) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // Best effort: this runs in an 'exit' handler, which must not throw.
    }
  }
  bundled.clear();
  pending = undefined;
}

export function workerScriptUrl(): Promise<URL> {
  pending ??= locateWorkerScript(
    new URL('./wasm-worker.js', import.meta.url),
    new URL('./worker-entry.ts', import.meta.url),
  );
  return pending;
}

/**
 * A worker script: `built` when it exists (the build writes it beside the bundle), else the
 * TypeScript `entry` bundled with esbuild into a temp directory (running from sources), removed
 * at process exit or by removeBundledWorkerScripts. Also used by `krmfn serve`'s render workers
 * (src/node/serve/worker-pool.ts).
 */
export async function locateWorkerScript(built: URL, entryUrl: URL): Promise<URL> {
  if (built.protocol === 'file:' && existsSync(fileURLToPath(built))) return built;
  const entry = fileURLToPath(entryUrl);
  if (!existsSync(entry)) throw new Error(`krmfn: worker script ${fileURLToPath(built)} not found`);
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
    // Bundled CommonJS dependencies may call require(); give the ESM bundle one.
    banner: {
      js: "import { createRequire as __krmfnCreateRequire } from 'node:module'; const require = __krmfnCreateRequire(import.meta.url);",
    },
  });
  const dir = await mkdtemp(join(tmpdir(), 'krmfn-worker-'));
  if (!removeAtExit) {
    removeAtExit = true;
    process.once('exit', removeBundledWorkerScripts);
  }
  bundled.add(dir);
  const file = join(dir, built.pathname.split('/').pop()!.replace(/\.js$/, '.mjs'));
  await writeFile(file, result.outputFiles[0].contents);
  return pathToFileURL(file);
}
