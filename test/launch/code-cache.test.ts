// The start-up code cache of the installed command (src/node/launch.ts, bin/krmfn.mjs over dist/,
// built here first when missing), as real processes: a first start writes one cache per bundle hash
// and command (provisional after a help or failed run, final after the first run that completes the
// command), later starts read it and print exactly what an uncached start prints, and a cache that
// is corrupt, unwritable or switched off never changes output or status.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, promises as fsp, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeAll, beforeEach, expect, test } from 'vitest';
import {
  codeCacheDir,
  commandKey,
  completesCommand,
  ONE_SHOT_INTERRUPT_BUDGET,
  readBundleSource,
  v8FlagsFor,
} from '../../src/node/launch.ts';

const repo = path.resolve(import.meta.dirname, '../..');
const bin = path.join(repo, 'bin/krmfn.mjs');
let tmp: string;

beforeAll(() => {
  if (!existsSync(path.join(repo, 'dist/cli.cjs')) || !existsSync(path.join(repo, 'dist/launch.js'))) {
    const b = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: repo, encoding: 'utf8' });
    if (b.status !== 0) throw new Error(`build failed: ${b.stderr}`);
  }
});
beforeEach(async () => {
  tmp = await fsp.mkdtemp(path.join(os.tmpdir(), 'krmfn-launch-'));
});
afterEach(async () => {
  await fsp.rm(tmp, { recursive: true, force: true });
});

function krmfn(cacheDir: string, ...args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [bin, ...args], {
    cwd: repo,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, KRMFN_CACHE_DIR: cacheDir },
  });
}

const render = ['render', 'examples/hello', '--output', 'stdout'];
const bundleHash = (): string => readFileSync(path.join(repo, 'dist/cli.cjs.sha256'), 'utf8').trim().slice(0, 16);

test('a first start writes a cache named by bundle hash and command; later starts use it and print the same', () => {
  const cache = path.join(tmp, 'cache');
  const uncached = krmfn('off', ...render);
  expect(uncached.status).toBe(0);
  expect(existsSync(cache)).toBe(false);

  const first = krmfn(cache, ...render);
  expect(first).toMatchObject({ status: 0, stdout: uncached.stdout, stderr: uncached.stderr });
  const files = readdirSync(cache);
  expect(files).toEqual([`${bundleHash()}-render-${process.version}-${process.arch}.v8cache`]);
  const written = readFileSync(path.join(cache, files[0]));
  expect(written.length).toBeGreaterThan(0);

  const second = krmfn(cache, ...render);
  expect(second).toMatchObject({ status: 0, stdout: uncached.stdout, stderr: uncached.stderr });
  // Accepted, so not rewritten.
  expect(readFileSync(path.join(cache, files[0])).equals(written)).toBe(true);

  const help = krmfn(cache, '--help');
  expect(help.status).toBe(0);
  expect(readdirSync(cache).sort()).toEqual(
    [files[0], `${bundleHash()}-default-${process.version}-${process.arch}.partial.v8cache`].sort(),
  );
});

test('a cache made by a help or failed run is provisional: the first run that completes the command replaces it', () => {
  const cache = path.join(tmp, 'cache');
  const final = `${bundleHash()}-render-${process.version}-${process.arch}.v8cache`;
  const partial = `${bundleHash()}-render-${process.version}-${process.arch}.partial.v8cache`;
  const expected = krmfn('off', ...render);

  expect(krmfn(cache, 'render', '--help').status).toBe(0);
  expect(readdirSync(cache)).toEqual([partial]);
  const missing = krmfn(cache, 'render', path.join(tmp, 'missing'));
  expect(missing.status).not.toBe(0);
  // The failed run used the provisional cache and left it as it was.
  expect(readdirSync(cache)).toEqual([partial]);

  // Same output through the provisional cache; then the final cache holds the render's own code.
  const first = krmfn(cache, ...render);
  expect(first).toMatchObject({ status: 0, stdout: expected.stdout, stderr: expected.stderr });
  expect(readdirSync(cache)).toEqual([final]);
  const written = readFileSync(path.join(cache, final));

  // A final cache is kept by help and failed runs, and used.
  expect(krmfn(cache, 'render', '--help').status).toBe(0);
  expect(krmfn(cache, 'render', path.join(tmp, 'missing')).status).not.toBe(0);
  expect(readdirSync(cache)).toEqual([final]);
  expect(readFileSync(path.join(cache, final)).equals(written)).toBe(true);
  expect(krmfn(cache, ...render)).toMatchObject({ status: 0, stdout: expected.stdout, stderr: expected.stderr });
});

