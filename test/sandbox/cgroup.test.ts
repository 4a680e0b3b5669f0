/**
 * cgroup v2 limits of the sandbox runtime (src/node/sandbox/cgroup.ts): which parent cgroup is
 * chosen, or why none is (read from /proc/self/cgroup and mountinfo texts and cgroup directories
 * written here as real files), and, where this host gives krmfn a writable cgroup v2 subtree, the
 * probe function allocating 1 GiB under a 256 MiB memory.max killed with a clear error. Hosts
 * without one (cgroup v1, or no delegated subtree: this test says which) skip that case and check
 * that the runtime reports the prlimit fallback with its reason instead.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isKrmfnError } from '../../src/core/errors.ts';
import type { BytesRunner } from '../../src/core/function.ts';
import { withLimits } from '../../src/core/limits.ts';
import {
  chooseCgroup,
  ownCgroupDir,
  realCgroupHost,
  type CgroupChoice,
  type CgroupHost,
} from '../../src/node/sandbox/cgroup.ts';
import { createSandboxRuntime, type SandboxImageReport } from '../../src/node/sandbox/runtime.ts';
import { enc, memorySource, probeImage } from './helpers.ts';

let work: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'krmfn-cgroup-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const mountinfo = (mountPoint: string, root = '/') =>
  `24 1 0:21 / /proc rw - proc proc rw\n35 24 0:30 ${root} ${mountPoint} rw,nosuid - cgroup2 cgroup2 rw\n`;

/** A directory shaped like a cgroup v2 directory: its controller files. */
function cgroupDir(path: string, offered: string, enabled: string): string {
  mkdirSync(path, { recursive: true });
  writeFileSync(join(path, 'cgroup.controllers'), `${offered}\n`);
  writeFileSync(join(path, 'cgroup.subtree_control'), `${enabled}\n`);
  return path;
}

function host(fields: Partial<CgroupHost>): CgroupHost {
  return { env: {}, selfCgroup: '', mountinfo: '', uid: 0, ...fields };
}

describe('choosing the parent cgroup', () => {
  it('falls back to prlimit on a cgroup v1 host, saying so', () => {
    const choice = chooseCgroup(host({ selfCgroup: '4:memory:/a\n1:cpu:/\n' }));
    expect(choice).toEqual({
      kind: 'prlimit',
      note: 'no cgroup v2 memory limit: this host has no cgroup v2 hierarchy for krmfn (cgroup v1); memory is capped by RLIMIT_AS (address space) instead',
    });
  });

  it("maps the process's cgroup through the cgroup2 mount, also when the mount's root is a subtree", () => {
    expect(ownCgroupDir(host({ selfCgroup: '0::/ci/job\n', mountinfo: mountinfo('/sys/fs/cgroup') }))).toBe(
      '/sys/fs/cgroup/ci/job',
    );
    expect(ownCgroupDir(host({ selfCgroup: '0::/ci/job\n', mountinfo: mountinfo('/mnt/cg', '/ci') }))).toBe(
      '/mnt/cg/job',
    );
    expect(ownCgroupDir(host({ selfCgroup: '0::/x\n', mountinfo: mountinfo('/mnt/cg', '/ci') }))).toBeUndefined();
  });

  it("uses krmfn's own cgroup when it enables memory and pids for its children", () => {
    const mount = join(work, 'own');
    cgroupDir(join(mount, 'svc'), 'cpu memory pids', 'memory pids');
    const choice = chooseCgroup(host({ selfCgroup: '0::/svc\n', mountinfo: mountinfo(mount) }));
    expect(choice).toEqual({ kind: 'cgroup', parent: join(mount, 'svc'), cpu: false });
  });

  it('names the cgroup and the missing controllers when it cannot, and the variable to set', () => {
    const mount = join(work, 'missing');
    cgroupDir(join(mount, 'session'), 'cpu io', '');
    const choice = chooseCgroup(host({ selfCgroup: '0::/session\n', mountinfo: mountinfo(mount) }));
    expect(choice).toEqual({
      kind: 'prlimit',
      note: `no cgroup v2 memory limit: ${join(mount, 'session')} does not offer the memory and pids controllers (it has: cpu io) (set KRMFN_SANDBOX_CGROUP to a delegated cgroup); memory is capped by RLIMIT_AS (address space) instead`,
    });
  });

  it('takes the parent of a leaf for an unprivileged krmfn in a delegated subtree, never for root', () => {
    const mount = join(work, 'delegated');
    cgroupDir(join(mount, 'user', 'app'), 'memory pids cpu', 'memory pids cpu');
    cgroupDir(join(mount, 'user', 'app', 'main'), 'memory pids cpu', '');
    const fields = { selfCgroup: '0::/user/app/main\n', mountinfo: mountinfo(mount) };
    expect(chooseCgroup(host({ ...fields, uid: 1000 }))).toEqual({
      kind: 'cgroup',
      parent: join(mount, 'user', 'app'),
      cpu: true,
    });
    expect(chooseCgroup(host({ ...fields, uid: 0 })).kind).toBe('prlimit');
  });

  it('uses KRMFN_SANDBOX_CGROUP first, and says why when it is unusable', () => {
    const named = cgroupDir(join(work, 'named'), 'memory pids', 'memory pids');
    expect(chooseCgroup(host({ env: { KRMFN_SANDBOX_CGROUP: named } }))).toEqual({
      kind: 'cgroup',
      parent: named,
      cpu: false,
    });
    const bare = cgroupDir(join(work, 'bare'), 'memory', 'memory');
    const choice = chooseCgroup(host({ env: { KRMFN_SANDBOX_CGROUP: bare } }));
    expect(choice.kind === 'prlimit' && choice.note).toContain(
      `KRMFN_SANDBOX_CGROUP: ${bare} does not offer the memory and pids controllers (it has: memory)`,
    );
  });
});

