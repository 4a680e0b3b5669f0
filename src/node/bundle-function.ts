/**
 * Bundles an SDK function with esbuild into one ESM file (`krmfn build`'s engine, also used by
 * `krmfn test` to load a project's entry): the wrapper per target (`exec` runs `runCli`, `module`
 * re-exports the descriptor, `wasm-js` installs the JS-global ABI), `krmfn/sdk*` bound to this
 * krmfn's own copy, and reproducible output (machine paths stripped). esbuild is loaded lazily from
 * the function project first, then from krmfn.
 */
import { existsSync, promises as fsp } from 'node:fs';
import { createRequire } from 'node:module';
import * as nodePath from 'node:path';
import { pathToFileURL } from 'node:url';
import { krmfnRoot } from './package-root.ts';

export type BuildTarget = 'exec' | 'module' | 'browser' | 'container' | 'wasm-js';

/** Where each target's bundle runs: Node targets get Node built-ins and a `require` for CommonJS dependencies. */
export const PLATFORM: Record<BuildTarget, 'node' | 'browser' | 'neutral'> = {
  exec: 'node',
  module: 'node',
  container: 'node',
  browser: 'browser',
  'wasm-js': 'neutral',
};

export interface BuildRequest {
  /** Absolute path of the function's entry module (default-exporting the descriptor). */
  entry: string;
  /** Absolute output path. */
  out: string;
  target: BuildTarget;
  minify?: boolean;
}

/** Where krmfn's SDK entries are: its sources when present (development), else its build output. */
export function sdkAliases(root = krmfnRoot()): Record<string, string> {
  const src = {
    'krmfn/sdk': nodePath.join(root, 'sdk/index.ts'),
    'krmfn/sdk/node': nodePath.join(root, 'src/node/sdk.ts'),
    'krmfn/sdk/testing': nodePath.join(root, 'sdk/testing.ts'),
  };
  if (Object.values(src).every((p) => existsSync(p))) return src;
  return {
    'krmfn/sdk': nodePath.join(root, 'dist/sdk.js'),
    'krmfn/sdk/node': nodePath.join(root, 'dist/sdk-node.js'),
    'krmfn/sdk/testing': nodePath.join(root, 'dist/sdk-testing.js'),
  };
}

type Esbuild = typeof import('esbuild');

/**
 * esbuild is an optional peer of krmfn: the function project provides it (`krmfn init` puts it in
 * the project's devDependencies), so it is resolved from the project first, then from krmfn.
 */
async function loadEsbuild(projectDir: string): Promise<Esbuild> {
  const name = 'esbuild';
  try {
    const fromProject = createRequire(nodePath.join(projectDir, 'package.json')).resolve(name);
    return (await import(/* @vite-ignore */ pathToFileURL(fromProject).href)) as Esbuild;
  } catch {
    // not installed in the project: try krmfn's own
  }
  try {
    return (await import(/* @vite-ignore */ name)) as Esbuild;
  } catch {
    throw new Error(
      'krmfn build needs esbuild: install it in the function project (npm install --save-dev esbuild@0.28.2)',
    );
  }
}

function wrapperSource(entry: string, target: BuildTarget): string {
  const spec = JSON.stringify(entry.split(nodePath.sep).join('/'));
  if (target === 'module' || target === 'browser') return `export { default } from ${spec};\n`;
  if (target === 'wasm-js') {
    return [
      `import * as mod from ${spec};`,
      `import { toWasmGlobal } from 'krmfn/sdk';`,
      'toWasmGlobal(mod.default ?? mod.fn);',
      '',
    ].join('\n');
  }
  return [
    `import * as mod from ${spec};`,
    `import { runCli } from 'krmfn/sdk/node';`,
    `const fn = mod.default ?? mod.fn;`,
    `process.exitCode = await runCli(fn, process.argv.slice(2), { env: process.env });`,
    '',
  ].join('\n');
}

/** Bundles one function; returns the output size in bytes. */
export async function buildFunction(req: BuildRequest): Promise<number> {
  const esbuild = await loadEsbuild(nodePath.dirname(req.entry));
  const aliases = sdkAliases();
  const result = await esbuild.build({
    stdin: {
      contents: wrapperSource(req.entry, req.target),
      resolveDir: nodePath.dirname(req.entry),
      sourcefile: 'krmfn-entry.mjs',
      loader: 'js',
    },
    bundle: true,
    format: 'esm',
    platform: PLATFORM[req.target],
    target: PLATFORM[req.target] === 'node' ? 'node20' : 'es2022',
    outfile: req.out,
    write: false,
    minify: req.minify ?? false,
    legalComments: 'none',
    logLevel: 'silent',
    alias: aliases,
    banner: {
      js: [
        ...(req.target === 'exec' ? ['#!/usr/bin/env node'] : []),
        ...(PLATFORM[req.target] !== 'node'
          ? []
          : [
              "import { createRequire as __krmfnCreateRequire } from 'node:module'; const require = __krmfnCreateRequire(import.meta.url);",
            ]),
      ].join('\n'),
    },
  });
  const file = result.outputFiles[0];
  if (!file) throw new Error('esbuild produced no output');
  // Absolute source paths appear only in comments; strip the machine-specific root for reproducible output.
  const text = file.text
    .split(nodePath.dirname(req.entry) + nodePath.sep)
    .join('')
    .split(krmfnRoot() + nodePath.sep)
    .join('krmfn/');
  await fsp.mkdir(nodePath.dirname(req.out), { recursive: true });
  await fsp.writeFile(req.out, text, { mode: req.target === 'exec' ? 0o755 : 0o644 });
  if (req.target === 'exec') await fsp.chmod(req.out, 0o755);
  return Buffer.byteLength(text);
}
