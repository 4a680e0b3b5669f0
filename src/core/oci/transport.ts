/**
 * HTTP to one registry's v2 API over an injected `fetch`: authentication on demand (a 401's
 * challenge, see auth.ts; the header is remembered per registry and scope), retries with backoff on
 * connection errors, 5xx and 429 (request bodies are byte arrays, so every request can be replayed),
 * redirects followed by `fetch` (which drops `Authorization` on a cross-origin hop, as blob storage
 * redirects need), bodies read with a byte cap, and registry answers turned into `OciError`s that
 * name the reference: 401/403 `oci-unauthorized`, 404 `oci-not-found`, anything else `oci-registry`.
 */
import { readStreamCapped } from '../capped-read.ts';
import { basicAuthorization, parseChallenge, repositoryScope, type Credentials } from './auth.ts';
import { OciError, type OciErrorCode } from './errors.ts';
import { apiHost, formatReference, isLoopbackRegistry, type OciReference } from './reference.ts';

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface TransportOptions {
  /** Default `globalThis.fetch`. */
  fetch?: FetchLike;
  /** Credentials for a registry host (Basic, or to obtain a Bearer token); undefined: anonymous. */
  credentials?: (registry: string) => Credentials | undefined | Promise<Credentials | undefined>;
  /** Whether to speak plain HTTP to a registry (default: loopback hosts only). */
  plainHttp?: (registry: string) => boolean;
  /** Attempts after the first on connection errors, 5xx and 429 (default 3). */
  retries?: number;
  /** First backoff in milliseconds, doubled each retry (default 200). */
  retryDelayMs?: number;
  /** Waits between retries (default setTimeout); injectable so tests need not wait. */
  sleep?: (ms: number) => Promise<void>;
}

export interface RequestSpec {
  method: 'GET' | 'HEAD' | 'POST' | 'PUT';
  /** Path under `/v2/<repository>/`, or an absolute URL (an upload location). */
  path: string;
  headers?: Record<string, string>;
  body?: Uint8Array;
  /** Push scope (pull,push) rather than pull. */
  push?: boolean;
  /** Statuses returned to the caller rather than thrown. */
  accept?: readonly number[];
  /** What the caller was doing, for messages ("pulling", "pushing"). */
  action: string;
}

const defaultSleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export class RegistryTransport {
  private readonly authHeaders = new Map<string, string>();
  private readonly fetchImpl: FetchLike;
  private readonly opts: TransportOptions;

  constructor(opts: TransportOptions = {}) {
    this.opts = opts;
    this.fetchImpl = opts.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  baseUrl(ref: OciReference): string {
    const plain = (this.opts.plainHttp ?? isLoopbackRegistry)(ref.registry);
    return `${plain ? 'http' : 'https'}://${apiHost(ref.registry)}/v2/${ref.repository}/`;
  }

  /** Sends the request (authenticating and retrying as needed); throws on an unaccepted status. */
  async request(ref: OciReference, spec: RequestSpec): Promise<Response> {
    const url = /^https?:\/\//.test(spec.path) ? spec.path : this.baseUrl(ref) + spec.path;
    const scope = repositoryScope(ref.repository, spec.push ?? false);
    const key = `${ref.registry}|${scope}`;
    let res = await this.send(ref, url, spec, this.authHeaders.get(key));
    if (res.status === 401) {
      const header = await this.authorize(ref, res, scope, spec.action);
      if (header) {
        this.authHeaders.set(key, header);
        res = await this.send(ref, url, spec, header);
      }
    }
    if (res.ok || spec.accept?.includes(res.status)) return res;
    throw await statusError(ref, res, spec.action);
  }

  private async send(ref: OciReference, url: string, spec: RequestSpec, auth: string | undefined): Promise<Response> {
    const retries = this.opts.retries ?? 3;
    const sleep = this.opts.sleep ?? defaultSleep;
    let delay = this.opts.retryDelayMs ?? 200;
    for (let attempt = 0; ; attempt++) {
      const headers: Record<string, string> = { ...spec.headers };
      if (auth) headers.Authorization = auth;
      const init: RequestInit = { method: spec.method, headers, redirect: 'follow' };
      if (spec.body) init.body = spec.body as Uint8Array<ArrayBuffer>;
      let res: Response;
      try {
        res = await this.fetchImpl(url, init);
      } catch (e) {
        // An unknown host stays unknown: no retry (Node reports it as the cause's code).
        const unknownHost = (e as { cause?: { code?: unknown } }).cause?.code === 'ENOTFOUND';
        if (attempt < retries && !unknownHost) {
          await sleep(delay);
          delay *= 2;
          continue;
        }
        const why = e instanceof Error ? (e.cause instanceof Error ? e.cause.message : e.message) : String(e);
        throw new OciError(
          'oci-registry',
          `${spec.action} ${formatReference(ref)}: cannot reach ${ref.registry}: ${why}`,
          formatReference(ref),
          undefined,
          e,
        );
      }
      if ((res.status >= 500 || res.status === 429) && attempt < retries) {
        await res.body?.cancel();
        await sleep(delay);
        delay *= 2;
        continue;
      }
      return res;
    }
  }

  private async authorize(
    ref: OciReference,
    res: Response,
    scope: string,
    action: string,
  ): Promise<string | undefined> {
    const challenge = parseChallenge(res.headers.get('www-authenticate') ?? '');
    await res.body?.cancel();
    const creds = await this.opts.credentials?.(ref.registry);
    if (challenge?.scheme === 'basic') return creds ? basicAuthorization(creds) : undefined;
    if (challenge?.scheme !== 'bearer' || !challenge.params.realm) return undefined;
    const realm = new URL(challenge.params.realm);
    if (challenge.params.service) realm.searchParams.set('service', challenge.params.service);
    realm.searchParams.set('scope', challenge.params.scope ?? scope);
    const tokenRef: RequestSpec = { method: 'GET', path: realm.toString(), action };
    const tokenRes = await this.send(ref, realm.toString(), tokenRef, creds ? basicAuthorization(creds) : undefined);
    if (!tokenRes.ok) throw await statusError(ref, tokenRes, `${action} (token from ${realm.host})`);
    const body = (await tokenRes.json().catch(() => ({}))) as { token?: unknown; access_token?: unknown };
    const token = typeof body.token === 'string' ? body.token : body.access_token;
    if (typeof token !== 'string' || !token) {
      throw new OciError(
        'oci-unauthorized',
        `${action} ${formatReference(ref)}: ${realm.host} answered no token`,
        formatReference(ref),
      );
    }
    return `Bearer ${token}`;
  }
}

/** The registry's error answer as an OciError naming the reference. */
async function statusError(ref: OciReference, res: Response, action: string): Promise<OciError> {
  let detail = '';
  try {
    const text = await res.text();
    const body = JSON.parse(text) as { errors?: { code?: string; message?: string }[] };
    const first = body.errors?.[0];
    if (first) detail = `: ${[first.code, first.message].filter(Boolean).join(': ')}`;
  } catch {
    // not a registry error body
  }
  const code: OciErrorCode =
    res.status === 401 || res.status === 403
      ? 'oci-unauthorized'
      : res.status === 404
        ? 'oci-not-found'
        : 'oci-registry';
  const what = code === 'oci-unauthorized' ? 'unauthorized' : code === 'oci-not-found' ? 'not found' : 'registry error';
  const name = formatReference(ref);
  return new OciError(code, `${action} ${name}: ${what} (HTTP ${res.status})${detail}`, name, res.status);
}

/** Reads a body, failing once it passes `max` bytes (a registry lying about sizes is cut off). */
export async function readCapped(res: Response, max: number, onOverflow: () => never): Promise<Uint8Array> {
  const declared = Number(res.headers.get('content-length') ?? NaN);
  if (Number.isFinite(declared) && declared > max) {
    await res.body?.cancel();
    onOverflow();
  }
  return readStreamCapped(res.body, max, onOverflow);
}
