/**
 * The flags `krmfn render` and `krmfn eval` share (kpt fn render / eval's runtime flags and
 * krmfn's additions). The default kpt level comes from src/core/kpt-version.ts, never from here.
 */
import { DEFAULT_KPT_VERSION, KPT_VERSIONS } from '../../../core/kpt-version.ts';
import type { FlagDef } from './types.ts';

/** `--kpt-version`: every kpt command takes it (render, eval, source, sink). */
export const KPT_VERSION_FLAG: FlagDef = {
  name: 'kpt-version',
  kind: 'string',
  value: 'V',
  help: `behave as this kpt release: ${KPT_VERSIONS.join(', ')}\n(also KRMFN_KPT_VERSION)`,
  default: DEFAULT_KPT_VERSION,
  choices: KPT_VERSIONS,
};

export const KPT_RUN_FLAGS: readonly FlagDef[] = [
  {
    name: 'output',
    short: 'o',
    kind: 'string',
    value: 'OUT',
    help: 'stdout (a ResourceList), unwrap (plain YAML stream) or a new DIR;\ndefault: write the package in place',
    choices: ['stdout', 'unwrap'],
  },
  { name: 'results-dir', kind: 'string', value: 'DIR', help: 'write the function results to DIR/results.yaml' },
  {
    name: 'image-pull-policy',
    kind: 'string',
    value: 'P',
    help: 'Always, IfNotPresent or Never (container functions and WASM images)',
    default: 'IfNotPresent',
    choices: ['Always', 'IfNotPresent', 'Never'],
  },
  { name: 'allow-network', kind: 'bool', help: 'allow functions network access (container functions only)' },
  { name: 'allow-alpha-wasm', kind: 'bool', help: 'run images as WASM functions' },
  { name: 'truncate-output', kind: 'bool', help: 'truncate Results/Stderr blocks to 4 lines', default: 'true' },
  {
    name: 'timeout',
    kind: 'string',
    value: 'DURATION',
    help: 'deadline of each function call, e.g. 30s, 2m',
    default: '60s',
  },
  {
    name: 'remote-config',
    kind: 'string',
    value: 'FILE',
    help: 'run the images it maps on remote function servers (docs/serve.md)',
  },
  {
    name: 'container-runtime',
    kind: 'string',
    value: 'RT',
    help: 'run images nothing else runs with docker, podman, nerdctl or sandbox\n(bubblewrap, no daemon; off by default; also KRMFN_CONTAINER_RUNTIME)',
    choices: ['docker', 'podman', 'nerdctl', 'sandbox'],
  },
  {
    name: 'runtimes',
    kind: 'string',
    value: 'LIST',
    help: 'the runtime chain of this run, in order: builtin, starlark, wasm,\nexec, remote and one of sandbox, docker, podman, nerdctl\n(default: every runtime the other flags enable)',
  },
  {
    name: 'verbose',
    kind: 'bool',
    help: "after kpt's output, report on stderr which runtime ran each function\n(registry images: pulled or cached, digest)",
  },
  {
    name: 'strict-digests',
    kind: 'bool',
    help: "built-ins refuse name:tag@sha256:… pins they cannot vouch for\n(default: run the tag's version, record the digest)",
  },
  { name: 'json', kind: 'bool', help: 'print the outcome (results, counts, error) as JSON on stdout' },
  KPT_VERSION_FLAG,
  {
    name: 'image-prefix',
    kind: 'string',
    value: 'P',
    help: 'registry for short image names (1.0.0-beta.67; default\n$KPT_IMAGE_PREFIX, else ghcr.io/kptdev/krm-functions-catalog)',
  },
];
