/**
 * The `FunctionService` of `krmfn serve`, backed by the engine: `/v1/run` resolves the image
 * through the engine's runtime chain and calls the runner on the posted ResourceList (objects
 * runners through `toBytesRunner`); `/v1/render` renders the posted package in a `MemoryFs`
 * exactly as `krmfn render` would, returning the files it would write and kpt's log text, both
 * at the request's kpt release (else the server's `--kpt-version`, else the default level).
 */
import type { Engine } from '../../index.ts';
import { MemoryFs } from '../../core/memory-fs.ts';
import type { FunctionRuntime } from '../../core/function.ts';
import { withLimits, type Limits } from '../../core/limits.ts';
import { toJS } from '../../core/yaml/convert.ts';
import { parseYamlFile } from '../../core/yaml/index.ts';
import { runFunction } from '../../engine/run-function.ts';
import type { EngineEvent } from '../../engine/events.ts';
import { kptLevel } from '../../engine/kpt-level.ts';
import type { KptVersion } from '../../core/kpt-version.ts';
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
  /** `--allow-alpha-wasm`: posted packages may run the WASM modules they contain (`exec: fn.wasm`). */
  allowWasm?: boolean;
  /** `--allow-exec`: posted packages may run `exec:` functions (programs on the server's machine). */
  allowExec?: boolean;
  /** `--allow-network` (container functions only). */
  allowNetwork?: boolean;
  /** `--truncate-output` (default true): Results/Stderr blocks of the render log cut to kpt's 4 lines. */
  truncateOutput?: boolean;
  /** The kpt release renders imitate when a request names none (default: the newest level). */
  kptVersion?: KptVersion;
  /** kpt's KCC attribution (`KPT_DISABLE_ATTRIBUTION` turns it off). Default true. */
  attribution?: boolean;
  /** Directory exec functions run in and relative exec paths resolve against (default '/'). */
  cwd?: string;
  /** Environment given to exec functions. */
  env?: Readonly<Record<string, string>>;
  /**
   * The runtime chain for one posted package (default: the engine's), so runtimes that read
   * module files (WASM) read them from the package itself, which lives at `root` in `fs`.
   */
  runtimeFor?: (fs: MemoryFs, root: string) => FunctionRuntime;
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
      const truncate = opts.truncateOutput ?? true;
      const level = kptLevel(req.kptVersion ?? opts.kptVersion);
      const onEvent = (e: EngineEvent): void =>
        void log.push(level.text.formatEvent(e, { truncate, color: false }, 'render'));
      const outcome = await opts.engine.render({
        kptVersion: level.version,
        fs,
        root: ROOT,
        ...(opts.cwd ? { cwd: opts.cwd } : {}),
        onEvent,
        signal: req.signal,
        ...(opts.runtimeFor ? { runtime: opts.runtimeFor(fs, ROOT) } : {}),
        ...(opts.env ? { env: opts.env } : {}),
        allowWasm: opts.allowWasm ?? false,
        // kpt render runs `exec: fn.wasm` only with --allow-exec too; the server's WASM flag implies it
        // for modules (other exec functions need an exec runtime, present only with allowExec).
        allowExec: (opts.allowWasm ?? false) || (opts.allowExec ?? false),
        allowNetwork: opts.allowNetwork ?? false,
        attribution: opts.attribution ?? true,
        limits: {
          ...opts.limits,
          timeoutMs: Math.max(1, Math.min(opts.limits?.timeoutMs ?? Infinity, req.deadline - now())),
        },
        now,
      });
      log.push(level.text.renderSummary(outcome));
      if (outcome.failure) log.push(level.text.formatFailure(outcome.failure));
      const files = new Map<string, Uint8Array>();
      const enc = new TextEncoder();
      for (const [p, text] of Object.entries(fs.snapshot(ROOT))) files.set(p.slice(ROOT.length + 1), enc.encode(text));
      const res: RenderResponse = { ok: outcome.ok, files, results: outcome.results, log: log.join('') };
      if (outcome.failure) res.error = outcome.failure.error.message;
      return res;
    },
  };
}
