// Builds the playground into web/dist/: main.js (page), worker.js (engine Worker), the WASM
// module worker, style, index.html and a service worker listing every asset for offline use.
// Sample packages come from examples/playground/<name>/ and are embedded in main.js.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';

const out = 'web/dist';
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

function readTree(dir) {
  const files = {};
  const walk = (d) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else {
        const rel = relative(dir, p).split('\\').join('/');
        files[rel] = /\.wasm$/.test(name) ? { base64: readFileSync(p).toString('base64') } : readFileSync(p, 'utf8');
      }
    }
  };
  walk(dir);
  return files;
}

const samplesDir = 'examples/playground';
const samples = {};
if (existsSync(samplesDir))
  for (const name of readdirSync(samplesDir).sort()) samples[name] = readTree(join(samplesDir, name));

const samplesPlugin = {
  name: 'samples',
  setup(b) {
    b.onResolve({ filter: /^krmfn-playground-samples$/ }, () => ({ path: 'samples', namespace: 'samples' }));
    b.onLoad({ filter: /.*/, namespace: 'samples' }, () => ({ contents: JSON.stringify(samples), loader: 'json' }));
  },
};

// The page imports krmfn by its public names; they resolve to the sources.
const PUBLIC = { krmfn: 'src/index.ts', 'krmfn/wasm': 'wasm/index.ts', 'krmfn/sdk': 'sdk/index.ts' };
const publicEntries = {
  name: 'public-entries',
  setup(b) {
    b.onResolve({ filter: /^krmfn(\/[a-z/]+)?$/ }, (args) => ({ path: join(process.cwd(), PUBLIC[args.path]) }));
  },
};

const entryPoints = { main: 'web/src/main.ts', worker: 'web/src/worker.ts' };
entryPoints['wasm-worker'] = 'wasm/worker/web-entry.ts';

const result = await build({
  entryPoints,
  outdir: out,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  splitting: true,
  minify: process.env.KRMFN_WEB_MINIFY !== '0',
  sourcemap: true,
  metafile: true,
  logLevel: 'warning',
  plugins: [samplesPlugin, publicEntries],
  define: { 'process.env.NODE_ENV': '"production"' },
});
writeFileSync(join(out, 'meta.json'), JSON.stringify(result.metafile));
copyFileSync('web/index.html', join(out, 'index.html'));
copyFileSync('web/style.css', join(out, 'style.css'));

const assets = [
  './',
  ...readdirSync(out)
    .filter((f) => !f.endsWith('.map') && f !== 'meta.json' && f !== 'sw.js')
    .map((f) => `./${f}`),
];
const version = createHash('sha256');
for (const a of assets.slice(1)) version.update(readFileSync(join(out, a)));
writeFileSync(
  join(out, 'sw.js'),
  readFileSync('web/sw.js', 'utf8')
    .replace('__ASSETS__', JSON.stringify(assets))
    .replace('__VERSION__', version.digest('hex').slice(0, 12)),
);
console.log(`web/dist: ${assets.length - 1} assets, samples: ${Object.keys(samples).join(', ') || '(none)'}`);
