/**
 * The work endpoints' handlers: decode the request into a `FunctionService` call and encode its
 * answer. They run behind the route's guards (routes.ts), so the body, signal and deadline are set.
 *
 *   POST /v1/run?image=IMAGE   ResourceList (YAML or JSON) → the output list in the same form (200
 *                              on exit 0, 422 when the function failed; `krmfn-exit-code` header),
 *                              or the JSON envelope {exitCode, stdout, stderr} when the client
 *                              accepts application/vnd.krmfn.run+json (the remote runtime does).
 *   POST /v1/render            {"files": {"path": "text"}} (JSON) or a tar → the rendered package in
 *                              the same form plus results (JSON {ok, error?, files, results, log};
 *                              tar: the files plus .krmfn/results.json). The kpt release
 *                              to imitate: `"kptVersion"` in the JSON body or `?kptVersion=`
 *                              (any form `--kpt-version` takes; an unknown one is a 400).
 */
import { parseKptVersion, type KptVersion } from '../../core/kpt-version.ts';
import { readTar, writeTar } from '../../core/tar.ts';
import { RUN_ENVELOPE_TYPE } from '../../runtimes/remote.ts';
import type { RequestContext } from './guards.ts';
import { HttpError, send } from './http.ts';
import type { FunctionService, RenderResponseJson } from './service.ts';

interface WorkContext extends RequestContext {
  body: Uint8Array;
  signal: AbortSignal;
  deadline: number;
}

function work(ctx: RequestContext): WorkContext {
  if (!ctx.body || !ctx.signal || ctx.deadline === undefined)
    throw new Error('handler reached without its body or deadline guard');
  return ctx as WorkContext;
}

function contentFormat(type: string | undefined): 'yaml' | 'json' {
  return (type ?? '').includes('json') ? 'json' : 'yaml';
}

export function runHandler(service: FunctionService): (ctx: RequestContext) => Promise<void> {
  return async (c) => {
    const ctx = work(c);
    const image = ctx.url.searchParams.get('image');
    if (!image) throw new HttpError(400, 'missing ?image= parameter');
    ctx.entry.image = image;
    const format = contentFormat(ctx.req.headers['content-type']);
    const out = await service.run({ image, input: ctx.body, format, signal: ctx.signal, deadline: ctx.deadline });
    ctx.entry.exitCode = out.exitCode;
    const headers = { 'krmfn-exit-code': String(out.exitCode) };
    if ((ctx.req.headers.accept ?? '').includes(RUN_ENVELOPE_TYPE)) {
      const stdout = new TextDecoder().decode(out.stdout);
      const envelope = JSON.stringify({ exitCode: out.exitCode, stdout, stderr: out.stderr });
      return send(ctx.res, 200, RUN_ENVELOPE_TYPE, envelope, headers);
    }
    const type = format === 'json' ? 'application/json' : 'application/yaml';
    send(ctx.res, out.exitCode === 0 ? 200 : 422, type, out.stdout, headers);
  };
}

interface PostedPackage {
  files: Map<string, Uint8Array>;
  /** The body's `kptVersion`, when it has one. */
  kptVersion?: unknown;
}

/** The posted package as files by relative path; throws 400/415 on a body that is not one. */
function postedPackage(type: string, body: Uint8Array): PostedPackage {
  const files = new Map<string, Uint8Array>();
  if (type === 'application/x-tar') {
    for (const e of readTar(body)) files.set(e.path, e.data);
    return { files };
  }
  if (type !== 'application/json')
    throw new HttpError(415, 'send application/json ({"files": {...}}) or application/x-tar');
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(body));
  } catch (e) {
    throw new HttpError(400, `malformed JSON body: ${(e as Error).message}`);
  }
  const map = (parsed as { files?: unknown } | null)?.files;
  if (!map || typeof map !== 'object' || Array.isArray(map))
    throw new HttpError(400, 'body must be {"files": {"<path>": "<content>", ...}}');
  const enc = new TextEncoder();
  for (const [p, v] of Object.entries(map as Record<string, unknown>)) {
    if (typeof v !== 'string') throw new HttpError(400, `files[${JSON.stringify(p)}] must be a string`);
    if (p.startsWith('/') || p.split('/').includes('..'))
      throw new HttpError(400, `file path ${JSON.stringify(p)} escapes the package`);
    files.set(p, enc.encode(v));
  }
  const kptVersion = (parsed as { kptVersion?: unknown }).kptVersion;
  return kptVersion === undefined ? { files } : { files, kptVersion };
}

/** The request's kpt release (body field, else query parameter), checked as `--kpt-version` is. */
function requestedKptVersion(posted: PostedPackage, url: URL): KptVersion | undefined {
  const value = posted.kptVersion ?? url.searchParams.get('kptVersion') ?? undefined;
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new HttpError(400, 'kptVersion must be a string');
  try {
    return parseKptVersion(value);
  } catch (e) {
    throw new HttpError(400, (e as Error).message);
  }
}

export function renderHandler(service: FunctionService): (ctx: RequestContext) => Promise<void> {
  return async (c) => {
    const ctx = work(c);
    const type = (ctx.req.headers['content-type'] ?? '').split(';')[0].trim();
    const posted = postedPackage(type, ctx.body);
    const { files } = posted;
    const kptVersion = requestedKptVersion(posted, ctx.url);
    ctx.entry.files = files.size;
    const out = await service.render({
      files,
      ...(kptVersion ? { kptVersion } : {}),
      signal: ctx.signal,
      deadline: ctx.deadline,
    });
    ctx.entry.ok = out.ok;
    const status = out.ok ? 200 : 422;
    const headers = { 'krmfn-exit-code': out.ok ? '0' : '1' };
    if (type === 'application/x-tar') {
      const entries = [...out.files].map(([path, data]) => ({ path, data }));
      const results = new TextEncoder().encode(JSON.stringify(out.results, null, 2) + '\n');
      entries.push({ path: '.krmfn/results.json', data: results });
      return send(ctx.res, status, 'application/x-tar', writeTar(entries), headers);
    }
    const dec = new TextDecoder();
    const filesOut: Record<string, string> = {};
    for (const [p, d] of out.files) filesOut[p] = dec.decode(d);
    const json: RenderResponseJson = {
      ok: out.ok,
      ...(out.error ? { error: out.error } : {}),
      files: filesOut,
      results: out.results,
      log: out.log,
    };
    send(ctx.res, status, 'application/json', JSON.stringify(json) + '\n', headers);
  };
}
