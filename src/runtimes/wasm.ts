/**
 * The WASM KRM runtime: a `FunctionRuntime` whose runners move ResourceList bytes through a WASM
 * module (docs/architecture.md, "The seams"; docs/wasm.md; docs/kpt-semantics.md, "Runtimes").
 *
 * Which functions it takes (only with `--allow-alpha-wasm`, i.e. `ctx.allowWasm`):
 * - `exec: path/to/fn.wasm` (render needs `--allow-exec` too, as in kpt; eval does not), relative to
 *   the process working directory as kpt resolves exec paths; words after the path become argv;
 * - `exec:` naming an OCI image layout on disk: a directory holding `oci-layout`, or a `.tar` of one;
 * - `image: oci:PATH[:tag]`, the same layouts referenced as an image;
 * - with `images` (an OCI client), any other `image:` whose registry image is a WASM image in the
 *   format `kpt alpha wasm push` writes (src/core/oci/wasm-image.ts): an index entry for `js/wasm`,
 *   or a one-layer image whose config names no other platform; images without one (container
 *   images) throw `NotFoundError`, so the chain moves on. Pulls follow `images.policy`; modules
 *   are compiled once per digest; `images.onImage` hears which image ran, pulled or cached, digest.
 * - any of these pinned with `@sha256:<hex>`: the digest of the `.wasm` bytes or, for a layout,
 *   of the image manifest. A mismatch fails with code `wasm-digest`.
 * Everything else throws `NotFoundError`, so the chain moves on (an `exec:` not ending in `.wasm`
 * goes to the exec runtime unless `claimAllExec` reproduces kpt render's "every exec is WASM").
 *
 * Two module ABIs (detected from the module): WASI preview1 commands (ResourceList on stdin, on
 * stdout, stderr kept, exit code = status) and kpt's alpha Go `js/wasm` modules
 * (`processResourceList`, one warm program per module and worker). Modules are memory-capped
 * (default 512 MiB) and compiled once per digest. Module bytes come from the injected loader; the
 * core never touches a filesystem. Runs happen in the injected executor: a worker pool with hard
 * deadlines at the Node edge (createNodeWasmRuntime) and in browsers (createWebWorkerPool), whose
 * workers are hardened so Go js programs cannot climb to the real global object. The default
 * in-thread executor is for trusted modules only: it cannot interrupt a module that never
 * returns, and it does not harden the caller's realm.
 */
import { parse as parseYaml } from 'yaml';
import { KrmfnError, LimitExceededError, NotFoundError } from '../core/errors.ts';
import type {
  BytesOutcome,
  BytesRunner,
  FunctionRuntime,
  PipelineFunction,
  ResolveContext,
  RunContext,
} from '../core/function.ts';
import type { WasmFailure } from '../../wasm/errors.ts';
import { isWasmHostError } from '../../wasm/errors.ts';
import { ModuleCache, sha256Hex, type PreparedModule } from '../../wasm/module-cache.ts';
import {
  loadOciModule,
  tarLayoutReader,
  wasmFromLayer,
  type LayerReaders,
  type LayoutReader,
} from '../../wasm/oci/layout.ts';
import { readStreamCapped } from '../core/capped-read.ts';
import type { OciClient, PullPolicy } from '../core/oci/client.ts';
import { isOciError } from '../core/oci/errors.ts';
import { WASM_PLATFORM } from '../core/oci/manifest.ts';
import { parseReference } from '../core/oci/reference.ts';
import { resolveImageName } from '../core/image.ts';
import { readTar } from '../core/tar.ts';
import { createInThreadExecutor } from '../../wasm/worker/in-thread.ts';
import type { WasmExecutor } from '../../wasm/worker/protocol.ts';

/** Reads module files. Paths are absolute slash paths. */
export interface WasmLoader {
  readFile(path: string): Promise<Uint8Array>;
  stat(path: string): Promise<'file' | 'dir' | 'missing'>;
}

/** Which registry image a WASM function ran from (for --json and verbose reports). */
export interface WasmImageReport {
  /** The image as the function names it. */
  image: string;
  /** The normalised reference pulled. */
  reference: string;
  /** Digest of the image manifest that held the module. */
  digest: string;
  /** Digest of the index the reference named, when it named one. */
  indexDigest?: string;
  /** 'cached' when the registry was not asked. */
  source: 'pulled' | 'cached';
}

/** Registry images for the WASM runtime. */
export interface WasmImageOptions {
  client: OciClient;
  /** kpt's `--image-pull-policy` (default IfNotPresent). */
  policy?: PullPolicy;
  onImage?: (report: WasmImageReport) => void;
  /**
   * A runtime later in the chain runs images too (containers): registry failures (unreachable, not
   * found, unauthorized) then pass the image on (`NotFoundError`, the OCI message as its hint)
   * rather than failing it. Digest mismatches always fail.
   */
  passOnRegistryErrors?: boolean;
}

