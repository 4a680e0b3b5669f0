/**
 * The container runtime: runs a function image with docker, podman or nerdctl exactly as kpt does
 * (docs/kpt-semantics.md, "Runtimes"):
 *
 *   <engine> run --rm -i --network none --user nobody --security-opt=no-new-privileges \
 *     --pull missing [--mount type=bind,source=S,target=T[,readonly]] [-e K=V] <image>
 *
 * `--network host` only when network access was allowed; `--user <uid>:<gid>` with
 * `asCurrentUser`; mounts and env only when asked (eval). stdin carries the ResourceList, stdout
 * the output; stderr is filtered of pull-progress lines and rejoined with "\n" (kpt's rule, which
 * drops the trailing newline).
 *
 * It resolves every `image:` function (it is the last resort of the chain); the engine is checked
 * once per runtime instance (`<engine> version --format {{.Client.Version}}`, 5 s) and a missing
 * or stopped engine fails the function with a clear `container-unavailable` error.
 */
import { KrmfnError, NotFoundError } from '../../core/errors.ts';
import type {
  BytesOutcome,
  BytesRunner,
  FunctionRuntime,
  PipelineFunction,
  ResolveContext,
  RunContext,
} from '../../core/function.ts';
import { runProcess } from '../process.ts';

export type ContainerEngine = 'docker' | 'podman' | 'nerdctl';
export type PullPolicy = 'Always' | 'IfNotPresent' | 'Never';

export interface ContainerMount {
  source: string;
  target: string;
  readonly?: boolean;
}

export interface ContainerRuntimeOptions {
  engine?: ContainerEngine;
  /** Program to run instead of the engine's name (a path); defaults to the engine name on PATH. */
  program?: string;
  pullPolicy?: PullPolicy;
  asCurrentUser?: { uid: number; gid: number };
  mounts?: readonly ContainerMount[];
  /** `-e K=V` entries (`K` alone passes the host's value through). */
  env?: readonly string[];
  /** Environment of the engine process itself (PATH, DOCKER_HOST...). */
  hostEnv?: Record<string, string | undefined>;
}

/** Validates `KPT_FN_RUNTIME`-style values with kpt's message. */
export function parseContainerEngine(value: string): ContainerEngine {
  if (value === 'docker' || value === 'podman' || value === 'nerdctl') return value;
  throw new KrmfnError({
    code: 'usage',
    message: `unsupported runtime: ${JSON.stringify(value)} the runtime must be either docker or podman`,
  });
}

/** The argv (after the program) kpt would use to run `image`. */
export function containerRunArgs(image: string, opts: ContainerRuntimeOptions, allowNetwork: boolean): string[] {
  const pull = { Always: 'always', IfNotPresent: 'missing', Never: 'never' }[opts.pullPolicy ?? 'IfNotPresent'];
  const args = [
    'run',
    '--rm',
    '-i',
    '--network',
    allowNetwork ? 'host' : 'none',
    '--user',
    opts.asCurrentUser ? `${opts.asCurrentUser.uid}:${opts.asCurrentUser.gid}` : 'nobody',
    '--security-opt=no-new-privileges',
    '--pull',
    pull,
  ];
  for (const m of opts.mounts ?? []) {
    args.push('--mount', `type=bind,source=${m.source},target=${m.target}${m.readonly === false ? '' : ',readonly'}`);
  }
  for (const e of opts.env ?? []) args.push('-e', e);
  args.push(image);
  return args;
}

const PULL_NOISE: Record<ContainerEngine, RegExp[]> = {
  docker: [
    /^Unable to find image/,
    /: Pulling from/,
    /: Pulling fs layer/,
    /: Waiting/,
    /: Verifying Checksum/,
    /: Download complete/,
    /: Pull complete/,
    /: Already exists/,
    /^Digest: sha256/,
    /^Status: Downloaded newer image/,
    /^Status: Image is up to date for/,
  ],
  podman: [
    /^Resolved "/,
    /^Trying to pull/,
    /^Getting image source signatures/,
    /^Copying blob/,
    /^Copying config/,
    /^Writing manifest/,
    /^Storing signatures/,
  ],
  nerdctl: [/^[^\s]+:\s+resolv/, /^(index|manifest|config|layer)-sha256:/, /^elapsed: /],
};

/** kpt's stderr rule for containers: drop pull-progress lines, rejoin with "\n" (the daemonless sandbox prints none). */
export function filterContainerStderr(stderr: string, engine: ContainerEngine | 'sandbox'): string {
  const noise = engine === 'sandbox' ? [] : PULL_NOISE[engine];
  return stderr
    .split('\n')
    .filter((l) => l !== '' && !noise.some((re) => re.test(l)))
    .join('\n');
}

export function createContainerRuntime(opts: ContainerRuntimeOptions = {}): FunctionRuntime {
  const engine = opts.engine ?? 'docker';
  const program = opts.program ?? engine;
  let availability: Promise<void> | undefined;
  const check = (): Promise<void> => (availability ??= checkEngine(engine, program, opts.hostEnv));
  return {
    name: engine,
    async resolve(spec: PipelineFunction, ctx: ResolveContext): Promise<BytesRunner> {
      const image = spec.image;
      if (!image) throw new NotFoundError(spec.exec ?? '');
      const args = containerRunArgs(image, opts, ctx.allowNetwork);
      return {
        kind: 'bytes',
        async run(stdin: Uint8Array, rc: RunContext): Promise<BytesOutcome> {
          await check();
          const r = await runProcess({
            program,
            args,
            stdin,
            env: opts.hostEnv,
            deadline: rc.deadline,
            now: rc.now,
            signal: rc.signal,
            maxOutputBytes: rc.limits.maxOutputBytes,
            displayName: image,
          });
          return {
            exitCode: r.exitCode,
            stdout: r.stdout,
            stderr: filterContainerStderr(new TextDecoder().decode(r.stderr), engine),
          };
        },
      };
    },
  };
}

async function checkEngine(
  engine: ContainerEngine,
  program: string,
  env: Record<string, string | undefined> | undefined,
): Promise<void> {
  const fail = (detail: string): KrmfnError =>
    new KrmfnError({
      code: 'container-unavailable',
      message:
        `${detail}\n${engine} must be running to use this command\n` +
        (engine === 'docker'
          ? 'To install docker, follow the instructions at https://docs.docker.com/get-docker/.'
          : `Install ${engine} and make sure \`${engine} version\` works.`),
    });
  let r;
  try {
    r = await runProcess({
      program,
      args: ['version', '--format', '{{.Client.Version}}'],
      stdin: new Uint8Array(),
      env,
      deadline: Date.now() + 5000,
    });
  } catch (e) {
    throw fail(e instanceof Error ? e.message.replace(/^fork\/exec /, `exec: "${engine}": `) : String(e));
  }
  if (r.exitCode !== 0) {
    const err = new TextDecoder().decode(r.stderr).trim().split('\n').slice(-1)[0] ?? '';
    throw fail(err || `${engine} version exited with code ${r.exitCode}`);
  }
  if (engine === 'docker') {
    const v = new TextDecoder().decode(r.stdout).trim();
    const [maj = 0, min = 0] = v.split('.').map((x) => parseInt(x, 10));
    if (maj < 20 || (maj === 20 && min < 10))
      throw fail(`docker client version must be v20.10.0 or greater: found v${v}`);
  }
}
