/**
 * Registry credentials from the Docker config file, as `docker login` writes it:
 * `$DOCKER_CONFIG/config.json`, else `~/.docker/config.json`. Which store answers for a registry
 * follows docker/cli `cli/config/configfile/file.go` (`GetCredentialsStore`): a `credHelpers`
 * entry for the registry host, else `credsStore`, runs that credential helper
 * (credential-helper.ts); otherwise `auths` keyed by registry host (also written `https://host`,
 * `http://host/...`; Docker Hub as `https://index.docker.io/v1/`), each with `auth` (base64
 * `user:pass`) or `username` and `password`. A missing or unreadable file means no credentials.
 * Each registry is looked up once per lookup function (helpers are not re-run per request).
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Credentials } from '../../core/oci/auth.ts';
import { helperCredentials } from './credential-helper.ts';

export type CredentialLookup = (registry: string) => Promise<Credentials | undefined>;

interface AuthEntry {
  auth?: unknown;
  username?: unknown;
  password?: unknown;
}

interface DockerConfig {
  auths?: Record<string, AuthEntry>;
  credsStore?: unknown;
  credHelpers?: Record<string, unknown>;
}

/** Docker sends this server URL for Docker Hub (docker/docker `registry/config.go` IndexServer). */
const DOCKER_HUB_SERVER = 'https://index.docker.io/v1/';

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

function readConfig(env: Record<string, string | undefined>): DockerConfig {
  try {
    const doc = JSON.parse(readFileSync(dockerConfigPath(env), 'utf8')) as unknown;
    return doc && typeof doc === 'object' ? doc : {};
  } catch {
    return {}; // no config: anonymous
  }
}

/** Reads the config once; the lookup answers per registry host. */
export function dockerCredentials(env: Record<string, string | undefined>): CredentialLookup {
  const doc = readConfig(env);
  const byHost = new Map<string, Credentials>();
  for (const [key, entry] of Object.entries(doc.auths && typeof doc.auths === 'object' ? doc.auths : {})) {
    const c = entry && typeof entry === 'object' ? decode(entry) : undefined;
    if (c && !byHost.has(hostOf(key))) byHost.set(hostOf(key), c);
  }
  const helpers = new Map<string, string>();
  for (const [key, name] of Object.entries(
    doc.credHelpers && typeof doc.credHelpers === 'object' ? doc.credHelpers : {},
  )) {
    if (typeof name === 'string' && name && !helpers.has(hostOf(key))) helpers.set(hostOf(key), name);
  }
  const store = typeof doc.credsStore === 'string' && doc.credsStore ? doc.credsStore : undefined;
  const answers = new Map<string, Promise<Credentials | undefined>>();
  return (registry) => {
    let answer = answers.get(registry);
    if (!answer) {
      const helper = helpers.get(registry) ?? store;
      answer = helper
        ? helperCredentials({
            helper,
            serverUrl: registry === 'docker.io' ? DOCKER_HUB_SERVER : registry,
            registry,
            env,
          })
        : Promise.resolve(byHost.get(registry));
      answers.set(registry, answer);
    }
    return answer;
  };
}