export interface WasmRuntimeOptions {
  loader: WasmLoader;
  /** Pull `image:` functions that are WASM images from registries (see the file comment). */
  images?: WasmImageOptions;
  /** Where modules run (default: in-thread, without hard deadlines). */
  executor?: WasmExecutor;
  /** Linear-memory cap per module, in bytes (default 512 MiB). */
  maxMemoryBytes?: number;
  /**
   * Bytes a module may write to stdout and stderr together (default 64 MiB, and never more than
   * the engine's `limits.maxOutputBytes`): a module flooding its output is stopped there.
   */
  maxOutputBytes?: number;
  /** What modules read on stdin: kpt's YAML (default) or the same list as JSON. */
  stdinFormat?: 'yaml' | 'json';
  /** Compiled modules, shareable between runtimes (default: one cache per runtime). */
  cache?: ModuleCache;
  /** Treat every `exec:` as a WASM module when WASM is allowed (kpt render), not only `*.wasm`. */
  claimAllExec?: boolean;
  /**
   * Names of environment variables (from the call's `RunContext.env`) a WASI module may see.
   * Default none: a module's environ is empty (docs/wasm.md, "WASI command (the primary ABI)"), whatever the host passes to exec
   * functions. Go js/wasm programs never get an environment (kpt's protocol).
   */
  passEnv?: readonly string[];
  /** Debugging: receives an strace-style line per WASI call of every WASI function run. */
  trace?: (line: string) => void;
  /**
   * Start a worker now rather than at the first resolve, so its start-up (tens of ms) overlaps
   * with reading the package. For hosts that know WASM functions will run (the CLI with
   * --allow-alpha-wasm). Default false: constructing the runtime has no side effects.
   */
  prewarm?: boolean;
}

export interface WasmRuntime extends FunctionRuntime {
  /** Terminates the executor's workers. */
  close(): Promise<void>;
}

export const DEFAULT_WASM_MEMORY_BYTES = 512 * 1024 * 1024;
export const DEFAULT_WASM_OUTPUT_BYTES = 64 * 1024 * 1024;

interface WasmRef {
  /** Absolute path of the .wasm file or the layout. */
  path: string;
  layout: 'none' | 'dir' | 'tar';
  tag?: string;
  pin?: string;
  args: string[];
}

/**
 * Image layouts and layers: links inside are skipped, not refused (only the .wasm matters), and the
 * end-of-archive marker is optional, as kpt writes its layers without one (src/core/tar.ts).
 */
export const readImageTar = (archive: Uint8Array) => readTar(archive, { nonRegular: 'skip', endMarker: 'optional' });

/** The host's readers handed to wasm/oci/layout.ts: the image tar reader and the one capped reader. */
export const imageLayerReaders: LayerReaders = { readTar: readImageTar, readCapped: readStreamCapped };

const PIN = /@(sha256:[0-9a-f]{64})$/;

