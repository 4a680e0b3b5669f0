/**
 * Messages between the server's main thread and its render workers (worker-pool.ts,
 * worker-entry.ts). Everything is structured-clone data; errors travel as their data and become
 * `KrmfnError`s again (a `LimitExceededError` when they carry `limit`) on the main thread, so the
 * HTTP status of a failure is the same whether it happened in a worker or in process.
 */
import { KrmfnError, LimitExceededError, type ErrorData, type LimitKind } from '../../core/errors.ts';
import type { FunctionInfo, RenderRequest, RenderResponse, RunRequest, RunResponse } from './service.ts';
import type { ServeConfig } from './config.ts';

export interface WorkerSetup {
  config: ServeConfig;
  functions: FunctionInfo[];
}

export type JobRequest =
  { op: 'run'; req: Omit<RunRequest, 'signal'> } | { op: 'render'; req: Omit<RenderRequest, 'signal'> };

export type JobReply = RunResponse | RenderResponse;

export type WorkerMessage = { id: number } & JobRequest;

export type WorkerAnswer =
  | { id: number; ok: true; value: JobReply }
  | { id: number; ok: false; error: ErrorData & { limit?: LimitKind; name?: string } };

export function errorToData(e: unknown): ErrorData & { limit?: LimitKind } {
  if (e instanceof KrmfnError) {
    const data: ErrorData & { limit?: LimitKind } = e.toData();
    if (e instanceof LimitExceededError) data.limit = e.limit;
    return data;
  }
  return { code: 'internal', message: e instanceof Error ? e.message : String(e) };
}

export function errorFromData(d: ErrorData & { limit?: LimitKind }): KrmfnError {
  if (d.limit) return new LimitExceededError(d.limit, d.message, d.function);
  return new KrmfnError(d);
}
