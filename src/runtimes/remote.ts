/**
 * The remote runtime: functions served over HTTP (for example by `krmfn serve`, or any service
 * speaking the same protocol). Browser-safe: it uses only `fetch`.
 *
 * Configuration maps images to endpoints (see `parseRemoteConfig`). For a matching image the
 * runner POSTs the serialized ResourceList to `<url>?image=<image>` with
 * `Accept: application/vnd.krmfn.run+json`; a krmfn server answers with the envelope
 * `{ exitCode, stdout, stderr }`, any other server may answer with the output ResourceList itself
 * (a 2xx plain YAML/JSON body means exit code 0).
 *
 * Failure policy: connection errors (nothing was received) are retried with exponential backoff,
 * up to `retries` times; HTTP errors and timeouts are not retried. Every failure becomes a
 * `remote-failed` (or `timeout`) error naming the endpoint.
 *
 * An endpoint `grpc://host:port` (`grpcs://` for TLS) is a function runner speaking Porch's
 * `evaluator.FunctionEvaluator` protocol (a Porch function runner, or `krmfn serve --grpc`); its
 * `headers` go as gRPC metadata. The gRPC client is not browser-safe, so the host injects it as
 * `grpc` (the Node edge does: src/node/grpc/remote-transport.ts). An OK answer is exit code 0 with
 * the ResourceList and log; an INTERNAL answer (how Porch's runner reports a failed function) is
 * exit code 1 with the server's message as stderr; DEADLINE_EXCEEDED is a timeout; UNAVAILABLE is
 * a connection error (retried); anything else is `remote-failed`.
 */
import { parseGoDuration } from '../core/duration.ts';
import { KrmfnError, LimitExceededError, NotFoundError } from '../core/errors.ts';
import type { BytesOutcome, BytesRunner, FunctionRuntime, PipelineFunction, RunContext } from '../core/function.ts';
import { toJS } from '../core/yaml/convert.ts';
import { parseYamlFile } from '../core/yaml/parse.ts';

export interface RemoteEndpoint {
  /** An exact image (`repo/name:tag`), an image without tag (any tag matches), or a prefix ending in `*`. */
  image: string;
  url: string;
  /** Per-call timeout in ms; the engine's deadline still applies when it is earlier. */
  timeoutMs?: number;
  /** Retries after connection errors (default 2). */
  retries?: number;
  headers?: Record<string, string>;
}

/** One `EvaluateFunction` call; resolves with the answer or the gRPC status it failed with. */
export type GrpcEvaluate = (call: {
  /** `host:port`. */
  target: string;
  tls: boolean;
  image: string;
  resourceList: Uint8Array;
  metadata: Record<string, string>;
  /** Epoch ms. */
  deadline: number;
  signal: AbortSignal;
}) => Promise<
  { ok: true; resourceList: Uint8Array; log: string } | { ok: false; code: number; codeName: string; details: string }
>;

/** gRPC status codes the remote runtime tells apart (fixed by the gRPC spec). */
const GRPC_DEADLINE_EXCEEDED = 4;
const GRPC_CANCELLED = 1;
const GRPC_INTERNAL = 13;
const GRPC_UNAVAILABLE = 14;

export interface RemoteRuntimeOptions {
  endpoints: readonly RemoteEndpoint[];
  /** The gRPC transport for `grpc://` and `grpcs://` endpoints (Node hosts inject it). */
  grpc?: GrpcEvaluate;
  /** Injected for tests and hosts; defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Backoff base in ms (default 100). */
  backoffMs?: number;
  /** Sleep function, injectable for tests. */
  sleep?: (ms: number) => Promise<void>;
}

export const RUN_ENVELOPE_TYPE = 'application/vnd.krmfn.run+json';

export function matchesImage(pattern: string, image: string): boolean {
  if (pattern.endsWith('*')) return image.startsWith(pattern.slice(0, -1));
  if (pattern === image) return true;
  const hasTag = /:[^/]+$/.test(pattern) || pattern.includes('@');
  return !hasTag && (image.startsWith(pattern + ':') || image.startsWith(pattern + '@'));
}

export function createRemoteRuntime(options: RemoteRuntimeOptions): FunctionRuntime {
  const endpoints = [...options.endpoints];
  return {
    name: 'remote',
    async resolve(spec: PipelineFunction): Promise<BytesRunner> {
      const image = spec.image;
      const ep = image ? endpoints.find((e) => matchesImage(e.image, image)) : undefined;
      if (!image || !ep) throw new NotFoundError(image ?? spec.exec ?? '');
      return remoteRunner(image, ep, options);
    },
  };
}

