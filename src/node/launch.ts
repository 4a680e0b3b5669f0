/**
 * Start-up of the `krmfn` process (called by the bin shims: bin/krmfn.cjs, the installed command, and
 * bin/krmfn.mjs for ES module callers): loads the CLI bundle
 * (dist/cli.cjs, one CommonJS file written by scripts/build.mjs) through a V8 code cache so that a
 * start compiles nothing it compiled before, then runs it as the process (`runAsProcess`).
 *
 * Contract:
 * - Node with `module.enableCompileCache` (22.1+): Node's own compile cache, in the cache directory
 *   below, and a plain `require` of the bundle.
 * - Node 20: the bundle is compiled as a `vm.Script` with `cachedData` read from
 *   `<cache dir>/<bundle hash>-<command>-<node version>-<arch>.v8cache`. The bundle hash is the
 *   sha256 that scripts/build.mjs writes next to the bundle (dist/cli.cjs.sha256), so a rebuilt
 *   bundle never meets a stale cache; V8 itself rejects a cache made under other flags. When there
 *   was no usable cache, one is written at process exit, after the command ran, so it holds the
 *   functions the command compiled (one file per command: `render` and `--help` compile different
 *   code). A run that asked for help or exited non-zero compiled little of its command, so its
 *   cache is provisional (`….partial.v8cache`): used until the first run that completes the command
 *   (exit 0, no help) writes the final one in its place; a final cache is never rewritten (making
 *   one costs 10-50 ms). Writes are atomic (temporary file, then rename); caches of other bundles
 *   are removed.
 * - The cache directory is `$KRMFN_CACHE_DIR` if set, else the user's cache directory
 *   (`$XDG_CACHE_HOME` or `~/.cache` on Linux, `~/Library/Caches` on macOS, `%LOCALAPPDATA%` on
 *   Windows) + `/krmfn/code-cache`. `KRMFN_CACHE_DIR=off` disables the cache.
 * - The bundle's text is read as latin1 when its bytes are all ASCII (scripts/build.mjs writes it so):
 *   the same string as UTF-8 decoding gives, in about a third of the time; any other file is decoded
 *   as UTF-8.
 * - A cache that cannot be read or written is never an error: the bundle then compiles from source
 *   (what every start did before) and the command's output and status are unchanged.
 * - Every command but `serve` runs with V8's optimisation budget raised (`v8FlagsFor`), set before
 *   the bundle compiles, so a cache is made and used under the same flags.
 */
import { isAscii } from 'node:buffer';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import nodeModule, { createRequire } from 'node:module';
import { homedir } from 'node:os';
import nodePath from 'node:path';
import { setFlagsFromString } from 'node:v8';
import vm from 'node:vm';

/** What the CLI bundle exports (src/node/cli.ts). */
interface CliBundle {
  runAsProcess(): Promise<void>;
}

