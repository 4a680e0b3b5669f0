/**
 * The gRPC transport the Node edge gives the remote runtime (src/runtimes/remote.ts) for its
 * `grpc://` and `grpcs://` endpoints: one channel per call, closed after it, so a CLI run leaves
 * nothing open behind it.
 */
import type { GrpcEvaluate } from '../../runtimes/remote.ts';
import { createEvaluatorClient, isServiceError } from './client.ts';
import { Status, statusName } from './status.ts';

export const grpcEvaluate: GrpcEvaluate = async (call) => {
  const client = await createEvaluatorClient({ address: call.target, tls: call.tls, metadata: call.metadata });
  try {
    const res = await client.evaluate(
      { resource_list: call.resourceList, image: call.image },
      { deadline: call.deadline, signal: call.signal },
    );
    return { ok: true, resourceList: res.resource_list, log: new TextDecoder().decode(res.log) };
  } catch (e) {
    if (isServiceError(e)) return { ok: false, code: e.code, codeName: statusName(e.code), details: e.details };
    return { ok: false, code: Status.UNAVAILABLE, codeName: 'UNAVAILABLE', details: (e as Error).message };
  } finally {
    client.close();
  }
};
