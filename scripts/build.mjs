// Builds dist/: the library entries (ESM, code-split, dependencies external), the CLI as one
// self-contained CommonJS file with its hash (dependencies bundled but gRPC and kubernetes-models,
// so `krmfn` starts by loading a single script through its code cache) and the launcher.
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
  'serve-worker': 'src/node/serve/worker-entry.ts',
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
// re2js builds its Unicode tables when its module is evaluated (milliseconds at every start); in
// the CLI bundle it is evaluated when a regular expression is first compiled instead: importers get
// a CommonJS facade whose properties require the real module (esbuild then wraps re2js in a lazily
// initialised closure). The facade lists the module's export names, read here at build time.
const re2jsExports = Object.keys(await import('re2js'));
const lazyRe2js = {
  name: 'lazy-re2js',
  setup(b) {
    b.onResolve({ filter: /^re2js$/ }, (args) =>
      args.namespace === 'lazy-re2js' ? undefined : { path: 're2js', namespace: 'lazy-re2js' },
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-re2js' }, () => ({
      resolveDir: process.cwd(),
      loader: 'js',
      contents: [
        "Object.defineProperty(exports, '__esModule', { value: true });",
        'let real;',
        `for (const name of ${JSON.stringify(re2jsExports)}) {`,
        "  Object.defineProperty(exports, name, { enumerable: true, get: () => (real ??= require('re2js'))[name] });",
        '}',
      ].join('\n'),
    }));
  },
};
// The CLI: one self-contained CommonJS file (dist/cli.cjs) that src/node/launch.ts compiles through
// a V8 code cache, keyed by the sha256 written beside it (dist/cli.cjs.sha256). CommonJS because
// Node 20 offers a code cache only for scripts (vm.Script cachedData), not for ES modules. Modules
// reached only through a dynamic import() stay unevaluated until a command imports them.
await build({
  entryPoints: { cli: 'src/node/cli.ts' },
  outExtension: { '.js': '.cjs' },
  outdir: 'dist',
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  // Whitespace and comments out: every start reads, hashes and scans the whole file (1.8 MB -> about
  // 1.2 MB); names stay, so messages that print a function or class name are unchanged.
  minifyWhitespace: true,
  // The bundle's own file URL, for the sources that locate files beside it (import.meta.url).
  define: { 'import.meta.url': '__krmfnBundleUrl' },
  // Dynamic imports left in the bundle (externals, user files by URL) go through __krmfnImport: a
  // script compiled by vm.Script cannot import() by itself without an experimental Node option, so
  // src/node/launch.ts passes its own import() as __krmfnLauncherImport; loaded by Node's own
  // require (Node 22+, dist/cli.js), the bundle's native import is used. (`import (` with a space
  // is not rewritten below.)
  banner: {
    js: [
      // First, so that the bundle is strict code as its ES module sources were.
      "'use strict';",
      "const __krmfnBundleUrl = require('node:url').pathToFileURL(__filename).href;",
      "const __krmfnImport = typeof __krmfnLauncherImport === 'function' ? __krmfnLauncherImport : (specifier) => import (specifier);",
      'const __krmfnLazyBuiltin = (id) => { let m; const load = () => (m ??= require(id)); return new Proxy({}, { get: (_, k) => load()[k], has: (_, k) => k in load(), ownKeys: () => Reflect.ownKeys(load()), getOwnPropertyDescriptor: (_, k) => { const d = Object.getOwnPropertyDescriptor(load(), k); return d && { ...d, configurable: true }; } }); };',
    ].join(' '),
  },
  // kubeconform's 3 MB of per-kind validators load lazily from node_modules, not at CLI start; so do
  // gRPC and protobuf (0.8 MB, used only by `serve --grpc` and grpc:// functions).
  external: ['kubernetes-models', 'kubernetes-models/*', '@grpc/grpc-js', '@grpc/proto-loader'],
  plugins: [lazyRe2js],
});
const { createHash } = await import('node:crypto');
const { readFileSync, writeFileSync } = await import('node:fs');
// Every dynamic import( in the bundle's code (not a property or identifier ending in `import`).
const dynamicImport = /(?<![\w$.])import\(/g;
// Node built-ins that cost milliseconds to load and serve only some commands (workers: WASM and
// serve; http: serve; child processes: exec and containers; readline; crypto: hashes and temporary
// names, first needed after the functions ran; zlib: image layers) load at their first use, not
// at every start: esbuild reads them through the namespace object (`ns.Worker`), so a proxy that
// requires on first property access defers them, whether the binding is a top-level `var` or is
// assigned in a lazily initialised module (`import_node_x = require(...)` inside esbuild's __esm
// wrapper, which commands loaded on demand get). Default imports (`__toESM(require(...))`) stay.
const heavyBuiltin =
  /((?:\bvar )?\b[\w$]+ ?= ?)require\("(node:(?:worker_threads|http|readline|child_process|crypto|zlib))"\)/g;
// Non-ASCII characters esbuild leaves in regular expression literals (`µs`) become `\uXXXX`
// escapes, which mean the same character in a regular expression, string or template literal: a
// pure ASCII bundle is read by Node's ASCII fast path and held by V8 as a one-byte string.
const nonAscii = /[^\x00-\x7f]/g;
const escapeNonAscii = (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
writeFileSync(
  'dist/cli.cjs',
  readFileSync('dist/cli.cjs', 'utf8')
    .replace(dynamicImport, '__krmfnImport(')
    .replace(heavyBuiltin, '$1__krmfnLazyBuiltin("$2")')
    .replace(nonAscii, escapeNonAscii),
);
writeFileSync('dist/cli.cjs.sha256', `${createHash('sha256').update(readFileSync('dist/cli.cjs')).digest('hex')}\n`);
// dist/cli.js: the same CLI for ES module importers (tests, tools), a facade over the one bundle.
writeFileSync('dist/cli.js', "export { BROKEN_PIPE_STATUS, main, runAsProcess } from './cli.cjs';\n");
// The launcher the bin shims load: tiny, node built-ins only; dist/launch.js for bin/krmfn.mjs and
// dist/launch.cjs for bin/krmfn.cjs (the installed command: a CommonJS main never starts Node's ES
// module loader, milliseconds at every start).
for (const format of ['esm', 'cjs']) {
  await build({
    entryPoints: { launch: 'src/node/launch.ts' },
    outExtension: format === 'cjs' ? { '.js': '.cjs' } : {},
    outdir: 'dist',
    bundle: true,
    format,
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
}

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
