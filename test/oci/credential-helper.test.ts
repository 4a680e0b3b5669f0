/**
 * Docker credential helpers (`credsStore`, `credHelpers` in the Docker config file) against the real
 * htpasswd registry: the test writes a real helper executable (a shell script speaking the
 * docker-credential-helpers protocol: `get`, the server URL on stdin, JSON on stdout) and krmfn
 * pushes and renders with the credentials it answers.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dockerCredentials } from '../../src/node/oci/index.ts';
import { runCli } from '../harness/golden.ts';
import { TESTDATA } from '../wasm/fixtures.ts';
import { REGISTRY_BINARY, SKIP_MESSAGE, startRegistry, type TestRegistry } from './registry.ts';

if (!REGISTRY_BINARY) console.warn(`test/oci/credential-helper.test.ts skipped: ${SKIP_MESSAGE}`);

const USER = 'helperbot';
const PASSWORD = 'from-the-helper';
const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  mode: fast\n';

describe.skipIf(!REGISTRY_BINARY)('Docker credential helpers with an htpasswd registry', () => {
  let reg: TestRegistry;
  let tmp: string;
  let bin: string;
  let n = 0;

  /**
   * Writes `docker-credential-<name>`: it logs each action and the server URL it was given, and
   * answers the credentials for `server` (or Docker's not-found answer for any other server).
   */
  function helper(name: string, server: string, answer: string): string {
    const log = join(tmp, `${name}.log`);
    writeFileSync(
      join(bin, `docker-credential-${name}`),
      [
        '#!/bin/sh',
        'read -r url',
        `printf '%s %s\\n' "$1" "$url" >> '${log}'`,
        `if [ "$1" = get ] && [ "$url" = '${server}' ]; then printf '%s' '${answer}'; exit 0; fi`,
        "echo 'credentials not found in native keychain'",
        'exit 1',
        '',
      ].join('\n'),
    );
    chmodSync(join(bin, `docker-credential-${name}`), 0o755);
    return log;
  }

  function env(config: object): Record<string, string> {
    const docker = join(tmp, `docker${++n}`);
    mkdirSync(docker);
    writeFileSync(join(docker, 'config.json'), JSON.stringify(config));
    return { DOCKER_CONFIG: docker, KRMFN_CACHE_DIR: join(tmp, `cache${n}`), PATH: `${bin}:${process.env.PATH}` };
  }

  beforeAll(async () => {
    reg = await startRegistry({ username: USER, password: PASSWORD });
    tmp = mkdtempSync(join(tmpdir(), 'krmfn-cred-helper-'));
    bin = join(tmp, 'bin');
    mkdirSync(bin);
  });
  afterAll(async () => {
    await reg?.stop();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  const creds = JSON.stringify({ ServerURL: '', Username: USER, Secret: PASSWORD });

  it('credsStore: pushes and renders a registry WASM image with what the helper answers', async () => {
    const log = helper('store', reg.host, creds);
    const e = env({ credsStore: 'store' });
    const image = `${reg.host}/private/annotate:v1`;
    const pushed = await runCli(['wasm', 'push', join(TESTDATA, 'annotate-yaml.wasm'), image], { cwd: tmp, env: e });
    expect(pushed).toMatchObject({ exitCode: 0, stderr: '' });
    const dir = join(tmp, 'pkg');
    mkdirSync(dir);
    writeFileSync(
      join(dir, 'Kptfile'),
      `apiVersion: kpt.dev/v1\nkind: Kptfile\nmetadata:\n  name: p\npipeline:\n  mutators:\n  - image: ${image}\n`,
    );
    writeFileSync(join(dir, 'cm.yaml'), CM);
    const r = await runCli(['fn', 'render', dir, '--allow-alpha-wasm'], { cwd: tmp, env: e });
    expect(r.exitCode).toBe(0);
    expect(readFileSync(join(dir, 'cm.yaml'), 'utf8')).toContain('wasm.krmfn.dev/touched: "true"');
    // The helper got `get` and the registry host on stdin, once per run.
    expect(readFileSync(log, 'utf8')).toBe(`get ${reg.host}\nget ${reg.host}\n`);
  });

  it('credHelpers for the host wins over credsStore and auths', async () => {
    helper('wrongstore', reg.host, JSON.stringify({ ServerURL: '', Username: USER, Secret: 'wrong' }));
    const log = helper('perhost', reg.host, creds);
    const wrongAuth = Buffer.from(`${USER}:wrong`).toString('base64');
    const e = env({
      credsStore: 'wrongstore',
      credHelpers: { [reg.host]: 'perhost' },
      auths: { [reg.host]: { auth: wrongAuth } },
    });
    const r = await runCli(['wasm', 'pull', `${reg.host}/private/annotate:v1`, join(tmp, 'out.wasm')], {
      cwd: tmp,
      env: e,
    });
    expect(r).toMatchObject({ exitCode: 0, stderr: '' });
    expect(readFileSync(join(tmp, 'out.wasm'))).toEqual(readFileSync(join(TESTDATA, 'annotate-yaml.wasm')));
    expect(readFileSync(log, 'utf8')).toBe(`get ${reg.host}\n`);
    expect(existsSync(join(tmp, 'wrongstore.log'))).toBe(false);
  });

  it('a helper holding nothing for the registry means anonymous: the registry refuses, naming the image', async () => {
    helper('empty', 'other.example', creds);
    const image = `${reg.host}/private/annotate:v1`;
    const r = await runCli(['wasm', 'pull', image, join(tmp, 'none.wasm')], {
      cwd: tmp,
      env: env({ credsStore: 'empty' }),
    });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`pulling ${image}: unauthorized (HTTP 401)`);
  });

  it('a helper that is not installed, or fails, is an error naming it', async () => {
    const image = `${reg.host}/private/annotate:v1`;
    const missing = await runCli(['wasm', 'pull', image, join(tmp, 'x.wasm')], {
      cwd: tmp,
      env: env({ credsStore: 'not-installed' }),
    });
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain(
      `error getting credentials for ${reg.host} from docker-credential-not-installed: executable file not found in $PATH`,
    );
    writeFileSync(join(bin, 'docker-credential-broken'), '#!/bin/sh\necho keychain locked\nexit 3\n');
    chmodSync(join(bin, 'docker-credential-broken'), 0o755);
    const broken = await runCli(['wasm', 'pull', image, join(tmp, 'y.wasm')], {
      cwd: tmp,
      env: env({ credHelpers: { [reg.host]: 'broken' } }),
    });
    expect(broken.exitCode).toBe(1);
    expect(broken.stderr).toContain('from docker-credential-broken: exit status 3, out: `keychain locked`');
    expect(broken.stderr).not.toMatch(/\n\s+at /);
  });

  it('sends Docker Hub as https://index.docker.io/v1/ and answers an identity token as anonymous', async () => {
    const hub = helper('hub', 'https://index.docker.io/v1/', creds);
    expect(await dockerCredentials(env({ credsStore: 'hub' }))('docker.io')).toEqual({
      username: USER,
      password: PASSWORD,
    });
    expect(readFileSync(hub, 'utf8')).toBe('get https://index.docker.io/v1/\n');
    helper('token', reg.host, JSON.stringify({ ServerURL: reg.host, Username: '<token>', Secret: 'refresh' }));
    expect(await dockerCredentials(env({ credsStore: 'token' }))(reg.host)).toBeUndefined();
  });
});
