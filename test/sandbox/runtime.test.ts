/**
 * The sandbox runtime (src/node/sandbox/runtime.ts) running the static probe function under the
 * real bubblewrap: the ResourceList round trip, kpt's stderr rule, the user (nobody / current),
 * working directory and environment, read-only root and private /tmp, network only when granted,
 * `--mount`, the deadline killing the whole process tree, the output and memory caps, and the
 * errors for an image without `nobody` and a host without bubblewrap.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isKrmfnError } from '../../src/core/errors.ts';
import type { BytesOutcome, BytesRunner, FunctionRuntime } from '../../src/core/function.ts';
import { withLimits, type Limits } from '../../src/core/limits.ts';
import { parse } from 'yaml';
import { createSandboxRuntime, type SandboxRuntimeOptions } from '../../src/node/sandbox/runtime.ts';
import { enc, image, layer, memorySource, probeImage, probeLayer } from './helpers.ts';

const INPUT = enc(
  'apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: in\n',
);
const images = [
  probeImage('echo'),
  probeImage('probe'),
  probeImage('hang'),
  probeImage('flood'),
  probeImage('alloc'),
  probeImage('fail'),
  image('example.test/probe:missing-workdir', [probeLayer()], { Entrypoint: ['/fn', 'probe'], WorkingDir: '/srv/app' }),
  image('example.test/no-nobody:1', [layer([{ path: 'fn', data: readFileSync('/bin/true'), mode: 0o755 }])], {
    Entrypoint: ['/fn'],
  }),
];

let work: string;
let listener: Server;
let port: number;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'krmfn-sandbox-'));
  listener = createServer((s) => s.end());
  await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
  port = (listener.address() as { port: number }).port;
});
afterAll(async () => {
  await new Promise((r) => listener.close(r));
  rmSync(work, { recursive: true, force: true });
});

function runtime(extra: Partial<SandboxRuntimeOptions> = {}): FunctionRuntime {
  return createSandboxRuntime({
    source: memorySource(images),
    cacheDir: join(work, 'cache'),
    hostEnv: { PATH: process.env.PATH, PROBE_PORT: String(port) },
    cwd: work,
    ...extra,
  });
}

async function call(
  rt: FunctionRuntime,
  ref: string,
  opts: { network?: boolean; limits?: Partial<Limits>; timeoutMs?: number } = {},
): Promise<BytesOutcome> {
  const limits = withLimits(opts.limits);
  const runner = (await rt.resolve(
    { image: ref },
    {
      displayName: ref,
      packagePath: '',
      cwd: work,
      allowExec: false,
      allowWasm: false,
      allowNetwork: !!opts.network,
      limits,
    },
  )) as BytesRunner;
  const deadline = Date.now() + (opts.timeoutMs ?? 20_000);
  return runner.run(INPUT, {
    limits,
    signal: new AbortController().signal,
    deadline,
    now: Date.now,
    env: {},
    validator: false,
  });
}

async function probe(rt: FunctionRuntime, network = false): Promise<Record<string, string>> {
  const r = await call(rt, 'example.test/probe:probe', { network });
  expect(r.exitCode).toBe(0);
  return (parse(new TextDecoder().decode(r.stdout)) as { items: { data: Record<string, string> }[] }).items[0].data;
}

async function failure(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (!isKrmfnError(e)) throw e;
    return `${e.code}: ${e.message}`;
  }
  throw new Error('expected a failure');
}

describe('sandbox runtime', () => {
  it('passes the ResourceList through and shows stderr as kpt shows a container', async () => {
    const r = await call(runtime(), 'example.test/probe:echo');
    expect(r.exitCode).toBe(0);
    expect(new TextDecoder().decode(r.stdout)).toBe(new TextDecoder().decode(INPUT));
    expect(r.stderr).toBe('first line\nsecond line');
  });

  it('runs as nobody in the image working directory with its environment, a read-only root and a private /tmp', async () => {
    const data = await probe(runtime());
    expect(data).toMatchObject({ uid: '65534', gid: '65534', cwd: '/work', home: '/nonexistent', foo: 'from-image' });
    expect(data).toMatchObject({ tmp: 'yes', root: 'no', mountWrite: 'no' });
    expect(readdirSync(work).includes('probe')).toBe(false);
  });

  it('creates a working directory the image lacks, as Docker does', async () => {
    const r = await call(runtime(), 'example.test/probe:missing-workdir');
    expect(r.exitCode).toBe(0);
    expect(new TextDecoder().decode(r.stdout)).toContain('cwd: "/srv/app"');
  });

  it('applies --env over the image environment and --as-current-user', async () => {
    const data = await probe(runtime({ env: ['FOO=from-flag'], asCurrentUser: { uid: 1234, gid: 5678 } }));
    expect(data).toMatchObject({ uid: '1234', gid: '5678', foo: 'from-flag', home: '/' });
  });

  it('has no network unless granted, and then the host resolver configuration', async () => {
    const rt = runtime({ env: ['PROBE_PORT'] });
    expect(await probe(rt)).toMatchObject({ net: 'refused', resolv: '' });
    const resolv = readFileSync('/etc/resolv.conf', 'utf8').split('\n')[0];
    expect(await probe(rt, true)).toMatchObject({ net: 'ok', resolv });
  });

  it('binds --mount sources read-only, or writable with rw=true', async () => {
    const inDir = join(work, 'in');
    const outDir = join(work, 'out');
    mkdirSync(inDir);
    mkdirSync(outDir);
    writeFileSync(join(inDir, 'value'), 'mounted value\n');
    const data = await probe(
      runtime({ mounts: ['type=bind,src=in,dst=/mnt/in', `type=bind,source=${outDir},target=/mnt/out,rw=true`] }),
    );
    expect(data).toMatchObject({ mounted: 'mounted value', mountWrite: 'yes' });
    expect(readFileSync(join(outDir, 'probe'), 'utf8')).toBe('');
  });

  it('fails like a container: exit code and stderr', async () => {
    const r = await call(runtime(), 'example.test/probe:fail');
    expect(r).toMatchObject({ exitCode: 1, stderr: 'bad input' });
  });

  it('kills the whole process tree at the deadline', async () => {
    const token = `krmfn-sleeper-${process.pid}-${Math.random().toString(36).slice(2)}`;
    const alive = (): boolean =>
      readdirSync('/proc')
        .filter((p) => /^\d+$/.test(p))
        .some((p) => {
          try {
            return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(token);
          } catch {
            return false;
          }
        });
    const running = failure(call(runtime({ env: [`TOKEN=${token}`] }), 'example.test/probe:hang', { timeoutMs: 3000 }));
    let sawSleeper = false;
    for (let i = 0; i < 25 && !sawSleeper; i++) {
      await new Promise((r) => setTimeout(r, 100));
      sawSleeper = alive();
    }
    expect(sawSleeper).toBe(true);
    expect(await running).toMatch(/^timeout: /);
    // The pid namespace is torn down asynchronously after bwrap dies: allow it a moment.
    for (let i = 0; i < 50 && alive(); i++) await new Promise((r) => setTimeout(r, 100));
    expect(alive()).toBe(false);
  });

  it('stops a function writing past the output cap', async () => {
    const msg = await failure(call(runtime(), 'example.test/probe:flood', { limits: { maxOutputBytes: 1024 * 1024 } }));
    expect(msg).toMatch(/^limit-exceeded: /);
  });

  it('caps the address space where no cgroup is used', async () => {
    const prlimitOnly = { kind: 'prlimit' as const, note: 'forced by the test' };
    const r = await call(runtime({ memoryBytes: 256 * 1024 * 1024, cgroup: prlimitOnly }), 'example.test/probe:alloc');
    expect(r).toMatchObject({ exitCode: 3, stderr: 'alloc failed' });
  });

  it('refuses an image without a nobody user as Docker does', async () => {
    const msg = await failure(call(runtime(), 'example.test/no-nobody:1'));
    expect(msg).toBe('function-failed: unable to find user nobody: no matching entries in passwd file');
  });

  it('names the fix when bubblewrap is missing', async () => {
    const msg = await failure(call(runtime({ bwrap: join(work, 'no-such-bwrap') }), 'example.test/probe:echo'));
    expect(msg).toMatch(/^container-unavailable: cannot start .*no-such-bwrap.*\n.*apt-get install bubblewrap/);
  });

  it('names the fix when user namespaces are not allowed', async () => {
    // The real bwrap, started in a user namespace whose limit of nested namespaces is 0.
    const restricted = join(work, 'bwrap-without-userns');
    writeFileSync(
      restricted,
      `#!/bin/sh\nexec unshare --user --map-root-user sh -c 'echo 0 > /proc/sys/user/max_user_namespaces && exec bwrap "$@"' bwrap "$@"\n`,
      { mode: 0o755 },
    );
    const msg = await failure(call(runtime({ bwrap: restricted }), 'example.test/probe:echo'));
    expect(msg).toMatch(
      /^container-unavailable: bubblewrap cannot create a sandbox here: bwrap: .*\n.*user namespaces/,
    );
  });

  it('pulls and unpacks an image once per runtime', async () => {
    const source = memorySource(images);
    const rt = runtime({ source });
    await call(rt, 'example.test/probe:echo');
    await call(rt, 'example.test/probe:echo');
    expect(source.gets).toBe(1);
  });
});
