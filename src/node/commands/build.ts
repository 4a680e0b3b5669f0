/**
 * `krmfn build [entry] [--target exec|module] [--out file]`: bundles an SDK function and the SDK
 * itself with esbuild into one ESM file that runs with plain `node`, no install:
 * - `exec` (default): `#!/usr/bin/env node`, calls `runCli` on the entry's default export, so the
 *   file works as kpt's `exec:` and as a container entrypoint; written executable (0755);
 * - `module`: default-exports the function descriptor (for the engine, Workers, tests);
 * - `browser`: `module` for browsers: no Node built-ins, no `require` shim; default-exports the
 *   descriptor for `createFunctionRuntime` of krmfn's browser entry (docs/sdk.md, "Previewing a
 *   function in the browser");
 * - `wasm-js`: a script installing the JS-global `processResourceList` ABI (`toWasmGlobal`), for
 *   JS engines embedded in WASM hosts; synchronous functions only;
 * - `container`: the `exec` file plus, beside it, a `Dockerfile` (distroless-style node base, runs
 *   as `nobody`, no network needed) and the catalog's `metadata.yaml`.
 * `krmfn/sdk`, `krmfn/sdk/node` and `krmfn/sdk/testing` are bound to this krmfn's own copy (its
 * sources when present, else its dist/), so the bundle never depends on what is installed where.
 * Output is reproducible (no timestamps, no absolute paths in the code). esbuild is loaded
 * lazily: only this command needs it.
 */
import { existsSync, promises as fsp } from 'node:fs';
import { createRequire } from 'node:module';
import * as nodePath from 'node:path';
import { pathToFileURL } from 'node:url';
import { write, type CliIO } from '../io.ts';
import { parseFlags, str, bool } from '../cli-flags.ts';
import { buildSpec } from './specs/build.ts';
import { krmfnRoot } from '../package-root.ts';

export type BuildTarget = 'exec' | 'module' | 'browser' | 'container' | 'wasm-js';

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

/** Dockerfile and catalog metadata.yaml for a container build of `fn` (bundle file name `file`). */
export function containerFiles(
  fn: { name: string; kind: string; usage?: string },
  file: string,
): Record<string, string> {
  return {
    Dockerfile: [
      '# Built by krmfn build --target container. The bundle needs nothing but node.',
      'FROM node:20-alpine',
      `COPY ${file} /usr/local/bin/krm-fn.mjs`,
      'USER nobody',
      'ENTRYPOINT ["node", "/usr/local/bin/krm-fn.mjs"]',
      '',
    ].join('\n'),
    'metadata.yaml': [
      `image: ${fn.name}`,
      `description: ${JSON.stringify(fn.usage ?? fn.name)}`,
      'tags:',
      `  - ${fn.kind}`,
      'license: Apache-2.0',
      '',
    ].join('\n'),
  };
}

/** Where each target's bundle runs: Node targets get Node built-ins and a `require` for CommonJS dependencies. */
const PLATFORM: Record<BuildTarget, 'node' | 'browser' | 'neutral'> = {
  exec: 'node',
  module: 'node',
  container: 'node',
  browser: 'browser',
  'wasm-js': 'neutral',
};

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

export async function runBuild(args: string[], io: CliIO): Promise<number> {
  const parsed = parseFlags(args, buildSpec.flags);
  const v = { target: str(parsed, 'target'), out: str(parsed, 'out'), minify: bool(parsed, 'minify') };
  const target = (v.target ?? 'exec') as BuildTarget;
  if (!Object.hasOwn(PLATFORM, target)) {
    await write(
      io.stderr,
      `error: unknown --target ${JSON.stringify(v.target)} (expected exec, module, browser, container or wasm-js)\n`,
    );
    return 1;
  }
  if (parsed.positional.length > 1) {
    await write(io.stderr, `error: expected at most one ENTRY, got ${parsed.positional.length}\n`);
    return 1;
  }
  const entry = nodePath.resolve(io.cwd, parsed.positional[0] ?? 'src/fn.ts');
  const defaultOut = {
    exec: 'dist/fn.mjs',
    module: 'dist/fn.module.mjs',
    browser: 'dist/fn.browser.mjs',
    container: 'dist/container/fn.mjs',
    'wasm-js': 'dist/fn.global.js',
  }[target];
  const out = nodePath.resolve(io.cwd, v.out ?? defaultOut);
  if (!existsSync(entry)) {
    await write(io.stderr, `error: entry ${entry} does not exist\n`);
    return 1;
  }
  try {
    const bytes = await buildFunction({
      entry,
      out,
      target: target === 'container' ? 'exec' : target,
      minify: v.minify ?? false,
    });
    if (target === 'container') {
      const probe = nodePath.join(nodePath.dirname(out), `.krmfn-probe-${process.pid}.mjs`);
      await buildFunction({ entry, out: probe, target: 'module' });
      try {
        const fn = (
          (await import(pathToFileURL(probe).href)) as { default: { name: string; kind: string; usage?: string } }
        ).default;
        for (const [name, text] of Object.entries(containerFiles(fn, nodePath.basename(out)))) {
          await fsp.writeFile(nodePath.join(nodePath.dirname(out), name), text);
        }
      } finally {
        await fsp.rm(probe, { force: true });
      }
    }
    await write(
      io.stderr,
      `built ${nodePath.relative(io.cwd, out) || out} (${target}, ${(bytes / 1024).toFixed(1)} KiB)\n`,
    );
    return 0;
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    const nodeOnly =
      target === 'browser' && /Could not resolve "node:/.test(msg)
        ? '\n(a function built for browsers cannot import Node built-ins: it gets its items, config and environment through ctx)'
        : '';
    await write(io.stderr, `error: ${msg}${nodeOnly}\n`);
    return 1;
  }
}
