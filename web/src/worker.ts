/**
 * The playground's engine Worker: renders the package held in memory with the full default
 * runtime chain (built-ins, Starlark, WASM), WASM modules in nested Web Workers with hard
 * deadlines. It answers every job with the rendered files, results and kpt's log text.
 *
 * WASM runs as `kpt fn render --allow-alpha-wasm` would run it, and only when the package needs it
 * (kpt then labels every function WASM): when it carries `.wasm` modules, or when a function is
 * one the other runtimes do not take. Such an `image:` is pulled with `fetch` from its registry
 * (kpt's WASM image format, docs/oci.md), which must allow this page's origin (CORS); pulled
 * blobs are kept by digest in IndexedDB (web/src/idb-blob-store.ts), so an image pulled once runs
 * again after a reload and offline (pull policy IfNotPresent, as kpt's default).
 */
import {
  createEngine,
  createWasmRuntime,
  defaultRuntimes,
  formatEvent,
  formatFailure,
  MemoryFs,
  OciClient,
  type EngineEvent,
  type RunOutcome,
} from 'krmfn';
import { createWebWorkerPool, ModuleCache } from 'krmfn/wasm';
import { openBlobStore } from './idb-blob-store.ts';
import type { RenderJob, RenderReply, ResultView } from './protocol.ts';

declare const self: DedicatedWorkerGlobalScope;

/** The package directory in memory: named after the root Kptfile, as kpt shows it (`Package "hello"`). */
function rootFor(files: Record<string, string | Uint8Array>): string {
  const k = files.Kptfile;
  const name =
    typeof k === 'string' ? /^metadata:\n(?:[ ].*\n)*?  name: ["']?([A-Za-z0-9._-]+)/m.exec(k)?.[1] : undefined;
  return `/${name ?? 'pkg'}`;
}
const cache = new ModuleCache();
const pool = createWebWorkerPool({
  create: () => new Worker(new URL('./wasm-worker.js', import.meta.url), { type: 'module' }),
});
const registry = openBlobStore().then((store) => new OciClient({ store }));

self.onmessage = async (e: MessageEvent<RenderJob>): Promise<void> => {
  const job = e.data;
  const started = performance.now();
  const carriesModules = Object.keys(job.files).some((p) => p.endsWith('.wasm'));
  let reply: RenderReply;
  try {
    let run = await attempt(job, job.allowWasm && carriesModules, started);
    // A function nothing else takes may be a WASM image in a registry: render again with WASM on.
    if (job.allowWasm && !carriesModules && run.outcome.failure?.error.code === 'function-not-found') {
      run = await attempt(job, true, started);
    }
    reply = replyFor(job, run, started);
  } catch (err) {
    reply = {
      id: job.id,
      ok: false,
      files: {},
      results: [],
      log: '',
      error: { message: String((err as Error)?.message ?? err) },
      ms: performance.now() - started,
    };
  }
  self.postMessage(reply);
};

interface Attempt {
  root: string;
  fs: MemoryFs;
  outcome: RunOutcome;
  log: string[];
  results: ResultView[];
  lastFailure: Extract<EngineEvent, { type: 'function-end' }> | undefined;
}

async function attempt(job: RenderJob, allowWasm: boolean, started: number): Promise<Attempt> {
  const root = rootFor(job.files);
  const fs = new MemoryFs(Object.fromEntries(Object.entries(job.files).map(([p, v]) => [`${root}/${p}`, v])));
  const run: Omit<Attempt, 'outcome'> = { root, fs, log: [], results: [], lastFailure: undefined };
  const onEvent = (ev: EngineEvent): void => {
    run.log.push(formatEvent(ev, { truncate: true, color: false }, 'render'));
    if (ev.type === 'function-end') {
      if (!ev.ok) run.lastFailure = ev;
      for (const r of ev.results) {
        const v: ResultView = { fn: ev.name, severity: r.severity ?? 'info', message: r.message };
        if (r.resourceRef)
          v.resource = [r.resourceRef.kind, r.resourceRef.namespace, r.resourceRef.name].filter(Boolean).join('/');
        if (r.field?.path) v.field = r.field.path;
        if (r.file?.path) v.file = r.file.path;
        if (r.file?.index !== undefined) v.index = r.file.index;
        run.results.push(v);
      }
    }
  };
  const engine = createEngine({
    runtimes: [
      ...defaultRuntimes(),
      createWasmRuntime({ loader: fs, executor: pool, cache, images: { client: await registry } }),
    ],
  });
  const outcome = await engine.render({
    fs,
    root,
    now: () => job.now + (performance.now() - started),
    limits: { timeoutMs: job.timeoutMs },
    allowWasm,
    allowExec: allowWasm,
    onEvent,
    cwd: root,
  });
  return { ...run, outcome };
}

function replyFor(job: RenderJob, run: Attempt, started: number): RenderReply {
  const { root: ROOT, fs, outcome, log, results, lastFailure } = run;
  const files: Record<string, string> = {};
  for (const [path, text] of Object.entries(fs.snapshot()))
    if (path.startsWith(ROOT + '/')) files[path.slice(ROOT.length + 1)] = text;
  const reply: RenderReply = {
    id: job.id,
    ok: outcome.ok,
    files,
    results,
    log: log.join(''),
    ms: performance.now() - started,
  };
  if (outcome.failure) {
    const err = outcome.failure.error;
    reply.log += formatFailure(outcome.failure);
    reply.error = { message: err.message };
    // A browser cannot tell a refused CORS check from an unreachable host: say both.
    if (err.code.startsWith('oci-') && /: cannot reach /.test(err.message))
      reply.error.message +=
        "\n(a registry is reachable from the playground only if it allows this page's origin (CORS))";
    const file = err.file?.startsWith(ROOT + '/') ? err.file.slice(ROOT.length + 1) : err.file;
    if (file) reply.error.file = file;
    if (err.line) reply.error.line = err.line;
    // A function that failed says why in its error results: show the first, at its source line.
    const failed = lastFailure?.results.find((r) => r.severity === 'error');
    if (failed) {
      reply.error.message = `${failed.message}\n(${err.message})`;
      const where = locate(failed.message, job.files);
      if (where) Object.assign(reply.error, where);
    }
  }
  return reply;
}

/**
 * Maps a Starlark position in a result message (`<script name>:<line>:<col>: ...`, the script
 * named by its StarlarkRun's metadata.name) to the file holding that script and the line inside
 * its `source: |` block.
 */
function locate(
  message: string,
  files: Record<string, string | Uint8Array>,
): { file: string; line: number } | undefined {
  const m = /^([^\s:]+):(\d+):(\d+): /.exec(message);
  if (!m) return undefined;
  const [, script, line] = m;
  for (const [path, text] of Object.entries(files)) {
    if (typeof text !== 'string' || !/kind:\s*StarlarkRun/.test(text)) continue;
    const lines = text.split('\n');
    if (
      !lines.some((l) =>
        new RegExp(`^\\s+name:\\s*["']?${script!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}["']?\\s*$`).test(l),
      )
    )
      continue;
    const source = lines.findIndex((l) => /^source:\s*[|>]/.test(l));
    if (source >= 0) return { file: path, line: source + 1 + Number(line) };
  }
  return undefined;
}
