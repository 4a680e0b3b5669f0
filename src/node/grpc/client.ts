/**
 * A client of Porch's `FunctionEvaluator` service (a Porch function runner, one of its wrapper
 * servers, or another `krmfn serve --grpc`): used to forward calls upstream and by the remote
 * runtime's `grpc://` endpoints. Rejects with the server's `grpc.ServiceError` (code + details).
 */
import { readFileSync } from 'node:fs';
import type * as grpc from '@grpc/grpc-js';
import { protos, type EvaluateFunctionRequest, type EvaluateFunctionResponse } from './proto.ts';

export interface EvaluatorClientOptions {
  /** `host:port`. */
  address: string;
  /** Use TLS; `caFile` adds a CA to trust (the system roots otherwise). */
  tls?: boolean;
  caFile?: string;
  /** Sent as `authorization: Bearer <token>`. */
  token?: string;
  /** Further metadata sent with every call. */
  metadata?: Record<string, string>;
  maxMessageBytes?: number;
}

export interface CallOptions {
  /** Epoch ms. */
  deadline?: number;
  signal?: AbortSignal;
}

export interface EvaluatorClient {
  evaluate(req: EvaluateFunctionRequest, opts?: CallOptions): Promise<EvaluateFunctionResponse>;
  close(): void;
}

export function isServiceError(e: unknown): e is grpc.ServiceError {
  return e instanceof Error && typeof (e as Partial<grpc.ServiceError>).code === 'number' && 'details' in e;
}

export async function createEvaluatorClient(opts: EvaluatorClientOptions): Promise<EvaluatorClient> {
  const { grpc, FunctionEvaluator } = await protos();
  const creds = opts.tls
    ? grpc.credentials.createSsl(opts.caFile ? readFileSync(opts.caFile) : null)
    : grpc.credentials.createInsecure();
  const max = opts.maxMessageBytes ?? 16 * 1024 * 1024;
  const client = new FunctionEvaluator(opts.address, creds, {
    'grpc.max_receive_message_length': max,
    'grpc.max_send_message_length': max,
  });
  type Unary = (
    req: EvaluateFunctionRequest,
    md: grpc.Metadata,
    options: grpc.CallOptions,
    cb: (err: grpc.ServiceError | null, res?: EvaluateFunctionResponse) => void,
  ) => grpc.ClientUnaryCall;
  const call = (client as unknown as { EvaluateFunction: Unary }).EvaluateFunction.bind(client);
  return {
    evaluate(req, callOpts = {}) {
      const md = new grpc.Metadata();
      for (const [k, v] of Object.entries(opts.metadata ?? {})) md.set(k.toLowerCase(), v);
      if (opts.token) md.set('authorization', `Bearer ${opts.token}`);
      const options: grpc.CallOptions = callOpts.deadline !== undefined ? { deadline: callOpts.deadline } : {};
      return new Promise((resolve, reject) => {
        const c = call(req, md, options, (err, res) => (err ? reject(err) : resolve(res!)));
        const signal = callOpts.signal;
        if (signal) {
          if (signal.aborted) c.cancel();
          else signal.addEventListener('abort', () => c.cancel(), { once: true });
        }
      });
    },
    close: () => client.close(),
  };
}
