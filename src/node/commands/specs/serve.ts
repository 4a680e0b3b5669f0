/** `krmfn serve`: functions over HTTP and gRPC (implementation: src/node/commands/serve.ts). */
import { KPT_VERSIONS } from '../../../core/kpt-version.ts';
import { KPT_VERSION_FLAG } from './kpt-run-flags.ts';
import type { Command, FlagDef } from './types.ts';

const HTTP_FLAGS: readonly FlagDef[] = [
  {
    name: 'host',
    kind: 'string',
    value: 'HOST',
    help: 'address to bind (use 0.0.0.0 in a container)',
    default: '127.0.0.1',
  },
  { name: 'port', short: 'p', kind: 'string', value: 'PORT', help: 'port (0 picks a free one)', default: '8080' },
  {
    name: 'token-file',
    kind: 'string',
    value: 'FILE',
    help: 'require "Authorization: Bearer <token>" on /v1/* (or set KRMFN_SERVE_TOKEN)',
  },
  {
    name: 'max-body',
    kind: 'string',
    value: 'BYTES',
    help: 'largest request body; larger gets 413',
    default: '16777216',
  },
  {
    name: 'max-concurrent',
    kind: 'string',
    value: 'N',
    help: 'requests served at once, counted once their body arrived; more get 429',
    default: '16',
  },
  { name: 'timeout', kind: 'string', value: 'DURATION', help: 'deadline of each request', default: '60s' },
  { name: 'header-timeout', kind: 'string', value: 'DUR', help: "time a request's headers may take", default: '10s' },
  {
    name: 'body-timeout',
    kind: 'string',
    value: 'DUR',
    help: "time a request's body may take once its headers are in; 408",
    default: '30s',
  },
  {
    name: 'workers',
    kind: 'string',
    value: 'N',
    help: 'worker processes running renders and functions (default: CPU count)',
  },
  { name: 'allow-alpha-wasm', kind: 'bool', help: 'let posted packages run the WASM modules they contain' },
  { name: 'allow-exec', kind: 'bool', help: 'let posted packages run exec: functions (programs on this machine)' },
  { name: 'allow-network', kind: 'bool', help: 'allow functions network access (container functions only)' },
  {
    name: 'image-pull-policy',
    kind: 'string',
    value: 'P',
    help: 'Always, IfNotPresent or Never (container functions only)',
    default: 'IfNotPresent',
    choices: ['Always', 'IfNotPresent', 'Never'],
  },
  {
    name: 'container-runtime',
    kind: 'string',
    value: 'RT',
    help: 'run images nothing else runs with docker, podman or nerdctl (off by default)',
    choices: ['docker', 'podman', 'nerdctl'],
  },
  {
    name: 'runtimes',
    kind: 'string',
    value: 'LIST',
    help: "the runtime chain of every request, in order, as render's --runtimes\n(or KRMFN_RUNTIMES; default: every runtime the other flags enable)",
  },
  {
    name: 'truncate-output',
    kind: 'bool',
    help: 'truncate Results/Stderr blocks of the render log to 4 lines',
    default: 'true',
  },
  {
    ...KPT_VERSION_FLAG,
    help: `renders behave as this kpt release: ${KPT_VERSIONS.join(', ')}\n(also KRMFN_KPT_VERSION; a request's kptVersion overrides it)`,
  },
  {
    name: 'remote-config',
    kind: 'string',
    value: 'FILE',
    help: 'forward images to remote endpoints (see docs/serve.md)',
  },
];

/** gRPC: Porch's function runner protocol (evaluator.FunctionEvaluator) plus grpc.health.v1.Health. */
const GRPC_FLAGS: readonly FlagDef[] = [
  { name: 'grpc', kind: 'string', value: 'ADDR', help: 'also serve gRPC on HOST:PORT (":9445" binds every interface)' },
  { name: 'grpc-only', kind: 'bool', help: 'serve gRPC alone, no HTTP' },
  { name: 'grpc-tls-cert', kind: 'string', value: 'FILE', help: 'serve gRPC over TLS with this PEM certificate ...' },
  { name: 'grpc-tls-key', kind: 'string', value: 'FILE', help: '... and this PEM key' },
  {
    name: 'grpc-upstream',
    kind: 'string',
    value: 'ADDR',
    help: 'forward images krmfn does not run to this FunctionEvaluator',
  },
  { name: 'grpc-upstream-tls', kind: 'bool', help: 'dial the upstream over TLS' },
  { name: 'grpc-upstream-token-file', kind: 'string', value: 'FILE', help: 'bearer token to send upstream' },
];

export const serveSpec: Command = {
  name: 'serve',
  summary: 'Serve functions over HTTP (run, render, list) and gRPC',
  description: `Serve KRM functions over HTTP (and gRPC with --grpc).

Endpoints:
  POST /v1/run?image=IMAGE   run one function on a ResourceList (application/yaml or application/json)
  POST /v1/render            render a package: {"files": {"path": "content"}} (JSON) or a tar
  GET  /v1/functions         the functions this server runs
  GET  /healthz, /readyz     liveness and readiness`,
  usage: ['serve [flags]'],
  positionals: [],
  flags: [...HTTP_FLAGS, ...GRPC_FLAGS],
  examples: ['krmfn serve --port 8080 --token-file token.txt', 'krmfn serve --grpc :9445 --grpc-only'],
  notes: `Renders and function calls run in worker processes: a request past its deadline or whose client
went away stops its worker, and /healthz answers whatever they do. Logs are JSON lines on stderr.
gRPC speaks Porch's function runner protocol (evaluator.FunctionEvaluator) plus grpc.health.v1.Health;
--token-file, --max-body, --max-concurrent and --timeout apply to gRPC calls too.`,
  load: () => import('../serve.ts').then((m) => m.runServe),
};
