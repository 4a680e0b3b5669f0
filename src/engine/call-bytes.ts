/**
 * One call of a bytes runner (exec, containers, WASM, remote), the first half of
 * src/engine/call.ts in kpt's order: ids stamped on the input, the ResourceList serialized, the
 * runner run under the call's deadline, its stdout capped and parsed even on failure, comments and
 * key order restored from the input item of the same id, then a non-zero exit fails the call.
 */
import { isKrmfnError } from '../core/errors.ts';
import type { BytesRunner } from '../core/function.ts';
import { ANNOTATIONS, type KubeObject } from '../core/kube-object.ts';
import { parseFunctionOutput, serializeResourceList } from '../core/resource-list.ts';
import { copyComments, syncOrder } from '../core/yaml/index.ts';
import { annotation, ID_KEYS, knownBookkeeping, removeAnnotations, type Bookkeeping } from './annotations.ts';
import type { FunctionCall } from './call.ts';
import { FunctionCallError } from './call-error.ts';
import type { CallEnv } from './call-env.ts';
import { attempt, exitFailure, type RawOutcome } from './call-run.ts';

const dec = new TextDecoder();

export async function callBytesRunner(
  env: CallEnv,
  call: FunctionCall,
  runner: BytesRunner,
  items: KubeObject[],
): Promise<RawOutcome> {
  const { name } = call;
  const byId = new Map<string, KubeObject>();
  items.forEach((o, i) => {
    if (o.root.kind !== 'mapping') return;
    const id = String(i + 1);
    if (!call.validator) o.setAnnotation(ANNOTATIONS.migrationId, String(i));
    o.setAnnotation(ANNOTATIONS.id, id);
    o.setAnnotation(ANNOTATIONS.legacyId, id);
    byId.set(id, o);
  });
  const stdin = new TextEncoder().encode(serializeResourceList(items, call.functionConfig));
  for (const o of items) removeAnnotations(o, [...ID_KEYS, ANNOTATIONS.migrationId]);
  const outcome = await attempt(env, name, call.validator, (ctx) => runner.run(stdin, ctx));
  const { stderr, exitCode } = outcome;
  if (outcome.stdout.length > env.limits.maxOutputBytes) {
    throw new FunctionCallError({
      code: 'limit-exceeded',
      message: `function ${JSON.stringify(name)} wrote more than ${env.limits.maxOutputBytes} bytes`,
      function: name,
      stderr,
      exitCode,
      stage: 'function',
    });
  }
  let parsed;
  try {
    parsed = parseFunctionOutput(dec.decode(outcome.stdout), { limits: env.limits });
  } catch (e) {
    const msg = isKrmfnError(e) ? e.message : String(e);
    throw new FunctionCallError({
      code: 'function-output',
      message: `MalformedYAMLError: ${msg}`,
      function: name,
      stderr,
      exitCode,
      stage: 'function',
      cause: e,
    });
  }
  const output = parsed.items;
  const results = parsed.results;
  const snapshots = new Map<KubeObject, Bookkeeping>();
  for (const o of output) {
    const id = annotation(o, ANNOTATIONS.id) ?? annotation(o, ANNOTATIONS.legacyId);
    const source = id !== undefined ? byId.get(id) : undefined;
    if (source) {
      copyComments(source.doc, o.doc);
      syncOrder(source.doc, o.doc);
      snapshots.set(o, knownBookkeeping(source));
    }
    removeAnnotations(o, [...ID_KEYS, ANNOTATIONS.migrationId]);
  }
  if (exitCode !== 0) throw exitFailure(name, exitCode, results, stderr);
  return { output, results, stderr, exitCode, snapshots };
}
