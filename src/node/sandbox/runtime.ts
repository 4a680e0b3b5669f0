/**
 * The `sandbox` container runtime (`--container-runtime sandbox`, docs/sandbox.md): runs any `image:` function with
 * no container daemon. The image comes from an `ImageSource` (src/node/sandbox/image.ts), its layers
 * are unpacked once into the cache (src/node/sandbox/unpack.ts), and each call runs the image's
 * entrypoint + cmd under bubblewrap (src/node/sandbox/bwrap.ts) with the ResourceList on stdin,
 * as kpt runs it with Docker (src/node/runtimes/container.ts): user `nobody` unless
 * `asCurrentUser`, no network unless granted, kpt's `--mount` and `--env` values, the function
 * deadline (the whole process tree dies with it), the output cap, and memory/CPU limits: a cgroup
 * v2 per call where the host gives krmfn one (memory.max, pids.max, cpu.max:
 * src/node/sandbox/cgroup.ts), else RLIMIT_AS; RLIMIT_CPU always. Which one applies is reported with
 * each image (`limits`, and `limitsNote` saying why there is no cgroup).
 * Stderr is shown as kpt shows a container's: empty lines dropped, lines rejoined with "\n".
 * With the network granted, the host's /etc/resolv.conf and /etc/hosts are bound read-only over the
 * image's, as Docker provides them (an image whose file there is a symlink keeps its own).
 *
 * Like the Docker runtime it resolves every `image:` function (it is the last resort of the chain);
 * bubblewrap is checked once per runtime instance, on the first call.
 */
import { lstatSync, statSync } from 'node:fs';
import { LimitExceededError, NotFoundError, KrmfnError } from '../../core/errors.ts';
import type {
  BytesOutcome,
  BytesRunner,
  FunctionRuntime,
  PipelineFunction,
  ResolveContext,
  RunContext,
} from '../../core/function.ts';
import { runProcess } from '../process.ts';
import { filterContainerStderr, type PullPolicy } from '../runtimes/container.ts';
import { bwrapArgs, cappedCommand, checkBwrap } from './bwrap.ts';
import { chooseCgroup, createCallCgroup, realCgroupHost, type CgroupChoice } from './cgroup.ts';
import type { ImageProvenance, ImageSource, SandboxImage } from './image.ts';
import { ensureMountPoints } from './mount-points.ts';
import { parseStorageMount, type SandboxMount } from './mounts.ts';
import { resolveDirInRoot } from './scoped-path.ts';
import { DEFAULT_UNPACK_LIMITS, unpackImage, type UnpackLimits } from './unpack.ts';
import { currentUser, imageUser } from './user.ts';

export interface SandboxRuntimeOptions {
  source: ImageSource;
  /** Directory of unpacked root filesystems (shared by runs). */
  cacheDir: string;
  pullPolicy?: PullPolicy;
  asCurrentUser?: { uid: number; gid: number };
  /** kpt `--mount` values. */
  mounts?: readonly string[];
  /** kpt `--env` values: `K=V`, or `K` to pass the host's value. */
  env?: readonly string[];
  /** krmfn's own environment (PATH to find bwrap and prlimit, values for `--env K`). */
  hostEnv: Record<string, string | undefined>;
  /** Working directory relative mount sources are taken from. */
  cwd: string;
  /** bubblewrap program (default `bwrap` on PATH). */
  bwrap?: string;
  /**
   * Memory of the function in bytes (default 4 GiB): cgroup memory.max when a cgroup is available,
   * else RLIMIT_AS (which caps address space, not resident memory).
   */
  memoryBytes?: number;
  /** pids.max of a call's cgroup (default 1024). */
  maxPids?: number;
  /** CPUs of a call's cgroup (cpu.max; default 1). */
  cpus?: number;
  /** cgroup or prlimit (default: detected once, src/node/sandbox/cgroup.ts `chooseCgroup`). */
  cgroup?: CgroupChoice;
  unpackLimits?: UnpackLimits;
  /** Called once per image the runtime prepared from a registry (the `--json` `images` list). */
  onImage?: (report: SandboxImageReport) => void;
}

/** One registry image a run used, as `--json` lists it (`runtime: 'sandbox'`). */
export interface SandboxImageReport extends ImageProvenance {
  runtime: 'sandbox';
  /** The image as the function names it. */
  image: string;
  /** How memory is limited: a cgroup per call, or RLIMIT_AS. */
  limits: 'cgroup' | 'prlimit';
  /** With `prlimit`: why no cgroup was available. */
  limitsNote?: string;
}

const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
export const DEFAULT_SANDBOX_MEMORY_BYTES = 4 * 1024 * 1024 * 1024;
const DEFAULT_MAX_PIDS = 1024;
const DEFAULT_CPUS = 1;

/** The image's Env, then `--env` values over it; PATH and HOME defaulted as Docker does. */
export function sandboxEnv(
  image: readonly string[],
  flags: readonly string[],
  host: Record<string, string | undefined>,
  home: string,
): string[] {
  const env = new Map<string, string>();
  for (const e of image) {
    const eq = e.indexOf('=');
    if (eq > 0) env.set(e.slice(0, eq), e.slice(eq + 1));
  }
  for (const e of flags) {
    const eq = e.indexOf('=');
    if (eq > 0) env.set(e.slice(0, eq), e.slice(eq + 1));
    else if (host[e] !== undefined) env.set(e, host[e]);
  }
  if (!env.has('PATH')) env.set('PATH', DEFAULT_PATH);
  if (!env.has('HOME')) env.set('HOME', home);
  return [...env].map(([k, v]) => `${k}=${v}`);
}