test('a help request or a non-zero status makes a run provisional for the cache', () => {
  expect(completesCommand(['render', '.'], 0)).toBe(true);
  expect(completesCommand(['render', '.'], 1)).toBe(false);
  expect(completesCommand(['render', '--help'], 0)).toBe(false);
  expect(completesCommand(['fn', 'render', '-h'], 0)).toBe(false);
  expect(completesCommand(['help', 'render'], 0)).toBe(false);
  expect(completesCommand(['fn', 'help'], 0)).toBe(false);
  expect(completesCommand(['eval', '.', '--exec', 'x', '--', '--help'], 0)).toBe(true);
});

test('dynamic imports from the bundle work from a cached start (kubeconform loads its schemas so)', async () => {
  const cache = path.join(tmp, 'cache');
  const pkg = path.join(tmp, 'kc');
  await fsp.mkdir(pkg);
  await fsp.writeFile(
    path.join(pkg, 'Kptfile'),
    'apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: kc\npipeline:\n  validators:\n  - image: ghcr.io/kptdev/krm-functions-catalog/kubeconform:v0.1\n',
  );
  await fsp.writeFile(
    path.join(pkg, 'deploy.yaml'),
    'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n      containers:\n      - name: web\n        image: nginx\n',
  );
  const args = ['render', pkg, '--output', 'stdout'];
  const uncached = krmfn('off', ...args);
  expect(uncached.stderr).toContain("missing properties: 'selector'");
  const scrub = (s: string): string => s.replace(/ in \d+(\.\d+)?m?s/g, ' in T');
  for (let run = 0; run < 2; run++) {
    const r = krmfn(cache, ...args);
    expect(r.status).toBe(uncached.status);
    expect(scrub(r.stderr)).toBe(scrub(uncached.stderr));
    expect(r.stdout).toBe(uncached.stdout);
  }
});

test.each(['bin/krmfn.mjs', 'bin/krmfn.cjs'])(
  'render through %s loads no worker, HTTP, child-process, crypto or zlib module of Node (they serve other commands)',
  async (shim) => {
    const probe = path.join(tmp, 'probe.cjs');
    await fsp.writeFile(
      probe,
      "process.on('exit', () => process.stderr.write('\\nLOADED ' + process.moduleLoadList.join(',') + '\\n'));\n",
    );
    const r = spawnSync(process.execPath, ['-r', probe, path.join(repo, shim), ...render], {
      cwd: repo,
      encoding: 'utf8',
      env: { PATH: process.env.PATH, KRMFN_CACHE_DIR: path.join(tmp, 'cache') },
    });
    expect(r.status).toBe(0);
    const loaded = (/^LOADED (.*)$/m.exec(r.stderr)?.[1] ?? '').split(',');
    expect(loaded).toContain('NativeModule fs');
    for (const heavy of ['worker_threads', 'http', 'child_process', 'crypto', 'zlib']) {
      expect(loaded).not.toContain(`NativeModule ${heavy}`);
    }
  },
);

test("the installed command (package.json's bin, CommonJS) prints what the ES module shim prints", () => {
  const pkg = JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8')) as { bin: { krmfn: string } };
  expect(pkg.bin.krmfn).toBe('bin/krmfn.cjs');
  const viaModule = krmfn(path.join(tmp, 'cache'), ...render);
  const installed = spawnSync(process.execPath, [path.join(repo, pkg.bin.krmfn), ...render], {
    cwd: repo,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, KRMFN_CACHE_DIR: path.join(tmp, 'cache') },
  });
  expect(viaModule.status).toBe(0);
  expect(installed).toMatchObject({ status: 0, stdout: viaModule.stdout, stderr: viaModule.stderr });
});

test('the bundle is pure ASCII (read by the ASCII fast path of Node, held by V8 as a one-byte string)', () => {
  expect(/[^\x00-\x7f]/.test(readFileSync(path.join(repo, 'dist/cli.cjs'), 'latin1'))).toBe(false);
});

test('the launcher reads an ASCII bundle as it is and decodes any other file as UTF-8', () => {
  const ascii = path.join(tmp, 'ascii.cjs');
  const utf8 = path.join(tmp, 'utf8.cjs');
  writeFileSync(ascii, "module.exports = '\\u00b5s';\n");
  writeFileSync(utf8, "module.exports = 'µs é 😀';\n");
  expect(readBundleSource(ascii)).toBe("module.exports = '\\u00b5s';\n");
  expect(readBundleSource(utf8)).toBe("module.exports = 'µs é 😀';\n");
  expect(readBundleSource(path.join(repo, 'dist/cli.cjs'))).toBe(readFileSync(path.join(repo, 'dist/cli.cjs'), 'utf8'));
});

