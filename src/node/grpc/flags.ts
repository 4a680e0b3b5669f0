/**
 * The `krmfn serve` flags of the gRPC service (kept apart from grpc-js so the CLI loads it only
 * when --grpc is given).
 */
import type { FlagSpec } from '../cli-flags.ts';

export const GRPC_FLAGS: readonly FlagSpec[] = [
  { name: 'grpc', kind: 'string' },
  { name: 'grpc-only', kind: 'bool' },
  { name: 'grpc-tls-cert', kind: 'string' },
  { name: 'grpc-tls-key', kind: 'string' },
  { name: 'grpc-upstream', kind: 'string' },
  { name: 'grpc-upstream-tls', kind: 'bool' },
  { name: 'grpc-upstream-token-file', kind: 'string' },
];

export const GRPC_HELP = `
gRPC (Porch's function runner protocol, evaluator.FunctionEvaluator, plus grpc.health.v1.Health):
      --grpc ADDR                     also serve gRPC on HOST:PORT (":9445" binds every interface)
      --grpc-only                     serve gRPC alone, no HTTP
      --grpc-tls-cert FILE            serve gRPC over TLS with this PEM certificate ...
      --grpc-tls-key FILE             ... and this PEM key
      --grpc-upstream ADDR            forward images krmfn does not run to this FunctionEvaluator
      --grpc-upstream-tls             dial the upstream over TLS
      --grpc-upstream-token-file FILE bearer token to send upstream
  --token-file, --max-body, --max-concurrent and --timeout apply to gRPC calls too.
`;