function remoteRunner(image: string, ep: RemoteEndpoint, options: RemoteRuntimeOptions): BytesRunner {
  if (/^grpcs?:\/\//.test(ep.url)) return grpcRunner(image, ep, options);
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const retries = ep.retries ?? 2;
  const backoff = options.backoffMs ?? 100;
  const url = `${ep.url}${ep.url.includes('?') ? '&' : '?'}image=${encodeURIComponent(image)}`;
  return {
    kind: 'bytes',
    async run(stdin: Uint8Array, ctx: RunContext): Promise<BytesOutcome> {
      const budget = Math.min(ep.timeoutMs ?? Infinity, ctx.deadline - ctx.now());
      const timeout = AbortSignal.timeout(Math.max(1, Number.isFinite(budget) ? budget : 2 ** 31 - 1));
      const signal = AbortSignal.any([ctx.signal, timeout]);
      for (let attempt = 0; ; attempt++) {
        let res: Response;
        try {
          res = await doFetch(url, {
            method: 'POST',
            body: stdin as Uint8Array<ArrayBuffer>,
            headers: {
              'content-type': 'application/yaml',
              accept: `${RUN_ENVELOPE_TYPE}, application/yaml`,
              ...(ep.headers ?? {}),
            },
            signal,
          });
        } catch (e) {
          if (timeout.aborted) {
            throw new LimitExceededError(
              'deadline',
              `remote function ${JSON.stringify(image)} at ${ep.url} timed out after ${Math.round(budget)}ms`,
              image,
            );
          }
          if (ctx.signal.aborted)
            throw new KrmfnError({ code: 'cancelled', message: `remote call to ${ep.url} cancelled`, function: image });
          if (attempt < retries) {
            await sleep(backoff * 2 ** attempt);
            continue;
          }
          throw new KrmfnError({
            code: 'remote-failed',
            message: `remote function ${JSON.stringify(image)}: cannot reach ${ep.url} after ${attempt + 1} attempt(s): ${describe(e)}`,
            function: image,
            cause: e,
          });
        }
        return readResponse(res, image, ep.url);
      }
    },
  };
}

function grpcRunner(image: string, ep: RemoteEndpoint, options: RemoteRuntimeOptions): BytesRunner {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const retries = ep.retries ?? 2;
  const backoff = options.backoffMs ?? 100;
  const tls = ep.url.startsWith('grpcs://');
  const target = ep.url.replace(/^grpcs?:\/\//, '').replace(/\/+$/, '');
  return {
    kind: 'bytes',
    async run(stdin: Uint8Array, ctx: RunContext): Promise<BytesOutcome> {
      const evaluate = options.grpc;
      if (!evaluate)
        throw remoteError(image, ep.url, 'gRPC endpoints need a host with a gRPC client (the krmfn CLI has one)');
      const budget = Math.min(ep.timeoutMs ?? Infinity, ctx.deadline - ctx.now());
      const deadline = ctx.now() + Math.max(1, Number.isFinite(budget) ? budget : 2 ** 31 - 1);
      for (let attempt = 0; ; attempt++) {
        const answer = await evaluate({
          target,
          tls,
          image,
          resourceList: stdin,
          metadata: ep.headers ?? {},
          deadline,
          signal: ctx.signal,
        });
        if (answer.ok) return { exitCode: 0, stdout: answer.resourceList, stderr: answer.log };
        if (answer.code === GRPC_INTERNAL) return { exitCode: 1, stdout: new Uint8Array(), stderr: answer.details };
        if (answer.code === GRPC_DEADLINE_EXCEEDED)
          throw new LimitExceededError(
            'deadline',
            `remote function ${JSON.stringify(image)} at ${ep.url} timed out after ${Math.round(budget)}ms`,
            image,
          );
        if (answer.code === GRPC_CANCELLED || ctx.signal.aborted)
          throw new KrmfnError({ code: 'cancelled', message: `remote call to ${ep.url} cancelled`, function: image });
        if (answer.code === GRPC_UNAVAILABLE && attempt < retries && ctx.now() < deadline) {
          await sleep(backoff * 2 ** attempt);
          continue;
        }
        throw remoteError(image, ep.url, `${answer.codeName}: ${answer.details}`);
      }
    },
  };
}

async function readResponse(res: Response, image: string, url: string): Promise<BytesOutcome> {
  const body = new Uint8Array(await res.arrayBuffer());
  const type = res.headers.get('content-type') ?? '';
  if (
    type.startsWith(RUN_ENVELOPE_TYPE) ||
    (type.startsWith('application/json') && res.headers.get('krmfn-envelope') === '1')
  ) {
    let env: { exitCode?: unknown; stdout?: unknown; stderr?: unknown; error?: unknown };
    try {
      env = JSON.parse(new TextDecoder().decode(body)) as typeof env;
    } catch {
      throw remoteError(image, url, `HTTP ${res.status}: malformed response envelope`);
    }
    if (typeof env.exitCode !== 'number' || typeof env.stdout !== 'string') {
      throw remoteError(
        image,
        url,
        `HTTP ${res.status}: ${typeof env.error === 'string' ? env.error : 'malformed response envelope'}`,
      );
    }
    return {
      exitCode: env.exitCode,
      stdout: new TextEncoder().encode(env.stdout),
      stderr: typeof env.stderr === 'string' ? env.stderr : '',
    };
  }
  if (!res.ok) {
    throw remoteError(
      image,
      url,
      `HTTP ${res.status} ${res.statusText}: ${new TextDecoder().decode(body.subarray(0, 500))}`,
    );
  }
  return { exitCode: 0, stdout: body, stderr: '' };
}

function remoteError(image: string, url: string, detail: string): KrmfnError {
  return new KrmfnError({
    code: 'remote-failed',
    message: `remote function ${JSON.stringify(image)} at ${url} failed: ${detail}`,
    function: image,
  });
}

function describe(e: unknown): string {
  if (e instanceof Error) {
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    return cause?.code ? `${cause.code}${cause.message ? ` (${cause.message})` : ''}` : e.message;
  }
  return String(e);
}

/**
 * Parses a remote runtime configuration file:
 * ```yaml
 * apiVersion: krmfn.dev/v1alpha1
 * kind: RemoteFunctions
 * endpoints:
 * - image: example.com/fns/my-fn        # any tag; or `...:v1` exact, or `example.com/fns/*`
 *   url: http://127.0.0.1:8080/v1/run   # or grpc://host:port, grpcs://host:port (FunctionEvaluator)
 *   timeout: 30s                        # optional: 500ms, 30s, 2m
 *   retries: 2                          # optional, connection errors only
 *   headers: {authorization: Bearer x}  # optional
 * ```
 * `env` resolves `${VAR}` references in header values (the Node edge passes its environment; the
 * browser passes nothing).
 */
export function parseRemoteConfig(
  text: string,
  file: string,
  env: Record<string, string | undefined> = {},
): RemoteEndpoint[] {
  const parsed = parseYamlFile(text, { file });
  const doc = toJS(parsed.docs[0]) as { kind?: unknown; endpoints?: unknown } | null;
  const bad = (m: string): KrmfnError => new KrmfnError({ code: 'usage', message: `${file}: ${m}`, file });
  if (!doc || typeof doc !== 'object' || doc.kind !== 'RemoteFunctions') throw bad('expected kind: RemoteFunctions');
  if (!Array.isArray(doc.endpoints)) throw bad('`endpoints` must be a list');
  return doc.endpoints.map((raw, i) => {
    const e = raw as Record<string, unknown>;
    if (typeof e.image !== 'string' || !e.image) throw bad(`endpoints[${i}].image must be a non-empty string`);
    if (typeof e.url !== 'string' || !/^(https?|grpcs?):\/\//.test(e.url))
      throw bad(`endpoints[${i}].url must be an http(s) URL or grpc(s)://host:port`);
    const ep: RemoteEndpoint = { image: e.image, url: e.url };
    if (e.timeout !== undefined) {
      const ms = parseGoDuration(String(e.timeout));
      if (ms === undefined) throw bad(`endpoints[${i}].timeout is not a duration`);
      ep.timeoutMs = ms;
    }
    if (e.retries !== undefined) {
      if (typeof e.retries !== 'number' || e.retries < 0 || !Number.isInteger(e.retries))
        throw bad(`endpoints[${i}].retries must be a whole number`);
      ep.retries = e.retries;
    }
    if (e.headers !== undefined) {
      if (typeof e.headers !== 'object' || e.headers === null) throw bad(`endpoints[${i}].headers must be a map`);
      ep.headers = Object.fromEntries(
        Object.entries(e.headers as Record<string, unknown>).map(([k, v]) => [
          k,
          String(v).replace(/\$\{(\w+)\}/g, (_, n: string) => env[n] ?? ''),
        ]),
      );
    }
    return ep;
  });
}
