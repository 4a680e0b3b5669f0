/**
 * `krmfn serve --grpc`: Porch's `evaluator.FunctionEvaluator/EvaluateFunction` and the standard
 * `grpc.health.v1.Health` service, over the same `FunctionService` the HTTP server uses.
 *
 * Limits match the HTTP server's: messages larger than `maxMessageBytes` are refused by grpc-js
 * with RESOURCE_EXHAUSTED; more than `maxConcurrent` calls at once get RESOURCE_EXHAUSTED; each
 * call runs until the client's gRPC deadline or `timeoutMs`, whichever is earlier
 * (DEADLINE_EXCEEDED), and stops when the client cancels; with a token, EvaluateFunction needs
 * `authorization: Bearer <token>` metadata (UNAUTHENTICATED otherwise; health stays open for
 * probes). Answers and error texts follow Porch's own runner (porch-status.ts). Images the service
 * does not run are forwarded to `upstream` when one is set, its answer relayed as is (Porch's
 * func/internal/multievaluator.go: the next evaluator gets the call on NotFound). `close()`
 * reports NOT_SERVING, lets in-flight calls finish (up to `graceMs`), then stops.
 */
import { timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type * as grpc from '@grpc/grpc-js';
import { isNotFoundError } from '../../core/errors.ts';
import type { FunctionService } from '../serve/service.ts';
import { isServiceError, type EvaluatorClient } from './client.ts';
import { Status, statusName } from './status.ts';
import { answerFromError, answerFromRun, type PorchAnswer } from './porch-status.ts';
import {
  EVALUATOR_SERVICE,
  protos,
  type EvaluateFunctionRequest,
  type EvaluateFunctionResponse,
  type ServingStatus,
} from './proto.ts';

export interface GrpcServeOptions {
  service: FunctionService;
  /** `host:port`; `:port` binds every interface; port 0 picks a free one. */
  address: string;
  token?: string;
  /** PEM files; both or neither. */
  tlsCertFile?: string;
  tlsKeyFile?: string;
  maxMessageBytes?: number;
  maxConcurrent?: number;
  timeoutMs?: number;
  graceMs?: number;
  upstream?: EvaluatorClient;
  log?: (entry: Record<string, unknown>) => void;
  now?: () => number;
}

export interface RunningGrpcServer {
  readonly port: number;
  /** `host:port` a client on this machine can dial. */
  readonly target: string;
  inFlight(): number;
  close(): Promise<void>;
}

function splitAddress(address: string): { host: string; port: number } {
  const m = /^(.*):(\d+)$/.exec(address);
  if (!m) throw new Error(`invalid gRPC address ${JSON.stringify(address)}: want HOST:PORT`);
  return { host: m[1] === '' ? '0.0.0.0' : m[1], port: Number(m[2]) };
}

function bearerOk(md: grpc.Metadata, expected: Buffer | undefined): boolean {
  if (!expected) return true;
  const got = Buffer.from(String(md.get('authorization')[0] ?? ''));
  return got.length === expected.length && timingSafeEqual(got, expected);
}

export async function startGrpcServer(opts: GrpcServeOptions): Promise<RunningGrpcServer> {
  const now = opts.now ?? Date.now;
  const log = opts.log ?? (() => undefined);
  const maxConcurrent = opts.maxConcurrent ?? 16;
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const max = opts.maxMessageBytes ?? 16 * 1024 * 1024;
  const token = opts.token ? Buffer.from(`Bearer ${opts.token}`) : undefined;
  const { host, port } = splitAddress(opts.address);
  const { grpc, FunctionEvaluator, Health } = await protos();
  let inFlight = 0;
  let status: ServingStatus = 'SERVING';
  const watchers = new Set<grpc.ServerWritableStream<{ service: string }, { status: ServingStatus }>>();

  const server = new grpc.Server({
    'grpc.max_receive_message_length': max,
    'grpc.max_send_message_length': max,
  });

  async function evaluate(
    req: EvaluateFunctionRequest,
    call: grpc.ServerUnaryCall<EvaluateFunctionRequest, EvaluateFunctionResponse>,
  ): Promise<PorchAnswer> {
    const clientDeadline = Number(call.getDeadline());
    const deadline = Math.min(Number.isFinite(clientDeadline) ? clientDeadline : Infinity, now() + timeoutMs);
    const abort = new AbortController();
    call.on('cancelled', () => abort.abort());
    try {
      const out = await opts.service.run({
        image: req.image,
        input: req.resource_list,
        format: 'yaml',
        signal: abort.signal,
        deadline,
      });
      return answerFromRun(req.image, out);
    } catch (e) {
      if (!(isNotFoundError(e) && opts.upstream)) return answerFromError(req.image, e);
    }
    try {
      const res = await opts.upstream.evaluate(req, { deadline, signal: abort.signal });
      return { ok: true, resourceList: res.resource_list, log: res.log };
    } catch (e) {
      if (isServiceError(e)) return { ok: false, code: e.code, details: e.details };
      return { ok: false, code: Status.UNAVAILABLE, details: (e as Error).message };
    }
  }

  server.addService(FunctionEvaluator.service, {
    EvaluateFunction(
      call: grpc.ServerUnaryCall<EvaluateFunctionRequest, EvaluateFunctionResponse>,
      callback: grpc.sendUnaryData<EvaluateFunctionResponse>,
    ): void {
      const t0 = now();
      const req = call.request;
      const done = (answer: PorchAnswer, counted: boolean): void => {
        if (counted) inFlight--;
        log({
          msg: 'grpc',
          method: 'EvaluateFunction',
          image: req.image,
          code: answer.ok ? 'OK' : statusName(answer.code),
          ms: now() - t0,
          peer: call.getPeer(),
        });
        if (answer.ok) callback(null, { resource_list: answer.resourceList, log: answer.log });
        else callback({ code: answer.code, details: answer.details });
      };
      if (!bearerOk(call.metadata, token))
        return done({ ok: false, code: Status.UNAUTHENTICATED, details: 'missing or wrong bearer token' }, false);
      if (status !== 'SERVING')
        return done({ ok: false, code: Status.UNAVAILABLE, details: 'server is shutting down' }, false);
      if (inFlight >= maxConcurrent)
        return done(
          {
            ok: false,
            code: Status.RESOURCE_EXHAUSTED,
            details: `too many concurrent calls (limit ${maxConcurrent}); retry later`,
          },
          false,
        );
      inFlight++;
      void evaluate(req, call).then((a) => done(a, true));
    },
  });

  server.addService(Health.service, {
    Check(
      call: grpc.ServerUnaryCall<{ service: string }, { status: ServingStatus }>,
      callback: grpc.sendUnaryData<{ status: ServingStatus }>,
    ): void {
      const svc = call.request.service;
      if (svc !== '' && svc !== EVALUATOR_SERVICE)
        return callback({ code: Status.NOT_FOUND, details: `unknown service ${JSON.stringify(svc)}` });
      callback(null, { status });
    },
    Watch(call: grpc.ServerWritableStream<{ service: string }, { status: ServingStatus }>): void {
      const svc = call.request.service;
      call.write({ status: svc === '' || svc === EVALUATOR_SERVICE ? status : 'SERVICE_UNKNOWN' });
      watchers.add(call);
      call.on('cancelled', () => watchers.delete(call));
    },
  });

  const creds =
    opts.tlsCertFile || opts.tlsKeyFile
      ? grpc.ServerCredentials.createSsl(
          null,
          [{ cert_chain: readFileSync(opts.tlsCertFile ?? ''), private_key: readFileSync(opts.tlsKeyFile ?? '') }],
          false,
        )
      : grpc.ServerCredentials.createInsecure();
  const bindHost = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  const boundPort = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${bindHost}:${port}`, creds, (err, p) => (err ? reject(err) : resolve(p))),
  );
  const dialHost = host === '0.0.0.0' || host === '::' || host === '[::]' ? '127.0.0.1' : bindHost;
  log({ msg: 'listening', protocol: 'grpc', address: `${bindHost}:${boundPort}`, tls: creds._isSecure() });

  let closing: Promise<void> | undefined;
  return {
    port: boundPort,
    target: `${dialHost}:${boundPort}`,
    inFlight: () => inFlight,
    close(): Promise<void> {
      closing ??= new Promise<void>((resolve) => {
        status = 'NOT_SERVING';
        for (const w of watchers) {
          w.write({ status });
          w.end();
        }
        watchers.clear();
        const force = setTimeout(() => server.forceShutdown(), opts.graceMs ?? 30_000);
        server.tryShutdown(() => {
          clearTimeout(force);
          opts.upstream?.close();
          resolve();
        });
      });
      return closing;
    },
  };
}