/** The directory code caches live in, or undefined when caching is off. */
export function codeCacheDir(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string | undefined {
  const explicit = env.KRMFN_CACHE_DIR;
  if (explicit === 'off') return undefined;
  if (explicit) return explicit;
  let base: string;
  if (platform === 'win32') base = env.LOCALAPPDATA ?? nodePath.join(homedir(), 'AppData', 'Local');
  else if (platform === 'darwin') base = nodePath.join(homedir(), 'Library', 'Caches');
  else base = env.XDG_CACHE_HOME || nodePath.join(homedir(), '.cache');
  return nodePath.join(base, 'krmfn', 'code-cache');
}

/** The command a cache file is for: the first argument after kpt's `fn` prefix, when it is a word. */
export function commandKey(argv: readonly string[]): string {
  const [first, second] = argv;
  const name = first === 'fn' ? second : first;
  return name !== undefined && /^[a-z][a-z-]{0,31}$/.test(name) ? name : 'default';
}

/**
 * V8's profiler budget for a one-shot command, in bytecode executed before a function is considered
 * for optimisation (V8 11.3's default is 67,584). A render of 1,000 resources spent 43% of its
 * CPU in TurboFan's background compiles (perf record), mostly of functions that stop running soon
 * after; at this budget fewer of them are compiled: 1,000 resources x 5 functions took 15% less CPU
 * and 5% less wall time, 20 and 10,000 resources were unchanged (bench/README.md). `serve` runs
 * long enough for V8's default to pay off.
 */
export const ONE_SHOT_INTERRUPT_BUDGET = 400_000;

/** The V8 flags a start with these arguments sets before loading the bundle ('' for none). */
export function v8FlagsFor(argv: readonly string[]): string {
  return commandKey(argv) === 'serve' ? '' : `--interrupt-budget=${ONE_SHOT_INTERRUPT_BUDGET}`;
}

/** Loads the bundle at `bundlePath` through the code cache and runs `krmfn` as this process. */
export async function launch(bundlePath: string): Promise<void> {
  // Before the bundle compiles: V8 reads the flag when it sets a function's budget.
  const flags = v8FlagsFor(process.argv.slice(2));
  if (flags !== '') setFlagsFromString(flags);
  const dir = codeCacheDir(process.env);
  const cli = dir === undefined ? plainRequire(bundlePath) : loadCached(bundlePath, dir);
  await cli.runAsProcess();
}

function plainRequire(bundlePath: string): CliBundle {
  return createRequire(bundlePath)(bundlePath) as CliBundle;
}

function loadCached(bundlePath: string, dir: string): CliBundle {
  const enableCompileCache = (nodeModule as { enableCompileCache?: (dir: string) => unknown }).enableCompileCache;
  if (enableCompileCache) {
    enableCompileCache(dir);
    return plainRequire(bundlePath);
  }
  let hash: string;
  try {
    hash = readFileSync(`${bundlePath}.sha256`, 'utf8').trim().slice(0, 16);
  } catch {
    return plainRequire(bundlePath);
  }
  if (!/^[0-9a-f]{16}$/.test(hash)) return plainRequire(bundlePath);
  const argv = process.argv.slice(2);
  const base = nodePath.join(dir, `${hash}-${commandKey(argv)}-${process.version}-${process.arch}`);
  const finalFile = `${base}.v8cache`;
  const partialFile = `${base}.partial.v8cache`;
  let loaded: 'final' | 'partial' | undefined;
  let cachedData: Buffer | undefined;
  for (const [kind, file] of [
    ['final', finalFile],
    ['partial', partialFile],
  ] as const) {
    try {
      cachedData = readFileSync(file);
      loaded = kind;
      break;
    } catch {
      // Not there: try the next, else compile from source and write one at exit.
    }
  }
  const source = readBundleSource(bundlePath);
  // Node's CommonJS wrapper plus the bundle's import() (see scripts/build.mjs, __krmfnImport).
  const wrapped = `(function (exports, require, module, __filename, __dirname, __krmfnLauncherImport) {${source}\n})`;
  const script = new vm.Script(wrapped, { filename: bundlePath, cachedData });
  // A rejected cache (corrupt, or made by another V8 or under other flags) is as good as none.
  const rejected = script.cachedDataRejected === true ? loaded : undefined;
  if (rejected !== undefined) loaded = undefined;
  if (loaded !== 'final') {
    process.once('exit', (code) => {
      if (completesCommand(argv, code)) writeCache(script, dir, finalFile, hash, partialFile);
      else if (loaded === undefined)
        writeCache(script, dir, partialFile, hash, rejected === 'final' ? finalFile : undefined);
    });
  }
  const wrapper = script.runInThisContext() as (
    exports: object,
    require: NodeJS.Require,
    module: { exports: object },
    filename: string,
    dirname: string,
    launcherImport: (specifier: string) => Promise<unknown>,
  ) => void;
  const mod = { exports: {} };
  const dynamicImport = (specifier: string): Promise<unknown> => import(specifier);
  wrapper.call(
    mod.exports,
    mod.exports,
    createRequire(bundlePath),
    mod,
    bundlePath,
    nodePath.dirname(bundlePath),
    dynamicImport,
  );
  return mod.exports as CliBundle;
}

/**
 * Whether a run with these arguments and exit status compiled its command's own code, so that its
 * code cache can be final: it exited 0 and asked for no help (`--help`/`-h` before any `--`, or
 * cobra's `help` command).
 */
export function completesCommand(argv: readonly string[], exitCode: number): boolean {
  if (exitCode !== 0) return false;
  const words = argv[0] === 'fn' ? argv.slice(1) : argv;
  if (words[0] === 'help') return false;
  const end = words.indexOf('--');
  return !(end < 0 ? words : words.slice(0, end)).some((a) => a === '--help' || a === '-h');
}

/**
 * The text of the bundle at `path`. Pure ASCII (what scripts/build.mjs writes) reads as latin1, one
 * byte a character with no decoding (1.4 MB: about 1.5 ms where UTF-8 decoding takes 4.5 ms at every
 * start); a file with other bytes is decoded as UTF-8, as `require` would.
 */
export function readBundleSource(path: string): string {
  const bytes = readFileSync(path);
  return bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
}

/** Writes the script's code cache to `cacheFile` (removing `replaces` and other bundles' caches). */
function writeCache(script: vm.Script, dir: string, cacheFile: string, hash: string, replaces?: string): void {
  try {
    mkdirSync(dir, { recursive: true });
    for (const name of readdirSync(dir)) {
      if (name.endsWith('.v8cache') && !name.startsWith(`${hash}-`)) rmSync(nodePath.join(dir, name), { force: true });
    }
    const temporary = `${cacheFile}.${process.pid}.tmp`;
    writeFileSync(temporary, script.createCachedData());
    renameSync(temporary, cacheFile);
    if (replaces !== undefined) rmSync(replaces, { force: true });
  } catch {
    // A read-only or full cache directory: the next start compiles from source again.
  }
}
