/**
 * The WASM host and the KRM runtime must bundle for browsers: no node: imports, no Node globals,
 * and the host imports nothing of krmfn but itself (it could ship as its own package).
 */
import { build } from 'esbuild';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) return e === 'testdata' ? [] : sources(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

describe('WASM code is browser-safe', () => {
  it.each(['wasm/index.ts', 'wasm/worker/web-entry.ts', 'src/runtimes/wasm.ts'])(
    '%s bundles for the browser without Node',
    async (entry) => {
      const result = await build({
        entryPoints: [join(root, entry)],
        bundle: true,
        platform: 'browser',
        format: 'esm',
        write: false,
        logLevel: 'silent',
        metafile: true,
      });
      const inputs = Object.keys(result.metafile.inputs);
      expect(inputs.filter((i) => i.startsWith('node:'))).toEqual([]);
      const code = result.outputFiles[0].text;
      expect(code).not.toMatch(/\bprocess\.(env|argv|exit|cwd)\b|\bBuffer\.from\b|\brequire\(/);
    },
  );

  it('wasm/ imports only itself and @bjorn3/browser_wasi_shim', () => {
    for (const file of sources(join(root, 'wasm'))) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/^(?:import|export)[^'"]*from '([^']+)'/gm)) {
        const spec = m[1];
        const ok =
          spec === '@bjorn3/browser_wasi_shim' ||
          (spec.startsWith('.') && !join(file, '..', spec).startsWith(join(root, 'src')));
        expect(ok, `${relative(root, file)} imports ${spec}`).toBe(true);
      }
    }
  });
});
