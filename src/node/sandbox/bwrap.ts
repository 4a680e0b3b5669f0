/**
 * The bubblewrap command line for one sandboxed call, and the check that bubblewrap can run here.
 *
 * Layout: a tmpfs root made read-only at the end (`--remount-ro /`), the image's top-level entries
 * bound read-only into it (symlinks recreated), so mount points that the image lacks (/dev, /proc,
 * /tmp, a `--mount` target) can be made without writing into the cached tree. Then a fresh /dev and
 * /proc, a private /tmp, every namespace unshared (`--share-net` only when the network is granted),
 * all capabilities dropped, the process tree tied to krmfn (`--die-with-parent`, and the pid
 * namespace dies with its first process), a new session, the image's environment only.
 * Memory and CPU limits wrap the call with prlimit (util-linux): RLIMIT_AS and RLIMIT_CPU.
 */
import { lstatSync, readdirSync, readlinkSync } from 'node:fs';
import { KrmfnError } from '../../core/errors.ts';
import { runProcess } from '../process.ts';
import type { SandboxMount } from './mounts.ts';

export interface SandboxCall {
  rootfs: string;
  /** Entrypoint followed by cmd (and arguments). */
  argv: string[];
  /** `K=V` entries. */
  env: string[];
  workingDir: string;
  uid: number;
  gid: number;
  network: boolean;
  mounts: readonly SandboxMount[];
}

export interface ResourceCaps {
  /** RLIMIT_AS in bytes. */
  memoryBytes?: number;
  /** RLIMIT_CPU in seconds. */
  cpuSeconds?: number;
}

/** `bwrap` arguments (everything after the program name). */
export function bwrapArgs(call: SandboxCall): string[] {
  const args = ['--unshare-all', '--die-with-parent', '--new-session', '--cap-drop', 'ALL'];
  if (call.network) args.push('--share-net');
  args.push('--tmpfs', '/');
  for (const name of readdirSync(call.rootfs).sort()) {
    if (name === 'dev' || name === 'proc' || name === 'tmp') continue;
    const host = `${call.rootfs}/${name}`;
    const st = lstatSync(host);
    if (st.isSymbolicLink()) args.push('--symlink', readlinkSync(host), `/${name}`);
    else if (st.isDirectory() || st.isFile()) args.push('--ro-bind', host, `/${name}`);
  }
  args.push('--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp');
  for (const m of call.mounts) {
    if (m.type === 'tmpfs') args.push('--tmpfs', m.target);
    else args.push(m.readonly ? '--ro-bind' : '--bind', m.source, m.target);
  }
  args.push('--remount-ro', '/');
  args.push('--uid', String(call.uid), '--gid', String(call.gid));
  args.push('--clearenv');
  for (const e of call.env) {
    const eq = e.indexOf('=');
    if (eq > 0) args.push('--setenv', e.slice(0, eq), e.slice(eq + 1));
  }
  args.push('--chdir', call.workingDir || '/', '--', ...call.argv);
  return args;
}

/** The program and arguments that run `bwrap args` under the resource caps. */
export function cappedCommand(bwrap: string, args: string[], caps: ResourceCaps): { program: string; args: string[] } {
  const limits: string[] = [];
  if (caps.memoryBytes !== undefined) limits.push(`--as=${caps.memoryBytes}`);
  if (caps.cpuSeconds !== undefined) limits.push(`--cpu=${caps.cpuSeconds}`);
  if (limits.length === 0) return { program: bwrap, args };
  return { program: 'prlimit', args: [...limits, '--', bwrap, ...args] };
}

const FIX =
  'The sandbox container runtime needs bubblewrap and user namespaces: install bubblewrap ' +
  '(Debian/Ubuntu: apt-get install bubblewrap) and, where user namespaces are restricted, allow them ' +
  '(sysctl kernel.unprivileged_userns_clone=1, or on Ubuntu 24.04+ kernel.apparmor_restrict_unprivileged_userns=0), ' +
  'or use --container-runtime docker.';

/** Runs `bwrap` once with a trivial sandbox; a clear `container-unavailable` error when it cannot. */
export async function checkBwrap(bwrap: string, env: Record<string, string | undefined>): Promise<void> {
  let r;
  try {
    r = await runProcess({
      program: bwrap,
      args: [
        '--unshare-all',
        '--die-with-parent',
        '--ro-bind',
        '/',
        '/',
        '--uid',
        '65534',
        '--gid',
        '65534',
        '--',
        'true',
      ],
      stdin: new Uint8Array(),
      env: { PATH: env.PATH ?? '/usr/bin:/bin' },
      deadline: Date.now() + 5000,
    });
  } catch (e) {
    throw new KrmfnError({
      code: 'container-unavailable',
      message: `cannot start ${bwrap}: ${(e as Error).message}\n${FIX}`,
    });
  }
  if (r.exitCode !== 0) {
    const why = new TextDecoder().decode(r.stderr).trim() || `exit code ${r.exitCode}`;
    throw new KrmfnError({
      code: 'container-unavailable',
      message: `bubblewrap cannot create a sandbox here: ${why}\n${FIX}`,
    });
  }
}
