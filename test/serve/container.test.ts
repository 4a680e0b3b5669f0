import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_LIMITS } from '../../src/core/limits.ts';
import type { BytesRunner, ResolveContext, RunContext } from '../../src/core/function.ts';
import {
  containerRunArgs,
  createContainerRuntime,
  filterContainerStderr,
  parseContainerEngine,
} from '../../src/node/runtimes/container.ts';

const fakeDocker = fileURLToPath(new URL('./fixtures/fake-docker', import.meta.url));
const resolveCtx = (allowNetwork = false): ResolveContext => ({
  displayName: 'x',
  packagePath: '/pkg',
  cwd: process.cwd(),
  allowExec: false,
  allowWasm: false,
  allowNetwork,
  limits: { ...DEFAULT_LIMITS },
});
const runCtx = (ms = 10_000): RunContext => ({
  limits: { ...DEFAULT_LIMITS },
  signal: new AbortController().signal,
  deadline: Date.now() + ms,
  now: Date.now,
  env: {},
  validator: false,
});
const input = new TextEncoder().encode('apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\n');

describe('container runtime: the command kpt would run', () => {
  it('uses kpt sandbox flags by default', () => {
    expect(containerRunArgs('gcr.io/x/fn:v1', {}, false)).toEqual([
      'run',
      '--rm',
      '-i',
      '--network',
      'none',
      '--user',
      'nobody',
      '--security-opt=no-new-privileges',
      '--pull',
      'missing',
      'gcr.io/x/fn:v1',
    ]);
  });
  it('adds network, user, pull policy, mounts and env only when asked', () => {
    const args = containerRunArgs(
      'img:1',
      {
        pullPolicy: 'Always',
        asCurrentUser: { uid: 1000, gid: 100 },
        mounts: [
          { source: '/a', target: '/b' },
          { source: '/c', target: '/d', readonly: false },
        ],
        env: ['K=V', 'HOME'],
      },
      true,
    );
    expect(args.join(' ')).toBe(
      'run --rm -i --network host --user 1000:100 --security-opt=no-new-privileges --pull always ' +
        '--mount type=bind,source=/a,target=/b,readonly --mount type=bind,source=/c,target=/d -e K=V -e HOME img:1',
    );
  });
  it('rejects unknown engines with kpt message', () => {
    expect(() => parseContainerEngine('lxc')).toThrow(
      'unsupported runtime: "lxc" the runtime must be either docker or podman',
    );
    expect(parseContainerEngine('podman')).toBe('podman');
  });
  it('filters pull progress from stderr and drops the trailing newline', () => {
    const raw =
      "Unable to find image 'a' locally\nv1: Pulling from a\nabc: Pull complete\nreal message\nDigest: sha256:1\nStatus: Downloaded newer image for a\nlast\n";
    expect(filterContainerStderr(raw, 'docker')).toBe('real message\nlast');
  });
});

describe('container runtime through a fake docker CLI (no container engine runs on this machine)', () => {
  it('runs the image with the ResourceList on stdin and filters stderr', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'krmfn-docker-'));
    try {
      const log = join(dir, 'argv');
      const rt = createContainerRuntime({ program: fakeDocker, hostEnv: { ...process.env, FAKE_DOCKER_LOG: log } });
      const runner = (await rt.resolve({ image: 'example.com/echo:v1' }, resolveCtx())) as BytesRunner;
      const out = await runner.run(input, runCtx());
      expect(out.exitCode).toBe(0);
      expect(new TextDecoder().decode(out.stdout)).toBe(new TextDecoder().decode(input));
      expect(out.stderr).toBe('echo: done');
      expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual(containerRunArgs('example.com/echo:v1', {}, false));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('reports a failing container with its exit code and stderr', async () => {
    const rt = createContainerRuntime({ program: fakeDocker });
    const runner = (await rt.resolve({ image: 'example.com/fail:v1' }, resolveCtx())) as BytesRunner;
    const out = await runner.run(input, runCtx());
    expect(out.exitCode).toBe(3);
    expect(out.stderr).toBe('fail: something broke');
  });
  it('kills the container process at the deadline', async () => {
    const rt = createContainerRuntime({ program: fakeDocker });
    const runner = (await rt.resolve({ image: 'example.com/sleep:v1' }, resolveCtx())) as BytesRunner;
    await expect(runner.run(input, runCtx(300))).rejects.toMatchObject({ code: 'timeout' });
  });
  it('refuses docker clients older than 20.10', async () => {
    const rt = createContainerRuntime({
      program: fakeDocker,
      hostEnv: { ...process.env, FAKE_DOCKER_VERSION: '19.03.1' },
    });
    const runner = (await rt.resolve({ image: 'example.com/echo:v1' }, resolveCtx())) as BytesRunner;
    await expect(runner.run(input, runCtx())).rejects.toThrow(
      /docker client version must be v20.10.0 or greater: found v19.03.1/,
    );
  });
});

describe('container runtime without a container engine', () => {
  it('fails with a clear error when the engine program is missing', async () => {
    const rt = createContainerRuntime({ program: '/nonexistent/docker' });
    const runner = (await rt.resolve({ image: 'example.com/echo:v1' }, resolveCtx())) as BytesRunner;
    await expect(runner.run(input, runCtx())).rejects.toMatchObject({
      code: 'container-unavailable',
      message: expect.stringContaining('docker must be running to use this command'),
    });
  });
});

describe('container runtime with the real docker client and no daemon (none runs on this machine)', () => {
  const onPath = (process.env.PATH ?? '').split(':').some((d) => {
    try {
      readFileSync(join(d, 'docker'));
      return true;
    } catch {
      return false;
    }
  });
  it.runIf(onPath)('reports that docker must be running', async () => {
    const rt = createContainerRuntime({ hostEnv: { ...process.env, DOCKER_HOST: 'unix:///nonexistent/docker.sock' } });
    const runner = (await rt.resolve({ image: 'example.com/echo:v1' }, resolveCtx())) as BytesRunner;
    await expect(runner.run(input, runCtx())).rejects.toMatchObject({
      code: 'container-unavailable',
      message: expect.stringMatching(
        /Cannot connect to the Docker daemon[\s\S]*docker must be running to use this command/,
      ),
    });
  });
});
