/**
 * The `FunctionService` of `krmfn serve`, backed by the engine: `/v1/run` resolves the image
 * through the engine's runtime chain and calls the runner on the posted ResourceList (objects
 * runners through `toBytesRunner`); `/v1/render` renders the posted package in a `MemoryFs`
 * exactly as `krmfn render` would, returning the files it would write and kpt's log text.
 */
import type { Engine } from '../../index.ts';
import { MemoryFs } from '../../core/memory-fs.ts';
import type { FunctionRuntime } from '../../core/function.ts';
import { withLimits, type Limits } from '../../core/limits.ts';
import { toJS } from '../../core/yaml/convert.ts';
import { parseYamlFile } from '../../core/yaml/index.ts';
import { runFunction } from '../../engine/run-function.ts';
import type { EngineEvent } from '../../engine/events.ts';
import { formatEvent, formatFailure } from '../../engine/text-output.ts';
import type {
  FunctionInfo,
  FunctionService,
  RenderRequest,
  RenderResponse,
  RunRequest,
  RunResponse,
} from './service.ts';

export interface EngineServiceOptions {
  engine: Engine;
  functions: FunctionInfo[];
  limits?: Partial<Limits>;
  /** Whether posted packages may run WASM modules they contain (`exec: fn.wasm`). */
  allowWasm?: boolean;
  now?: () => number;
}

const ROOT = '/pkg';

export function createEngineService(opts: EngineServiceOptions): FunctionService {
  const now = opts.now ?? Date.now;
  const runtime: FunctionRuntime = opts.engine.runtime;
  return {
    functions: () => opts.functions,

    async run(req: RunRequest): Promise<RunResponse> {
      const limits = withLimits({ ...opts.limits, timeoutMs: Math.max(1, req.deadline - now()) });
      const out = await runFunction(runtime, req.image, req.input, { limits, signal: req.signal, now });
      if (req.format !== 'json') return out;
      // Same form as the request: re-encode the output list as JSON.
      const parsed = parseYamlFile(new TextDecoder().decode(out.stdout), { limits });
      const json = JSON.stringify(toJS(parsed.docs[0]) ?? {}, null, 2) + '\n';
      return { ...out, stdout: new TextEncoder().encode(json) };
    },

    async render(req: RenderRequest): Promise<RenderResponse> {
      const fs = new MemoryFs(Object.fromEntries([...req.files].map(([p, d]) => [`${ROOT}/${p}`, d])));
      const log: string[] = [];
      const onEvent = (e: EngineEvent): void =>
        void log.push(formatEvent(e, { truncate: true, color: false }, 'render'));
      const outcome = await opts.engine.render({
        fs,
        root: ROOT,
        onEvent,
        signal: req.signal,
        allowWasm: opts.allowWasm ?? false,
        allowExec: opts.allowWasm ?? false,
        limits: {
          ...opts.limits,
          timeoutMs: Math.max(1, Math.min(opts.limits?.timeoutMs ?? Infinity, req.deadline - now())),
        },
        now,
      });
      if (outcome.failure) log.push(formatFailure(outcome.failure));
      else
        log.push(`Successfully executed ${outcome.functionsRun} function(s) in ${outcome.packagesRun} package(s).\n`);
      const files = new Map<string, Uint8Array>();
      const enc = new TextEncoder();
      for (const [p, text] of Object.entries(fs.snapshot(ROOT))) files.set(p.slice(ROOT.length + 1), enc.encode(text));
      const res: RenderResponse = { ok: outcome.ok, files, results: outcome.results, log: log.join('') };
      if (outcome.failure) res.error = outcome.failure.error.message;
      return res;
    },
  };
}
