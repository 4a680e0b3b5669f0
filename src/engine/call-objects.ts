/**
 * One call of an objects runner (built-ins, Starlark, SDK functions in process), the first half of
 * src/engine/call.ts: the runner edits the live items under the call's deadline; a non-zero exit
 * fails the call; afterwards every item the function received that is still in the output gets
 * `normalizeAfterFunction`, the in-place effect of kpt's ResourceList round trip, so the written
 * bytes match kpt's without serializing anything (applied by src/engine/call.ts in its one pass
 * over the output, `normalizeReceived`), skipping items the function did not edit in a way that
 * could need it. Validators receive deep copies (src/engine/step.ts).
 */
import type { ObjectsRunner, ResourceList } from '../core/function.ts';
import type { KubeObject } from '../core/kube-object.ts';
import { knownBookkeeping, type Bookkeeping } from './annotations.ts';
import type { FunctionCall } from './call.ts';
import type { CallEnv } from './call-env.ts';
import { attempt, exitFailure, type RawOutcome } from './call-run.ts';

export async function callObjectsRunner(
  env: CallEnv,
  call: FunctionCall,
  runner: ObjectsRunner,
  items: KubeObject[],
): Promise<RawOutcome> {
  const { name } = call;
  const snapshots = new Map<KubeObject, Bookkeeping>();
  // Mutators: `snapshots` doubles as the set of items the function received. Edits are counted
  // from here (KubeObject.takeEdits): what the engine did before is not the function's.
  if (!call.validator)
    for (const o of items) {
      snapshots.set(o, knownBookkeeping(o));
      o.takeEdits();
      // kpt copies comments from the item the function received onto what it returned.
      o.watchInput();
    }
  const list: ResourceList = { items: [...items], results: [] };
  if (call.functionConfig) list.functionConfig = call.functionConfig;
  const outcome = await attempt(env, name, call.validator, (ctx) => runner.run(list, ctx));
  const { stderr, exitCode } = outcome;
  const results = outcome.output.results ?? [];
  const output = outcome.output.items;
  if (exitCode !== 0) throw exitFailure(name, exitCode, results, stderr);
  return { output, results, stderr, exitCode, snapshots, normalizeReceived: !call.validator };
}
