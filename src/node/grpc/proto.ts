/**
 * The gRPC service definitions krmfn speaks, loaded from its own .proto copies
 * (src/node/grpc/proto/): Porch's `evaluator.FunctionEvaluator` and `grpc.health.v1.Health`.
 * Field names keep their proto spelling (`resource_list`, `Tag`); bytes fields are Buffers.
 */
import * as nodePath from 'node:path';
import type * as GrpcJs from '@grpc/grpc-js';
import { krmfnRoot } from '../package-root.ts';

export interface EvaluateFunctionRequest {
  resource_list: Uint8Array;
  image: string;
  Tag?: string;
}

export interface EvaluateFunctionResponse {
  resource_list: Uint8Array;
  log: Uint8Array;
}

export type ServingStatus = 'UNKNOWN' | 'SERVING' | 'NOT_SERVING' | 'SERVICE_UNKNOWN';

export const EVALUATOR_SERVICE = 'evaluator.FunctionEvaluator';

interface ServiceClass {
  new (address: string, credentials: GrpcJs.ChannelCredentials, options?: GrpcJs.ClientOptions): GrpcJs.Client;
  service: GrpcJs.ServiceDefinition;
}

export interface Protos {
  /** grpc-js itself, loaded on first use (so other krmfn commands never load it). */
  grpc: typeof GrpcJs;
  FunctionEvaluator: ServiceClass;
  Health: ServiceClass;
}

let loaded: Protos | undefined;

/** The proto directory: in the sources, and shipped as is in the package (package.json `files`). */
export function protoDir(): string {
  return nodePath.join(krmfnRoot(), 'src', 'node', 'grpc', 'proto');
}

export async function protos(): Promise<Protos> {
  if (loaded) return loaded;
  const grpc = await import('@grpc/grpc-js');
  const protoLoader = await import('@grpc/proto-loader');
  const def = protoLoader.loadSync(['evaluator.proto', 'health.proto'], {
    includeDirs: [protoDir()],
    keepCase: true,
    enums: String,
    defaults: true,
  });
  const pkg = grpc.loadPackageDefinition(def) as unknown as {
    evaluator: { FunctionEvaluator: ServiceClass };
    grpc: { health: { v1: { Health: ServiceClass } } };
  };
  loaded = { grpc, FunctionEvaluator: pkg.evaluator.FunctionEvaluator, Health: pkg.grpc.health.v1.Health };
  return loaded;
}
