/**
 * cgroup v2 limits for sandboxed calls, where the host gives krmfn a cgroup subtree it may write:
 * each call runs in its own child cgroup with `memory.max` (resident memory, swap off), `pids.max`
 * and, when the cpu controller is offered, `cpu.max`; the kernel kills the function when it goes
 * over the memory limit, and `memory.events` tells krmfn so. Where no such subtree exists the
 * runtime falls back to prlimit's RLIMIT_AS (src/node/sandbox/bwrap.ts) and says why
 * (`CgroupChoice.note`, reported per image: docs/sandbox.md, "Limits: cgroup v2 or prlimit").
 *
 * The parent cgroup is, in order: `$KRMFN_SANDBOX_CGROUP` (a cgroup v2 directory prepared for krmfn,
 * e.g. by systemd's `Delegate=yes`); krmfn's own cgroup when its `cgroup.subtree_control` already
 * enables memory and pids; or, for an unprivileged krmfn, its own cgroup's parent under the same
 * condition (the delegation layout where the delegated process sits in a leaf). It must enable the
 * memory and pids controllers for its children and be writable. A cgroup v1 host has none.
 *
 * Entering the cgroup: Node cannot spawn into a cgroup, so the call is wrapped in `sh -c`, which
 * writes its own pid to the child's `cgroup.procs` and then execs prlimit/bubblewrap, so every
 * process of the call is in the cgroup from its first instruction.
 */
import { accessSync, constants, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export interface CgroupLimits {
  /** memory.max in bytes. */
  memoryBytes: number;
  /** pids.max. */
  maxPids: number;
  /** CPUs' worth of time per period (cpu.max), e.g. 1 or 0.5. */
  cpus: number;
}

export type CgroupChoice = { kind: 'cgroup'; parent: string; cpu: boolean } | { kind: 'prlimit'; note: string };

/** Where the detection reads the facts (the real /proc by default; files in tests). */
export interface CgroupHost {
  env: Record<string, string | undefined>;
  /** Contents of /proc/self/cgroup. */
  selfCgroup: string;
  /** Contents of /proc/self/mountinfo. */
  mountinfo: string;
  uid: number;
}

const CPU_PERIOD_US = 100_000;

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

export function realCgroupHost(env: Record<string, string | undefined>): CgroupHost {
  return {
    env,
    selfCgroup: read('/proc/self/cgroup') ?? '',
    mountinfo: read('/proc/self/mountinfo') ?? '',
    uid: process.getuid?.() ?? 0,
  };
}

/** The host directory of this process's cgroup v2, or undefined when there is no cgroup v2 mount. */
export function ownCgroupDir(host: CgroupHost): string | undefined {
  const line = host.selfCgroup.split('\n').find((l) => l.startsWith('0::'));
  if (line === undefined) return undefined;
  const path = line.slice(3);
  for (const m of host.mountinfo.split('\n')) {
    const [pre, post] = m.split(' - ');
    if (!post?.startsWith('cgroup2 ')) continue;
    const fields = pre.split(' ');
    const root = fields[3];
    const mountPoint = fields[4];
    if (!root || !mountPoint) continue;
    const inMount =
      root === '/' ? path : path === root || path.startsWith(`${root}/`) ? path.slice(root.length) : undefined;
    if (inMount !== undefined) return inMount === '' || inMount === '/' ? mountPoint : join(mountPoint, inMount);
  }
  return undefined;
}

function words(path: string): Set<string> {
  return new Set((read(path) ?? '').split(/\s+/).filter(Boolean));
}

/** Why `dir` cannot parent call cgroups, or undefined when it can (enabling controllers if allowed). */
function unusable(dir: string, enable: boolean): string | undefined {
  const offered = words(join(dir, 'cgroup.controllers'));
  if (!offered.has('memory') || !offered.has('pids')) {
    return `${dir} does not offer the memory and pids controllers (it has: ${[...offered].join(' ') || 'none'})`;
  }
  let enabled = words(join(dir, 'cgroup.subtree_control'));
  if (enable && (!enabled.has('memory') || !enabled.has('pids'))) {
    try {
      writeFileSync(join(dir, 'cgroup.subtree_control'), offered.has('cpu') ? '+memory +pids +cpu' : '+memory +pids');
    } catch {
      // Reported below: the controllers stay off (a cgroup with processes cannot enable them).
    }
    enabled = words(join(dir, 'cgroup.subtree_control'));
  }
  if (!enabled.has('memory') || !enabled.has('pids')) {
    return `${dir} does not enable the memory and pids controllers for its children`;
  }
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    return `${dir} is not writable`;
  }
  return undefined;
}

