/**
 * Registry authentication as the distribution spec and Docker do it: a `WWW-Authenticate` challenge
 * on a 401 answer is either `Basic realm=…` (send the credentials as Basic) or
 * `Bearer realm=…,service=…,scope=…` (GET the realm with `service` and `scope`, anonymously or with
 * the credentials as Basic, and send the `token` / `access_token` answered as Bearer).
 * `parseChallenge` reads the header (quoted and bare parameter values, RFC 7235).
 */
export interface Credentials {
  username: string;
  password: string;
}

export interface Challenge {
  scheme: string;
  params: Record<string, string>;
}

/** The first challenge of a `WWW-Authenticate` header (registries send one). */
export function parseChallenge(header: string): Challenge | undefined {
  const m = /^\s*([A-Za-z][\w-]*)\s*(.*)$/s.exec(header);
  if (!m) return undefined;
  const params: Record<string, string> = {};
  const re = /([A-Za-z][\w-]*)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]*))\s*,?\s*/gy;
  const rest = m[2];
  re.lastIndex = 0;
  for (let p = re.exec(rest); p; p = re.exec(rest)) {
    params[p[1].toLowerCase()] = p[2] !== undefined ? p[2].replace(/\\(.)/g, '$1') : p[3];
    if (re.lastIndex >= rest.length) break;
  }
  return { scheme: m[1].toLowerCase(), params };
}

export function basicAuthorization(c: Credentials): string {
  const bytes = new TextEncoder().encode(`${c.username}:${c.password}`);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return `Basic ${btoa(bin)}`;
}

/** The scope a request for `repository` needs. */
export function repositoryScope(repository: string, push: boolean): string {
  return `repository:${repository}:${push ? 'pull,push' : 'pull'}`;
}
