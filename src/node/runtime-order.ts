/**
 * `--runtimes LIST` of `krmfn render` / `krmfn eval` / `krmfn serve` (or the `KRMFN_RUNTIMES`
 * variable when the flag is absent): the runtime chain for one run, by name, in order (docs/oci.md,
 * "Choosing the runtimes"). Names: builtin, starlark, wasm, exec, remote and one
 * container runtime (sandbox, docker, podman, nerdctl). A listed runtime must be able to run:
 * `wasm` needs --allow-alpha-wasm, `remote` a remote config, `exec` on the server --allow-exec; a listed container runtime enables it
 * (as --container-runtime does) and must agree with --container-runtime when both are given;
 * without the flag the chain is krmfn's default. Errors are UsageErrors naming the fix.
 */
import { UsageError } from './cli-flags.ts';

export const CLI_RUNTIME_NAMES = [
  'builtin',
  'starlark',
  'wasm',
  'exec',
  'remote',
  'sandbox',
  'docker',
  'podman',
  'nerdctl',
] as const;

const CONTAINER_NAMES: readonly string[] = ['sandbox', 'docker', 'podman', 'nerdctl'];

export interface RuntimeOrderInput {
  /** The flag's text; undefined: the default chain. */
  runtimes: string | undefined;
  /** Where the text came from, as messages name it (default `--runtimes`). */
  source?: string;
  allowWasm: boolean;
  /** Whether exec functions may run; undefined: no check (the CLI's exec runtime is always there). */
  allowExec?: boolean;
  remoteConfigured: boolean;
  /** --container-runtime as given. */
  containerFlag: string | undefined;
}

export interface RuntimeOrder {
  /** Runtime names in chain order; undefined: the default chain. */
  order: string[] | undefined;
  /** The container runtime to build: a name, false for none, undefined for the flag/environment default. */
  container: string | false | undefined;
}

export function chosenRuntimeOrder(input: RuntimeOrderInput): RuntimeOrder {
  if (input.runtimes === undefined) return { order: undefined, container: input.containerFlag };
  const src = input.source ?? '--runtimes';
  const order = input.runtimes.split(',').map((n) => n.trim());
  const known = CLI_RUNTIME_NAMES.join(', ');
  const seen = new Set<string>();
  for (const name of order) {
    if (name === '') throw new UsageError(`${src} ${JSON.stringify(input.runtimes)}: empty runtime name`);
    if (!(CLI_RUNTIME_NAMES as readonly string[]).includes(name)) {
      throw new UsageError(`unknown runtime ${JSON.stringify(name)} in ${src}: known runtimes are ${known}`);
    }
    if (seen.has(name)) throw new UsageError(`runtime ${JSON.stringify(name)} is named twice in ${src}`);
    seen.add(name);
  }
  const containers = order.filter((n) => CONTAINER_NAMES.includes(n));
  if (containers.length > 1) {
    throw new UsageError(`${src} names ${containers.length} container runtimes (${containers.join(', ')}): choose one`);
  }
  const container = containers[0];
  if (container !== undefined && input.containerFlag !== undefined && input.containerFlag !== container) {
    throw new UsageError(`${src} names ${container} but --container-runtime is ${input.containerFlag}`);
  }
  if (seen.has('wasm') && !input.allowWasm) {
    throw new UsageError(`${src} names wasm, which runs only with --allow-alpha-wasm`);
  }
  if (seen.has('remote') && !input.remoteConfigured) {
    throw new UsageError(`${src} names remote, which needs --remote-config FILE or KRMFN_REMOTE_CONFIG`);
  }
  if (seen.has('exec') && input.allowExec === false) {
    throw new UsageError(`${src} names exec, which runs only with --allow-exec`);
  }
  return { order, container: container ?? false };
}

/** The list a command runs with: its `--runtimes` flag, else `KRMFN_RUNTIMES`, else none. */
export function runtimesText(
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): {
  runtimes: string | undefined;
  source: string;
} {
  if (flag !== undefined) return { runtimes: flag, source: '--runtimes' };
  const v = env['KRMFN_RUNTIMES'];
  return v === undefined || v === ''
    ? { runtimes: undefined, source: '--runtimes' }
    : { runtimes: v, source: 'KRMFN_RUNTIMES' };
}

/** Whether a container runtime comes after `name` in the chain (it then takes what `name` passes on). */
export function containerFollows(order: readonly string[] | undefined, name: string, hasContainer: boolean): boolean {
  if (!hasContainer) return false;
  if (!order) return true;
  const at = order.indexOf(name);
  return order.some((n, i) => i > at && CONTAINER_NAMES.includes(n));
}