const thisHost = chooseCgroup(realCgroupHost(process.env));
if (thisHost.kind === 'prlimit')
  console.warn(`test/sandbox/cgroup.test.ts: memory kill case skipped: ${thisHost.note}`);

async function runProbe(
  mode: string,
  memoryBytes: number,
  onImage?: (r: SandboxImageReport) => void,
  cgroup?: CgroupChoice,
) {
  const img = probeImage(mode);
  const provenanced = { ...img, provenance: { reference: img.reference, digest: img.id, source: 'pulled' as const } };
  const rt = createSandboxRuntime({
    source: memorySource([provenanced]),
    cacheDir: join(work, 'cache'),
    hostEnv: { PATH: process.env.PATH },
    cwd: work,
    memoryBytes,
    ...(onImage ? { onImage } : {}),
    ...(cgroup ? { cgroup } : {}),
  });
  const limits = withLimits(undefined);
  const runner = (await rt.resolve(
    { image: img.reference },
    {
      displayName: img.reference,
      packagePath: '',
      cwd: work,
      allowExec: false,
      allowWasm: false,
      allowNetwork: false,
      limits,
    },
  )) as BytesRunner;
  return runner.run(enc('apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems: []\n'), {
    limits,
    signal: new AbortController().signal,
    deadline: Date.now() + 30_000,
    now: Date.now,
    env: {},
    validator: false,
  });
}

describe('a call in a cgroup', () => {
  it('writes the limits, then runs the function after its shell wrote its pid to cgroup.procs', async () => {
    // A plain directory stands in for the cgroup: the files krmfn writes are checked, the kernel's
    // enforcement is not simulated (the next block runs it where the host allows).
    const parent = join(work, 'plain-parent');
    mkdirSync(parent);
    const r = await runProbe('echo', 256 * 1024 * 1024, undefined, { kind: 'cgroup', parent, cpu: true });
    expect(r.exitCode).toBe(0);
    expect(new TextDecoder().decode(r.stdout)).toContain('kind: ResourceList');
    const [call] = readdirSync(parent);
    expect(call).toMatch(new RegExp(`^krmfn-${process.pid}-\\d+$`));
    const file = (name: string) => readFileSync(join(parent, call, name), 'utf8').trim();
    expect([file('memory.max'), file('pids.max'), file('cpu.max')]).toEqual(['268435456', '1024', '100000 100000']);
    expect(file('cgroup.procs')).toMatch(/^[1-9]\d*$/);
    expect(existsSync(join(parent, call, 'memory.swap.max'))).toBe(false);
  });

  it('fails the call with a coded error when the cgroup cannot be created', async () => {
    const parent = join(work, 'no-such-parent');
    let error: unknown;
    try {
      await runProbe('echo', 256 * 1024 * 1024, undefined, { kind: 'cgroup', parent, cpu: false });
    } catch (e) {
      error = e;
    }
    expect(isKrmfnError(error) && `${error.code}: ${error.message}`).toMatch(
      new RegExp(`^container-unavailable: cannot create a cgroup for example.test/probe:echo under ${parent}: ENOENT`),
    );
  });
});

describe('memory limits on this host', () => {
  it('reports which limit applies with each image, and why there is no cgroup', async () => {
    const reports: SandboxImageReport[] = [];
    const r = await runProbe('echo', 512 * 1024 * 1024, (report) => reports.push(report));
    expect(r.exitCode).toBe(0);
    expect(reports).toHaveLength(1);
    if (thisHost.kind === 'prlimit') {
      expect(reports[0]).toMatchObject({ limits: 'prlimit', limitsNote: thisHost.note });
    } else {
      expect(reports[0].limits).toBe('cgroup');
      expect(reports[0]).not.toHaveProperty('limitsNote');
    }
  });

  it.skipIf(thisHost.kind !== 'cgroup')('kills a function allocating past memory.max with a clear error', async () => {
    let error: unknown;
    try {
      await runProbe('alloc', 256 * 1024 * 1024);
    } catch (e) {
      error = e;
    }
    expect(isKrmfnError(error) && `${error.code}: ${error.message}`).toBe(
      'limit-exceeded: example.test/probe:alloc: the function was killed for using more than 268435456 bytes of memory (cgroup memory.max)',
    );
  });
});
