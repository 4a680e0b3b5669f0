/**
 * The playground's engine Worker: renders the package held in memory with the full default
 * runtime chain (built-ins, Starlark, WASM), WASM modules in nested Web Workers with hard
 * deadlines. It answers every job with the rendered files, results and kpt's log text.
 */
import {
  createEngine,
  createWasmRuntime,
  defaultRuntimes,
  formatEvent,
  formatFailure,
  MemoryFs,
  type EngineEvent,
} from 'krmfn';
import { createWebWorkerPool, ModuleCache } from 'krmfn/wasm';
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

self.onmessage = async (e: MessageEvent<RenderJob>): Promise<void> => {
  const job = e.data;
  const ROOT = rootFor(job.files);
  // Only packages that carry WASM modules need the WASM runtime (kpt then labels every function WASM).
  const allowWasm = job.allowWasm && Object.keys(job.files).some((p) => p.endsWith('.wasm'));
  const started = performance.now();
  const fs = new MemoryFs(Object.fromEntries(Object.entries(job.files).map(([p, v]) => [`${ROOT}/${p}`, v])));
  const log: string[] = [];
  const results: ResultView[] = [];
  let lastFailure: Extract<EngineEvent, { type: 'function-end' }> | undefined;
  const onEvent = (ev: EngineEvent): void => {
    log.push(formatEvent(ev, { truncate: true, color: false }, 'render'));
    if (ev.type === 'function-end') {
      if (!ev.ok) lastFailure = ev;
      for (const r of ev.results) {
        const v: ResultView = { fn: ev.name, severity: r.severity ?? 'info', message: r.message };
        if (r.resourceRef)
          v.resource = [r.resourceRef.kind, r.resourceRef.namespace, r.resourceRef.name].filter(Boolean).join('/');
        if (r.field?.path) v.field = r.field.path;
        if (r.file?.path) v.file = r.file.path;
        if (r.file?.index !== undefined) v.index = r.file.index;
        results.push(v);
      }
    }
  };
  const engine = createEngine({
    runtimes: [...defaultRuntimes(), createWasmRuntime({ loader: fs, executor: pool, cache })],
  });
  let reply: RenderReply;
  try {
    const outcome = await engine.render({
      fs,
      root: ROOT,
      now: () => job.now + (performance.now() - started),
      limits: { timeoutMs: job.timeoutMs },
      allowWasm,
      allowExec: allowWasm,
      onEvent,
      cwd: ROOT,
    });
    const files: Record<string, string> = {};
    for (const [path, text] of Object.entries(fs.snapshot()))
      if (path.startsWith(ROOT + '/')) files[path.slice(ROOT.length + 1)] = text;
    reply = { id: job.id, ok: outcome.ok, files, results, log: log.join(''), ms: performance.now() - started };
    if (outcome.failure) {
      const err = outcome.failure.error;
      reply.log += formatFailure(outcome.failure);
      reply.error = { message: err.message };
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
  } catch (err) {
    reply = {
      id: job.id,
      ok: false,
      files: {},
      results,
      log: log.join(''),
      error: { message: String((err as Error)?.message ?? err) },
      ms: performance.now() - started,
    };
  }
  self.postMessage(reply);
};

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
