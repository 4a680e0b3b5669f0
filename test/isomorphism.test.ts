/**
 * The core must bundle for the browser: the public browser-safe entries are bundled with esbuild
 * for `platform: 'browser'`; any `node:*` (or bare Node builtin) import fails the bundle, and our
 * own code must not reference Node-only globals (`process`, `Buffer`, `require`, `__dirname`).
 */
import { describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import { builtinModules } from 'node:module';

const ENTRIES = [
  'src/index.ts',
  'sdk/index.ts',
  'sdk/testing.ts',
  'builtins/index.ts',
  'src/starlark/index.ts',
  'wasm/index.ts',
];
const NODE_GLOBALS =
  /\b(process\s*\.\s*(env|argv|exit|cwd|stdout|stderr|platform|versions?)|Buffer\s*\.|require\s*\(|__dirname|__filename)\b/;

describe('browser isomorphism of the core entries', () => {
  for (const entry of ENTRIES) {
    it(`${entry} bundles for the browser without Node built-ins`, async () => {
      const nodeImports: string[] = [];
      const result = await build({
        entryPoints: [entry],
        bundle: true,
        write: false,
        platform: 'browser',
        format: 'esm',
        metafile: true,
        logLevel: 'silent',
        plugins: [
          {
            name: 'forbid-node',
            setup(b) {
              b.onResolve({ filter: /.*/ }, (args) => {
                const bare = args.path.replace(/^node:/, '').split('/')[0];
                if (args.path.startsWith('node:') || builtinModules.includes(bare)) {
                  nodeImports.push(`${args.importer} -> ${args.path}`);
                  return { path: args.path, external: true };
                }
                // Third-party packages are checked by their own browser builds; ours are read below.
                if (!args.path.startsWith('.') && !args.path.startsWith('/'))
                  return { path: args.path, external: true };
                return undefined;
              });
            },
          },
        ],
      });
      expect(nodeImports).toEqual([]);
      const ownFiles = Object.keys(result.metafile.inputs).filter((f) => !f.includes('node_modules'));
      const { readFileSync } = await import('node:fs');
      const offenders = ownFiles.filter((f) =>
        NODE_GLOBALS.test(readFileSync(f, 'utf8').replace(/\/\/.*$|\/\*[\s\S]*?\*\//gm, '')),
      );
      expect(offenders).toEqual([]);
    });
  }
});