test('the bundle is strict code, as its ES module sources are', () => {
  expect(readFileSync(path.join(repo, 'dist/cli.cjs'), 'utf8').startsWith("'use strict';")).toBe(true);
});

test('a corrupt cache is replaced and changes nothing the user sees; caches of other bundles are removed', () => {
  const cache = path.join(tmp, 'cache');
  const expected = krmfn('off', ...render);
  const own = path.join(cache, `${bundleHash()}-render-${process.version}-${process.arch}.v8cache`);
  const stale = path.join(cache, `0000000000000000-render-${process.version}-${process.arch}.v8cache`);
  expect(krmfn(cache, ...render).status).toBe(0);
  writeFileSync(own, 'not a V8 code cache');
  writeFileSync(stale, 'from an older build');
  const r = krmfn(cache, ...render);
  expect(r).toMatchObject({ status: 0, stdout: expected.stdout, stderr: expected.stderr });
  expect(readFileSync(own).toString()).not.toBe('not a V8 code cache');
  expect(existsSync(stale)).toBe(false);
});

test('a corrupt final cache met by a help run gives way to a provisional one', () => {
  const cache = path.join(tmp, 'cache');
  const base = `${bundleHash()}-render-${process.version}-${process.arch}`;
  expect(krmfn(cache, ...render).status).toBe(0);
  writeFileSync(path.join(cache, `${base}.v8cache`), 'not a V8 code cache');
  const help = krmfn(cache, 'render', '--help');
  expect(help).toMatchObject({ status: 0, stdout: krmfn('off', 'render', '--help').stdout });
  expect(readdirSync(cache)).toEqual([`${base}.partial.v8cache`]);
});

test.skipIf(process.getuid?.() === 0)('an unwritable cache directory changes nothing the user sees', async () => {
  const cache = path.join(tmp, 'ro');
  await fsp.mkdir(cache);
  chmodSync(cache, 0o500);
  const r = krmfn(cache, ...render);
  expect(r.status).toBe(0);
  expect(r.stderr).not.toMatch(/EACCES|at .*\.cjs:/);
  expect(readdirSync(cache)).toEqual([]);
});

test('a cache path that is a file, not a directory, changes nothing the user sees', async () => {
  const cache = path.join(tmp, 'file');
  writeFileSync(cache, '');
  const expected = krmfn('off', ...render);
  const r = krmfn(cache, ...render);
  expect(r).toMatchObject({ status: 0, stdout: expected.stdout, stderr: expected.stderr });
});

test('the cache directory follows the platform convention unless KRMFN_CACHE_DIR says otherwise', () => {
  const home = os.homedir();
  expect(codeCacheDir({}, 'linux')).toBe(path.join(home, '.cache', 'krmfn', 'code-cache'));
  expect(codeCacheDir({ XDG_CACHE_HOME: '/x' }, 'linux')).toBe(path.join('/x', 'krmfn', 'code-cache'));
  expect(codeCacheDir({}, 'darwin')).toBe(path.join(home, 'Library', 'Caches', 'krmfn', 'code-cache'));
  expect(codeCacheDir({ LOCALAPPDATA: 'C:\\L' }, 'win32')).toBe(path.join('C:\\L', 'krmfn', 'code-cache'));
  expect(codeCacheDir({ KRMFN_CACHE_DIR: '/c', XDG_CACHE_HOME: '/x' }, 'linux')).toBe('/c');
  expect(codeCacheDir({ KRMFN_CACHE_DIR: 'off' }, 'linux')).toBeUndefined();
});

test('one cache per command, with kpt`s fn prefix ignored and anything else shared', () => {
  expect(commandKey(['fn', 'render', '.'])).toBe('render');
  expect(commandKey(['render'])).toBe('render');
  expect(commandKey(['--help'])).toBe('default');
  expect(commandKey([])).toBe('default');
  expect(commandKey(['../../etc'])).toBe('default');
});

test('one-shot commands raise V8`s optimisation budget; serve keeps the default', () => {
  for (const argv of [['render', '.'], ['fn', 'eval', '.'], ['--help'], []]) {
    expect(v8FlagsFor(argv)).toBe(`--interrupt-budget=${ONE_SHOT_INTERRUPT_BUDGET}`);
  }
  expect(v8FlagsFor(['serve', '--port', '0'])).toBe('');
});