export function createWasmRuntime(opts: WasmRuntimeOptions): WasmRuntime {
  const executor = opts.executor ?? createInThreadExecutor();
  const cache = opts.cache ?? new ModuleCache();
  const maxMemoryBytes = opts.maxMemoryBytes ?? DEFAULT_WASM_MEMORY_BYTES;
  const format = opts.stdinFormat ?? 'yaml';
  if (opts.prewarm) executor.prewarm?.();

  async function parseRef(spec: PipelineFunction, ctx: ResolveContext): Promise<WasmRef | undefined> {
    if (spec.image?.startsWith('oci:')) {
      let rest = spec.image.slice(4);
      const pin = PIN.exec(rest)?.[1];
      if (pin) rest = rest.slice(0, -pin.length - 1);
      const m = /^(.*?)(?::([\w][\w.-]{0,127}))?$/.exec(rest)!;
      const path = absolute(m[1], ctx.cwd);
      const kind = await opts.loader.stat(path);
      const ref: WasmRef = { path, layout: kind === 'dir' ? 'dir' : 'tar', args: [] };
      if (m[2]) ref.tag = m[2];
      if (pin) ref.pin = pin;
      return ref;
    }
    if (!spec.exec || spec.image) return undefined;
    const words = spec.exec.trim().split(/\s+/);
    let first = words[0] ?? '';
    const pin = PIN.exec(first)?.[1];
    if (pin) first = first.slice(0, -pin.length - 1);
    const path = absolute(first, ctx.cwd);
    let layout: WasmRef['layout'] = 'none';
    if (!first.endsWith('.wasm')) {
      if (first.endsWith('.tar') && (await opts.loader.stat(path)) === 'file') layout = 'tar';
      else if ((await opts.loader.stat(path)) === 'dir' && (await opts.loader.stat(`${path}/oci-layout`)) === 'file')
        layout = 'dir';
      else if (!opts.claimAllExec) return undefined;
    }
    const ref: WasmRef = { path, layout, args: words.slice(1) };
    if (pin) ref.pin = pin;
    return ref;
  }

  /** Compiles (or takes from the cache) a module's bytes; host errors become krmfn errors naming the function. */
  async function compile(bytes: Uint8Array, name: string): Promise<PreparedModule> {
    try {
      return await cache.get(bytes, { maxMemoryBytes });
    } catch (e) {
      if (!isWasmHostError(e)) throw e;
      if (e.kind === 'memory') throw new LimitExceededError('memory', e.message, name);
      throw new KrmfnError({ code: 'wasm-compile', message: e.message, function: name });
    }
  }

  async function load(ref: WasmRef, name: string): Promise<PreparedModule> {
    let bytes: Uint8Array;
    const digests: string[] = [];
    try {
      if (ref.layout === 'none') bytes = await opts.loader.readFile(ref.path);
      else {
        const read: LayoutReader =
          ref.layout === 'dir'
            ? (p) => opts.loader.readFile(`${ref.path}/${p}`)
            : tarLayoutReader(await opts.loader.readFile(ref.path), readImageTar);
        const oci = await loadOciModule(read, imageLayerReaders, ref.tag);
        bytes = oci.bytes;
        digests.push(oci.manifestDigest);
      }
    } catch (e) {
      if (isWasmHostError(e))
        throw new KrmfnError({ code: 'wasm-compile', message: `${e.message} (${ref.path})`, function: name });
      throw new KrmfnError({
        code: 'wasm-compile',
        message: `cannot read WASM module ${ref.path}: ${e instanceof Error ? e.message : String(e)}`,
        function: name,
        cause: e,
      });
    }
    if (ref.pin) {
      const actual = `sha256:${await sha256Hex(bytes)}`;
      digests.push(actual);
      if (!digests.includes(ref.pin)) {
        throw new KrmfnError({
          code: 'wasm-digest',
          message: `WASM module ${ref.path} has digest ${actual}, but ${ref.pin} was pinned`,
          function: name,
        });
      }
    }
    return compile(bytes, name);
  }

  return {
    name: 'wasm',
    async resolve(spec: PipelineFunction, ctx: ResolveContext): Promise<BytesRunner> {
      const name = ctx.displayName || spec.exec || spec.image || '';
      if (!ctx.allowWasm) throw new NotFoundError(name);
      if (spec.exec && !spec.image && !ctx.allowExec) throw new NotFoundError(name);
      if (spec.image && !spec.image.startsWith('oci:') && opts.images) {
        const prepared = await loadImage(opts.images, spec.image, name);
        if (!prepared) throw new NotFoundError(name);
        return { kind: 'bytes', run: (stdin, rctx) => runModule(prepared, [], stdin, rctx, name) };
      }
      const ref = await parseRef(spec, ctx);
      if (!ref) throw new NotFoundError(name);
      executor.prewarm?.();
      const prepared = await load(ref, name);
      return {
        kind: 'bytes',
        run: (stdin, rctx) => runModule(prepared, ref.args, stdin, rctx, name),
      };
    },
    close: () => executor.close(),
  };

  /** The module of a registry WASM image, or undefined when the image is not one. */
  async function loadImage(images: WasmImageOptions, image: string, name: string): Promise<PreparedModule | undefined> {
    const ref = parseReference(resolveImageName(image));
    const policy = images.policy ?? 'IfNotPresent';
    let pulled;
    try {
      pulled = await images.client.pull(ref, { platform: WASM_PLATFORM, policy, layers: false });
    } catch (e) {
      if (isOciError(e) && e.code === 'oci-platform') return undefined;
      if (isOciError(e) && images.passOnRegistryErrors && e.code !== 'oci-digest') {
        throw new NotFoundError(name, `function ${JSON.stringify(name)} not found`, e.message);
      }
      throw e;
    }
    const layers = pulled.manifest.layers;
    if (!pulled.indexDigest) {
      // A plain image manifest: a WASM image only if its config names no other platform.
      let config: { os?: unknown; architecture?: unknown } = {};
      try {
        config = JSON.parse(dec.decode(pulled.config)) as typeof config;
      } catch {
        // not JSON: judged by its layers alone
      }
      if ((config.os && config.os !== 'js') || (config.architecture && config.architecture !== 'wasm'))
        return undefined;
    }
    if (layers.length !== 1) {
      if (!pulled.indexDigest) return undefined;
      throw new KrmfnError({
        code: 'wasm-compile',
        message: `WASM image ${pulled.reference}: expected one layer holding the .wasm, found ${layers.length}`,
        function: name,
      });
    }
    executor.prewarm?.();
    const layer = await images.client.blob(ref, layers[0], policy);
    let bytes: Uint8Array;
    try {
      bytes = await wasmFromLayer(layer.bytes, imageLayerReaders);
    } catch (e) {
      throw new KrmfnError({
        code: 'wasm-compile',
        message: `WASM image ${pulled.reference}: ${e instanceof Error ? e.message : String(e)}`,
        function: name,
      });
    }
    images.onImage?.({
      image,
      reference: pulled.reference,
      digest: pulled.manifestDigest,
      ...(pulled.indexDigest ? { indexDigest: pulled.indexDigest } : {}),
      source: pulled.source === 'cached' && layer.fromStore ? 'cached' : 'pulled',
    });
    return compile(bytes, name);
  }

  async function runModule(
    prepared: PreparedModule,
    args: string[],
    stdin: Uint8Array,
    ctx: RunContext,
    name: string,
  ): Promise<BytesOutcome> {
    const call = { timeoutMs: Math.max(0, ctx.deadline - ctx.now()), signal: ctx.signal };
    const input = format === 'json' ? toJson(stdin, ctx, name) : stdin;
    const maxOutputBytes = Math.min(ctx.limits.maxOutputBytes, opts.maxOutputBytes ?? DEFAULT_WASM_OUTPUT_BYTES);
    const env: Record<string, string> = {};
    for (const k of opts.passEnv ?? []) if (ctx.env[k] !== undefined) env[k] = ctx.env[k];
    if (prepared.abi.abi === 'wasi') {
      const out = await executor.runWasi(
        {
          module: prepared,
          stdin: input,
          args: ['fn', ...args],
          env,
          maxOutputBytes,
          ...(opts.trace ? { trace: true } : {}),
        },
        call,
      );
      if (opts.trace) for (const line of out.trace ?? []) opts.trace(`${name}: ${line}`);
      const stderr = dec.decode(out.stderr);
      if (out.failure) throw failureError(out.failure, name, stderr, out.exitCode);
      return { stdout: out.stdout, stderr, exitCode: out.exitCode };
    }
    const out = await executor.callGoJs({ module: prepared, input: dec.decode(input), maxOutputBytes }, call);
    if (out.failure) throw failureError(out.failure, name, out.stderr, 1);
    if (!out.ok) {
      throw Object.assign(
        new KrmfnError({
          code: 'function-failed',
          message: out.errors || out.output || 'WASM function returned no ResourceList',
          function: name,
        }),
        { stderr: out.stderr, exitCode: 1 },
      );
    }
    const stdout = enc.encode(out.output);
    if (stdout.byteLength > maxOutputBytes) {
      throw Object.assign(
        new LimitExceededError('output', `function output exceeded the limit of ${maxOutputBytes} bytes`, name),
        { stderr: out.stderr, exitCode: 1 },
      );
    }
    return { stdout, stderr: out.stderr, exitCode: 0 };
  }
}