/** The cgroup parent to use, or the prlimit fallback with the reason (see the file comment). */
export function chooseCgroup(host: CgroupHost): CgroupChoice {
  const fallback = (why: string): CgroupChoice => ({
    kind: 'prlimit',
    note: `no cgroup v2 memory limit: ${why}; memory is capped by RLIMIT_AS (address space) instead`,
  });
  const cpu = (dir: string) => words(join(dir, 'cgroup.subtree_control')).has('cpu');
  const explicit = host.env.KRMFN_SANDBOX_CGROUP;
  if (explicit) {
    const why = unusable(explicit, true);
    return why ? fallback(`KRMFN_SANDBOX_CGROUP: ${why}`) : { kind: 'cgroup', parent: explicit, cpu: cpu(explicit) };
  }
  const own = ownCgroupDir(host);
  if (!own) return fallback('this host has no cgroup v2 hierarchy for krmfn (cgroup v1)');
  const ownWhy = unusable(own, false);
  if (!ownWhy) return { kind: 'cgroup', parent: own, cpu: cpu(own) };
  if (host.uid !== 0 && dirname(own) !== own) {
    const parent = dirname(own);
    if (!unusable(parent, false)) return { kind: 'cgroup', parent, cpu: cpu(parent) };
  }
  return fallback(`${ownWhy} (set KRMFN_SANDBOX_CGROUP to a delegated cgroup)`);
}

let sequence = 0;

/** One call's cgroup: created with its limits, entered by `command`, removed by `close`. */
export interface CallCgroup {
  dir: string;
  /** Wraps a command so that it runs inside the cgroup. */
  command(program: string, args: string[]): { program: string; args: string[] };
  /** True when the kernel killed a process of the call for going over memory.max. */
  oomKilled(): boolean;
  /** Kills what is left and removes the cgroup. */
  close(): Promise<void>;
}

export function createCallCgroup(parent: string, limits: CgroupLimits, cpu: boolean): CallCgroup {
  const dir = join(parent, `krmfn-${process.pid}-${++sequence}`);
  mkdirSync(dir);
  try {
    writeFileSync(join(dir, 'memory.max'), String(limits.memoryBytes));
    // No swap: the limit is on memory, not memory + swap (absent when the kernel has no swap accounting).
    if (read(join(dir, 'memory.swap.max')) !== undefined) writeFileSync(join(dir, 'memory.swap.max'), '0');
    writeFileSync(join(dir, 'pids.max'), String(limits.maxPids));
    if (cpu) writeFileSync(join(dir, 'cpu.max'), `${Math.round(limits.cpus * CPU_PERIOD_US)} ${CPU_PERIOD_US}`);
  } catch (e) {
    rmdirSync(dir);
    throw e;
  }
  return {
    dir,
    command(program, args) {
      const script = 'echo $$ > "$0" || { echo "krmfn: cannot enter the cgroup $0" >&2; exit 125; }; exec "$@"';
      return { program: 'sh', args: ['-c', script, join(dir, 'cgroup.procs'), program, ...args] };
    },
    oomKilled() {
      const m = /^oom_kill (\d+)$/m.exec(read(join(dir, 'memory.events')) ?? '');
      return m !== null && Number(m[1]) > 0;
    },
    async close() {
      try {
        writeFileSync(join(dir, 'cgroup.kill'), '1');
      } catch {
        // Kernels before 5.14 have no cgroup.kill: bubblewrap's pid namespace already ended the tree.
      }
      // The kernel removes exited processes from the cgroup asynchronously: retry briefly.
      for (let i = 0; ; i++) {
        try {
          rmdirSync(dir);
          return;
        } catch (e) {
          if ((e as { code?: string }).code !== 'EBUSY' || i >= 50) return;
          await new Promise((r) => setTimeout(r, 20));
        }
      }
    },
  };
}
