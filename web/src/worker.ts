/**
 * The playground's engine Worker: renders the package held in memory with the full default
 * runtime chain (built-ins, Starlark, WASM), WASM modules in nested Web Workers with hard
 * deadlines. It answers every job with the rendered files, results and kpt's log text.
 */
import { createEngine, createWasmRuntime, defaultRuntimes, formatEvent, formatFailure, MemoryFs, type EngineEvent } from 'krmfn';
import { createWebWorkerPool } from 'krmfn/wasm';
import type { RenderJob, RenderReply, ResultView } from './protocol.ts';

declare const self: DedicatedWorkerGlobalScope;

const ROOT = '/pkg';
const pool = createWebWorkerPool({ create: () => new Worker(new URL('./wasm-worker.js', import.meta.url), { type: 'module' }) });

self.onmessage = async (e: MessageEvent<RenderJob>): Promise<void> => {
  const job = e.data;
  const started = performance.now();
  const fs = new MemoryFs(Object.fromEntries(Object.entries(job.files).map(([p, v]) => [`${ROOT}/${p}`, v])));
  const log: string[] = [];
  const results: ResultView[] = [];
  const onEvent = (ev: EngineEvent): void => {
    log.push(formatEvent(ev, { truncate: true, color: false }, 'render'));
    if (ev.type === 'function-end') {
      for (const r of ev.results) {
        const v: ResultView = { fn: ev.name, severity: r.severity ?? 'info', message: r.message };
        if (r.resourceRef) v.resource = [r.resourceRef.kind, r.resourceRef.namespace, r.resourceRef.name].filter(Boolean).join('/');
        if (r.field?.path) v.field = r.field.path;
        if (r.file?.path) v.file = r.file.path;
        if (r.file?.index !== undefined) v.index = r.file.index;
        results.push(v);
      }
    }
  };
  const engine = createEngine({ runtimes: [...defaultRuntimes(), createWasmRuntime({ loader: fs, executor: pool, claimAllExec: false })] });
  let reply: RenderReply;
  try {
    const outcome = await engine.render({
      fs,
      root: ROOT,
      now: () => job.now + (performance.now() - started),
      limits: { timeoutMs: job.timeoutMs },
      allowWasm: job.allowWasm,
      allowExec: job.allowWasm,
      onEvent,
      cwd: ROOT,
    });
    const files: Record<string, string> = {};
    for (const [path, text] of Object.entries(fs.snapshot())) if (path.startsWith(ROOT + '/')) files[path.slice(ROOT.length + 1)] = text;
    reply = { id: job.id, ok: outcome.ok, files, results, log: log.join(''), ms: performance.now() - started };
    if (outcome.failure) {
      const err = outcome.failure.error;
      reply.log += formatFailure(outcome.failure);
      reply.error = { message: err.message };
      const file = err.file?.startsWith(ROOT + '/') ? err.file.slice(ROOT.length + 1) : err.file;
      if (file) reply.error.file = file;
      if (err.line) reply.error.line = err.line;
    }
  } catch (err) {
    reply = { id: job.id, ok: false, files: {}, results, log: log.join(''), error: { message: String((err as Error)?.message ?? err) }, ms: performance.now() - started };
  }
  self.postMessage(reply);
};