const enc = new TextEncoder();
const dec = new TextDecoder();

function absolute(p: string, cwd: string): string {
  if (p.startsWith('/')) return normalize(p);
  return normalize(`${cwd.replace(/\/+$/, '')}/${p}`);
}

function normalize(p: string): string {
  const out: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') out.pop();
    else out.push(seg);
  }
  return `/${out.join('/')}`;
}

function toJson(stdin: Uint8Array, ctx: RunContext, name: string): Uint8Array {
  try {
    return enc.encode(JSON.stringify(parseYaml(dec.decode(stdin), { maxAliasCount: ctx.limits.maxAliases })));
  } catch (e) {
    throw new KrmfnError({
      code: 'invalid-resource-list',
      message: `cannot convert the ResourceList to JSON: ${e instanceof Error ? e.message : String(e)}`,
      function: name,
    });
  }
}

/** A host-side failure as the engine's error, carrying the stderr collected so far. */
function failureError(f: WasmFailure, name: string, stderr: string, exitCode: number): KrmfnError {
  let err: KrmfnError;
  switch (f.kind) {
    case 'timeout':
      err = new LimitExceededError('deadline', f.message, name);
      break;
    case 'memory':
      err = new LimitExceededError('memory', f.message, name);
      break;
    case 'output':
      err = new LimitExceededError('output', f.message, name);
      break;
    case 'cancelled':
      err = new KrmfnError({ code: 'cancelled', message: f.message, function: name });
      break;
    case 'trap':
      err = new KrmfnError({ code: 'wasm-trap', message: f.message, function: name });
      break;
    case 'compile':
    case 'abi':
      err = new KrmfnError({ code: 'wasm-compile', message: f.message, function: name });
      break;
    default:
      err = new KrmfnError({ code: 'function-failed', message: f.message, function: name });
  }
  return Object.assign(err, { stderr, exitCode });
}
