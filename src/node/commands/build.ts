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
 * lazily (src/node/bundle-function.ts): only this command and `krmfn test` need it.
 */
import { existsSync, promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import { pathToFileURL } from 'node:url';
import { write, type CliIO } from '../io.ts';
import { parseFlags, str, bool } from '../cli-flags.ts';
import { buildSpec } from './specs/build.ts';
import { buildFunction, PLATFORM, type BuildTarget } from '../bundle-function.ts';

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
