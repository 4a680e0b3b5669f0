/**
 * A real registry for tests: Debian's `docker-registry` (the CNCF distribution registry) on a
 * loopback port, with its config and storage in a temp dir, optionally behind htpasswd auth (a
 * bcrypt entry made by `htpasswd -Bbn`), optionally answering browsers from any origin (`cors`: the
 * registry's `http.headers` config sets the CORS headers on every answer, OPTIONS preflights
 * included). `REGISTRY_BINARY` is undefined when the package is not
 * installed; suites then skip with a message naming the package (CI installs it: .ci/apt-packages).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const REGISTRY_BINARY = ['/usr/bin/docker-registry', '/usr/sbin/docker-registry'].find((p) => existsSync(p));
export const SKIP_MESSAGE = 'docker-registry is not installed (apt-get install docker-registry apache2-utils)';

export interface TestRegistry {
  /** `127.0.0.1:PORT` */
  host: string;
  dir: string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

const CORS_HEADERS =
  "  headers:\n    Access-Control-Allow-Origin: ['*']\n    Access-Control-Allow-Methods: ['GET', 'HEAD', 'OPTIONS']\n" +
  "    Access-Control-Allow-Headers: ['Accept', 'Authorization']\n" +
  "    Access-Control-Expose-Headers: ['Docker-Content-Digest', 'WWW-Authenticate']\n";

export async function startRegistry(
  auth?: { username: string; password: string },
  opts: { cors?: boolean } = {},
): Promise<TestRegistry> {
  if (!REGISTRY_BINARY) throw new Error(SKIP_MESSAGE);
  const dir = mkdtempSync(join(tmpdir(), 'krmfn-registry-'));
  const port = await freePort();
  let authBlock = '';
  if (auth) {
    const line = execFileSync('htpasswd', ['-Bbn', auth.username, auth.password], { encoding: 'utf8' }).trim();
    writeFileSync(join(dir, 'htpasswd'), `${line}\n`);
    authBlock = `auth:\n  htpasswd:\n    realm: krmfn-test\n    path: ${join(dir, 'htpasswd')}\n`;
  }
  writeFileSync(
    join(dir, 'config.yml'),
    `version: 0.1\nlog:\n  level: error\n  accesslog:\n    disabled: true\nstorage:\n  filesystem:\n    rootdirectory: ${join(dir, 'data')}\n  delete:\n    enabled: true\nhttp:\n  addr: 127.0.0.1:${port}\n${opts.cors ? CORS_HEADERS : ''}${authBlock}`,
  );
  const child: ChildProcess = spawn(REGISTRY_BINARY, ['serve', join(dir, 'config.yml')], { stdio: 'ignore' });
  const host = `127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) break;
    const ok = await fetch(`http://${host}/v2/`).then(
      (r) => r.status === 200 || r.status === 401,
      () => false,
    );
    if (ok) return { host, dir, stop };
    await new Promise((r) => setTimeout(r, 50));
  }
  await stop();
  throw new Error(`docker-registry did not start on ${host}`);
}