/** The host's resolver files, for a call with the network (see the file comment). */
function hostNetworkFiles(rootfs: string): SandboxMount[] {
  const out: SandboxMount[] = [];
  for (const file of ['/etc/resolv.conf', '/etc/hosts']) {
    if (!statSync(file, { throwIfNoEntry: false })?.isFile()) continue;
    const inImage = lstatSync(`${rootfs}${file}`, { throwIfNoEntry: false });
    if (inImage && !inImage.isFile()) continue;
    if (!inImage && lstatSync(`${rootfs}/etc`, { throwIfNoEntry: false })?.isDirectory() === false) continue;
    out.push({ type: 'bind', source: file, target: file, readonly: true });
  }
  return out;
}

export function createSandboxRuntime(opts: SandboxRuntimeOptions): FunctionRuntime {
  const bwrap = opts.bwrap ?? 'bwrap';
  const mounts: SandboxMount[] = (opts.mounts ?? []).map((m) => parseStorageMount(m, opts.cwd));
  let availability: Promise<void> | undefined;
  let cgroupChoice = opts.cgroup;
  const limitsMode = (): CgroupChoice => (cgroupChoice ??= chooseCgroup(realCgroupHost(opts.hostEnv)));
  const images = new Map<string, Promise<{ image: SandboxImage; rootfs: string }>>();
  const prepare = (reference: string) => {
    let p = images.get(reference);
    if (!p) {
      p = (async () => {
        const image = await opts.source.get(reference, opts.pullPolicy ?? 'IfNotPresent');
        if (image.provenance) {
          const mode = limitsMode();
          opts.onImage?.({
            runtime: 'sandbox',
            image: reference,
            ...image.provenance,
            limits: mode.kind,
            ...(mode.kind === 'prlimit' ? { limitsNote: mode.note } : {}),
          });
        }
        return { image, rootfs: unpackImage(image, opts.cacheDir, opts.unpackLimits ?? DEFAULT_UNPACK_LIMITS) };
      })();
      images.set(reference, p);
      p.catch(() => images.delete(reference));
    }
    return p;
  };
  return {
    name: 'sandbox',
    async resolve(spec: PipelineFunction, ctx: ResolveContext): Promise<BytesRunner> {
      const reference = spec.image;
      if (!reference) throw new NotFoundError(spec.exec ?? '');
      const network = ctx.allowNetwork;
      return {
        kind: 'bytes',
        async run(stdin: Uint8Array, rc: RunContext): Promise<BytesOutcome> {
          await (availability ??= checkBwrap(bwrap, opts.hostEnv));
          const { image, rootfs } = await prepare(reference);
          const argv = [...image.config.entrypoint, ...image.config.cmd];
          if (argv.length === 0) {
            throw new KrmfnError({
              code: 'function-failed',
              message: `image ${reference}: no command specified`,
              function: reference,
            });
          }
          const user = opts.asCurrentUser
            ? currentUser(rootfs, opts.asCurrentUser)
            : imageUser(rootfs, 'nobody', reference);
          const callMounts = network ? [...mounts, ...hostNetworkFiles(rootfs)] : mounts;
          ensureMountPoints(rootfs, callMounts);
          // Docker creates a WorkingDir the image lacks; so does the sandbox, in the cached tree.
          if (image.config.workingDir) resolveDirInRoot(rootfs, image.config.workingDir, true);
          const args = bwrapArgs({
            rootfs,
            argv,
            env: sandboxEnv(image.config.env, opts.env ?? [], opts.hostEnv, user.home),
            workingDir: image.config.workingDir || '/',
            uid: user.uid,
            gid: user.gid,
            network,
            mounts: callMounts,
          });
          const timeoutSeconds = Math.max(1, Math.ceil((rc.deadline - rc.now()) / 1000));
          const memoryBytes = opts.memoryBytes ?? DEFAULT_SANDBOX_MEMORY_BYTES;
          const mode = limitsMode();
          let cgroup;
          if (mode.kind === 'cgroup') {
            const limits = { memoryBytes, maxPids: opts.maxPids ?? DEFAULT_MAX_PIDS, cpus: opts.cpus ?? DEFAULT_CPUS };
            try {
              cgroup = createCallCgroup(mode.parent, limits, mode.cpu);
            } catch (e) {
              throw new KrmfnError({
                code: 'container-unavailable',
                message: `cannot create a cgroup for ${reference} under ${mode.parent}: ${(e as Error).message}`,
                function: reference,
              });
            }
          }
          const capped = cappedCommand(bwrap, args, {
            ...(cgroup ? {} : { memoryBytes }),
            cpuSeconds: timeoutSeconds + 1,
          });
          const cmd = cgroup ? cgroup.command(capped.program, capped.args) : capped;
          let r;
          try {
            r = await runProcess({
              program: cmd.program,
              args: cmd.args,
              stdin,
              env: { PATH: opts.hostEnv.PATH ?? DEFAULT_PATH },
              deadline: rc.deadline,
              now: rc.now,
              signal: rc.signal,
              maxOutputBytes: rc.limits.maxOutputBytes,
              displayName: reference,
            });
            if (cgroup?.oomKilled()) {
              throw new LimitExceededError(
                'memory',
                `${reference}: the function was killed for using more than ${memoryBytes} bytes of memory (cgroup memory.max)`,
                reference,
              );
            }
          } finally {
            await cgroup?.close();
          }
          return {
            exitCode: r.exitCode,
            stdout: r.stdout,
            stderr: filterContainerStderr(new TextDecoder().decode(r.stderr), 'sandbox'),
          };
        },
      };
    },
  };
}
