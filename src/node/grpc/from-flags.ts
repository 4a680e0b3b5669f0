/**
 * Starts the gRPC service of `krmfn serve` from its parsed flags (see flags.ts).
 */
import { readFileSync } from 'node:fs';
import { str, bool, UsageError, type ParsedArgs } from '../cli-flags.ts';
import type { FunctionService } from '../serve/service.ts';
import { createEvaluatorClient } from './client.ts';
import { startGrpcServer, type RunningGrpcServer } from './server.ts';

export interface GrpcFromFlagsOptions {
  service: FunctionService;
  token?: string;
  timeoutMs: number;
  maxConcurrent: number;
  maxMessageBytes: number;
  log: (entry: Record<string, unknown>) => void;
}

export async function startGrpcFromFlags(p: ParsedArgs, o: GrpcFromFlagsOptions): Promise<RunningGrpcServer> {
  const address = str(p, 'grpc')!;
  const cert = str(p, 'grpc-tls-cert');
  const key = str(p, 'grpc-tls-key');
  if ((cert === undefined) !== (key === undefined))
    throw new UsageError('--grpc-tls-cert and --grpc-tls-key go together');
  const upstreamAddress = str(p, 'grpc-upstream');
  const upstreamTokenFile = str(p, 'grpc-upstream-token-file');
  const upstream = upstreamAddress
    ? await createEvaluatorClient({
        address: upstreamAddress,
        tls: bool(p, 'grpc-upstream-tls'),
        ...(upstreamTokenFile ? { token: readFileSync(upstreamTokenFile, 'utf8').trim() } : {}),
        maxMessageBytes: o.maxMessageBytes,
      })
    : undefined;
  return startGrpcServer({
    service: o.service,
    address,
    ...(o.token ? { token: o.token } : {}),
    ...(cert ? { tlsCertFile: cert } : {}),
    ...(key ? { tlsKeyFile: key } : {}),
    maxMessageBytes: o.maxMessageBytes,
    maxConcurrent: o.maxConcurrent,
    timeoutMs: o.timeoutMs,
    ...(upstream ? { upstream } : {}),
    log: o.log,
  });
}
