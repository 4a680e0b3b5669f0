// Builds dist/: the library entries (ESM, code-split, dependencies external) and the CLI as one
// self-contained file (dependencies bundled, so `krmfn` starts by loading a single module).
import { build } from 'esbuild';

const libraryEntries = {
  index: 'src/index.ts',
  sdk: 'sdk/index.ts',
  'sdk-testing': 'sdk/testing.ts',
  'sdk-node': 'src/node/sdk.ts',
  builtins: 'builtins/index.ts',
  starlark: 'src/starlark/index.ts',
  wasm: 'wasm/index.ts',
  node: 'src/node/index.ts',
  'wasm-worker': 'src/node/wasm/worker-entry.ts',
};
const { existsSync } = await import('node:fs');
const present = Object.fromEntries(Object.entries(libraryEntries).filter(([, p]) => existsSync(p)));

await build({
  entryPoints: present,
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: true,
  logLevel: 'warning',
});
await build({
  entryPoints: { cli: 'src/node/cli.ts' },
  outdir: 'dist',
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  // Bundled CommonJS dependencies (ajv) may call require(); give the ESM bundle one.
  banner: {
    js: "import { createRequire as __krmfnCreateRequire } from 'node:module'; const require = __krmfnCreateRequire(import.meta.url);",
  },
  // kubeconform's 3 MB of per-kind validators load lazily from node_modules, not at CLI start.
  external: ['kubernetes-models', 'kubernetes-models/*'],
});

// Type declarations for every public entry (dist/types/**, named by the `types` conditions of the
// package's exports map): `npm run build` and `prepare` emit them; the test run's rebuild skips
// them (tsc takes tens of seconds).
if (process.argv.includes('--types')) {
  const { execFileSync } = await import('node:child_process');
  const { rmSync } = await import('node:fs');
  rmSync('dist/types', { recursive: true, force: true });
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.types.json'], {
    stdio: 'inherit',
  });
}
