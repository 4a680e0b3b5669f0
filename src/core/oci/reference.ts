/**
 * Image references parsed as Docker parses them (distribution/reference's grammar and
 * `ParseNormalizedNamed`): the first path component names a registry only when it holds a `.` or a
 * `:` or is `localhost`; otherwise the registry is `docker.io` and a one-component repository gets
 * `library/`. `index.docker.io` is `docker.io`. A tag follows the last `:` after the last `/`; a
 * digest follows `@`. Repositories are lower case. `formatReference` gives the normalised form back
 * (`docker.io/library/nginx:latest`); `apiHost` gives the host that serves the v2 API.
 *
 * Anything that does not parse throws `OciError` with code `oci-reference`, naming the input.
 */
import { OciError } from './errors.ts';

export interface OciReference {
  /** Registry host (with port), e.g. `docker.io`, `localhost:5000`, `ghcr.io`. */
  registry: string;
  /** Repository path inside the registry, e.g. `library/nginx`. */
  repository: string;
  /** Tag, when given (`latest` is added only when neither tag nor digest is). */
  tag?: string;
  /** `sha256:<64 hex>` when pinned. */
  digest?: string;
}

export const DOCKER_HUB = 'docker.io';
const DOCKER_HUB_API = 'registry-1.docker.io';

const COMPONENT = /^[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*$/;
const TAG = /^[\w][\w.-]{0,127}$/;
const DIGEST = /^sha256:[0-9a-f]{64}$/;
const HOST =
  /^(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*|\[[0-9a-fA-F:.]+\])(?::[0-9]+)?$/;

function bad(input: string, why: string): never {
  throw new OciError('oci-reference', `invalid image reference ${JSON.stringify(input)}: ${why}`, input);
}

export function parseReference(input: string): OciReference {
  let rest = input.trim();
  if (!rest) bad(input, 'empty');
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!DIGEST.test(digest)) bad(input, 'a digest is sha256: and 64 lower-case hex digits');
  }
  let tag: string | undefined;
  const colon = rest.lastIndexOf(':');
  if (colon > rest.lastIndexOf('/')) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!TAG.test(tag)) bad(input, `invalid tag ${JSON.stringify(tag)}`);
  }
  const slash = rest.indexOf('/');
  let registry = DOCKER_HUB;
  let repository = rest;
  if (slash >= 0) {
    const first = rest.slice(0, slash);
    if (first.includes('.') || first.includes(':') || first === 'localhost') {
      registry = first === 'index.docker.io' ? DOCKER_HUB : first;
      repository = rest.slice(slash + 1);
    }
  }
  if (!HOST.test(registry)) bad(input, `invalid registry ${JSON.stringify(registry)}`);
  if (registry === DOCKER_HUB && !repository.includes('/')) repository = `library/${repository}`;
  if (!repository) bad(input, 'no repository');
  if (repository.length > 255) bad(input, 'repository name longer than 255 characters');
  for (const c of repository.split('/')) {
    if (!COMPONENT.test(c))
      bad(input, `invalid repository component ${JSON.stringify(c)} (lower case letters, digits and separators)`);
  }
  const ref: OciReference = { registry, repository };
  if (tag === undefined && digest === undefined) ref.tag = 'latest';
  else if (tag !== undefined) ref.tag = tag;
  if (digest !== undefined) ref.digest = digest;
  return ref;
}

/** `registry/repository[:tag][@digest]`. */
export function formatReference(ref: OciReference): string {
  return `${ref.registry}/${ref.repository}${ref.tag ? `:${ref.tag}` : ''}${ref.digest ? `@${ref.digest}` : ''}`;
}

/** The tag or digest the manifest endpoint is asked for (the digest wins). */
export function manifestReference(ref: OciReference): string {
  return ref.digest ?? ref.tag ?? 'latest';
}

/** The host serving `/v2/` for a registry. */
export function apiHost(registry: string): string {
  return registry === DOCKER_HUB ? DOCKER_HUB_API : registry;
}

/** Loopback registries are spoken to over plain HTTP (as Docker and go-containerregistry do). */
export function isLoopbackRegistry(registry: string): boolean {
  const host = registry.replace(/:[0-9]+$/, '');
  return host === 'localhost' || /^127\.\d+\.\d+\.\d+$/.test(host) || host === '[::1]';
}
