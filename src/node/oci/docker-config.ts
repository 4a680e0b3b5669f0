/**
 * Registry credentials from the Docker config file, as `docker login` writes it:
 * `$DOCKER_CONFIG/config.json`, else `~/.docker/config.json`, `auths` keyed by registry host (also
 * written `https://host`, `http://host/...`; Docker Hub as `https://index.docker.io/v1/`), each with
 * `auth` (base64 `user:pass`) or `username` and `password`. Credential helpers (`credsStore`,
 * `credHelpers`) are not run: such registries are anonymous here. A missing or unreadable file means
 * no credentials.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Credentials } from '../../core/oci/auth.ts';

export type CredentialLookup = (registry: string) => Credentials | undefined;

interface AuthEntry {
  auth?: unknown;
  username?: unknown;
  password?: unknown;
}

export function dockerConfigPath(env: Record<string, string | undefined>): string {
  return env.DOCKER_CONFIG
    ? join(env.DOCKER_CONFIG, 'config.json')
    : join(env.HOME || homedir(), '.docker', 'config.json');
}

function hostOf(key: string): string {
  const h = key.replace(/^https?:\/\//, '').replace(/\/.*$/, '');
  return h === 'index.docker.io' || h === 'registry-1.docker.io' ? 'docker.io' : h;
}

function decode(entry: AuthEntry): Credentials | undefined {
  if (typeof entry.auth === 'string' && entry.auth) {
    const text = Buffer.from(entry.auth, 'base64').toString('utf8');
    const i = text.indexOf(':');
    if (i > 0) return { username: text.slice(0, i), password: text.slice(i + 1) };
  }
  if (typeof entry.username === 'string' && typeof entry.password === 'string') {
    return { username: entry.username, password: entry.password };
  }
  return undefined;
}

/** Reads the config once; the lookup answers per registry host. */
export function dockerCredentials(env: Record<string, string | undefined>): CredentialLookup {
  let auths: Record<string, AuthEntry> = {};
  try {
    const doc = JSON.parse(readFileSync(dockerConfigPath(env), 'utf8')) as { auths?: Record<string, AuthEntry> };
    if (doc.auths && typeof doc.auths === 'object') auths = doc.auths;
  } catch {
    // no config: anonymous
  }
  const byHost = new Map<string, Credentials>();
  for (const [key, entry] of Object.entries(auths)) {
    const c = entry && typeof entry === 'object' ? decode(entry) : undefined;
    if (c && !byHost.has(hostOf(key))) byHost.set(hostOf(key), c);
  }
  return (registry) => byHost.get(registry);
}
