/**
 * One function call, in kpt's order (docs/kpt-semantics.md, "Calling a function"): KRM check of
 * the input → the runner, by kind (bytes: src/engine/call-bytes.ts, ids, serialize, run, parse even
 * on failure, restore comments and key order by id; objects: src/engine/call-objects.ts, live items
 * normalised as a round trip would) → stop on a non-zero exit → default paths → package-path for
 * new items → path invariants → KRM check of the output → legacy/internal annotation
 * reconciliation (mutators). Failures throw FunctionCallError.
 *
 * The call context (`CallEnv`, src/engine/call-env.ts) comes from the run; what is this call's
 * own (`FunctionCall`, the items) is passed beside it.
 */
import { isKrmfnError, KrmfnError } from '../core/errors.ts';
import type { FunctionRunner } from '../core/function.ts';
import { ANNOTATIONS, type KubeObject } from '../core/kube-object.ts';
import type { Result } from '../core/result.ts';
import {
  annotation,
  bookkeeping,
  rememberBookkeeping,
  removeAnnotations,
  setAnnotations,
  type Bookkeeping,
} from './annotations.ts';
import { callBytesRunner } from './call-bytes.ts';
import type { CallEnv } from './call-env.ts';
import { FunctionCallError } from './call-error.ts';
import { callObjectsRunner } from './call-objects.ts';
import { checkKrm, defaultPath, functionDir, pathInvariantError, type PathIndexSet } from './invariants.ts';

/** What is one call's own: which function, run by which runner, with which config and role. */
export interface FunctionCall {
  /** Display name: resolved image or the whole exec string. */
  name: string;
  runner: FunctionRunner;
  functionConfig?: KubeObject | undefined;
  validator: boolean;
  /** Absolute package path given to new items (render); undefined in eval. */
  packagePath?: string | undefined;
}

export interface CallOutcome {
  items: KubeObject[];
  results: Result[];
  stderr: string;
  exitCode: number;
}

export async function callFunction(env: CallEnv, call: FunctionCall, items: KubeObject[]): Promise<CallOutcome> {
  const { name } = call;
  checkKrm(items, 'input', name);
  const raw =
    call.runner.kind === 'bytes'
      ? await callBytesRunner(env, call, call.runner, items)
      : await callObjectsRunner(env, call, call.runner, items);
  const { output, results, stderr, exitCode } = raw;
  try {
    postProcess(output, raw.snapshots, call);
  } catch (e) {
    if (!isKrmfnError(e)) throw e;
    throw new FunctionCallError({
      code: e.code,
      message: e.message,
      function: name,
      results,
      stderr,
      exitCode,
      stage: e.code === 'annotation-mismatch' ? 'after-pass' : 'checks',
      cause: e,
    });
  }
  return { items: output, results, stderr, exitCode };
}

/**
 * After a successful call, in kpt's order: default paths (the functionConfig's directory),
 * package-path for new items, path invariants, the KRM check of the output, then (mutators) the
 * legacy/internal annotation reconciliation of docs/kpt-semantics.md, "Calling a function". One annotation scan per item.
 */
function postProcess(output: readonly KubeObject[], snapshots: Map<KubeObject, Bookkeeping>, call: FunctionCall): void {
  const name = call.name;
  const dir = functionDir(call.functionConfig ? annotation(call.functionConfig, ANNOTATIONS.path) : undefined);
  const seen: PathIndexSet = new Map();
  const states: Bookkeeping[] = [];
  for (const o of output) {
    const bk = bookkeeping(o);
    states.push(bk);
    if (o.root.kind !== 'mapping') continue;
    if (bk.ipath === undefined && bk.path === undefined) {
      const p = defaultPath(o, dir);
      // kyaml's DefaultPathAnnotation order and SetAnnotation's single quotes (see write.ts relativize).
      setAnnotations(
        o,
        [
          [ANNOTATIONS.internalPath, p],
          [ANNOTATIONS.path, p],
        ],
        'single',
      );
      bk.path = bk.ipath = p;
    }
    if (call.packagePath !== undefined && bk.packagePath === undefined) {
      o.setAnnotation(ANNOTATIONS.packagePath, call.packagePath);
      bk.packagePath = call.packagePath;
    }
    const problem = pathInvariantError(bk, seen);
    if (problem) throw new KrmfnError({ ...problem, function: name });
  }
  checkKrm(output, 'output', name);
  if (call.validator) return;
  const pairs = [
    ['path', 'ipath', ANNOTATIONS.path, ANNOTATIONS.internalPath, 'path'],
    ['index', 'iindex', ANNOTATIONS.index, ANNOTATIONS.internalIndex, 'index'],
  ] as const;
  output.forEach((o, n) => {
    if (o.root.kind !== 'mapping') return;
    const now = states[n];
    rememberBookkeeping(o, now);
    const before = snapshots.get(o);
    for (const [lk, ik, legacyKey, internalKey, label] of pairs) {
      const l = now[lk];
      const i = now[ik];
      if (l === i) continue;
      if (!before) {
        if (l === undefined) {
          o.setAnnotation(legacyKey, i!);
          now[lk] = i;
        } else if (i === undefined) {
          o.setAnnotation(internalKey, l);
          now[ik] = l;
        }
        continue;
      }
      const lChanged = l !== before[lk];
      const iChanged = i !== before[ik];
      if (lChanged && !iChanged) {
        if (l === undefined) removeAnnotations(o, [internalKey]);
        else o.setAnnotation(internalKey, l);
        now[ik] = l;
      } else if (iChanged && !lChanged) {
        if (i === undefined) removeAnnotations(o, [legacyKey]);
        else o.setAnnotation(legacyKey, i);
        now[lk] = i;
      } else if (lChanged && iChanged) {
        throw new KrmfnError({
          code: 'annotation-mismatch',
          message: `resource input to function has mismatched legacy and internal ${label} annotations`,
          function: name,
        });
      }
    }
  });
}
