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
import { ANNOTATIONS, EDITS, type KubeObject } from '../core/kube-object.ts';
import type { Result } from '../core/result.ts';
import { normalizeAfterFunction } from '../core/yaml/index.ts';
import type { YNode } from '../core/yaml/node.ts';
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
import {
  checkKrm,
  defaultPath,
  functionDir,
  krmError,
  passedKrmCheck,
  pathInvariantError,
  type PathIndexSet,
} from './invariants.ts';
import type { RawOutcome } from './call-run.ts';

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
    postProcess(raw, call);
  } catch (e) {
    if (e instanceof NormalizeFailure) throw e.cause;
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
 * legacy/internal annotation reconciliation of docs/kpt-semantics.md, "Calling a function".
 *
 * Everything that reads an item's tree (normalisation, bookkeeping, defaults, path invariants, the
 * KRM check) is one pass, each item finished before the next, so its nodes are fetched into the
 * CPU cache once per call, not once per stage (at 10,000 items the separate passes cost more than
 * the work in them). The effects stay those of kpt's stage order: a path invariant throws at once
 * (it outranks a KRM problem of an earlier item, and the items after it are still normalised, as
 * they were when normalisation came first); the first KRM problem is thrown after the pass; the
 * reconciliation, which reads only the bookkeeping just collected, is its own pass after that.
 */
function postProcess(raw: RawOutcome, call: FunctionCall): void {
  const { output, snapshots } = raw;
  const normalize = raw.normalizeReceived === true;
  const name = call.name;
  const dir = functionDir(call.functionConfig ? annotation(call.functionConfig, ANNOTATIONS.path) : undefined);
  const seen: PathIndexSet = new Map();
  const states: Bookkeeping[] = [];
  let notKrm: KrmfnError | undefined;
  for (let n = 0; n < output.length; n++) {
    const o = output[n];
    const edits = o.takeEdits();
    const received = snapshots.get(o);
    const input = received && o.takeInput();
    if (normalize && received && ((edits & EDITS.unknown) !== 0 || !normalForm.has(o))) normalizeItem(o, input);
    // Annotations the function did not edit still hold the bookkeeping it was given.
    const bk = received && (edits & (EDITS.unknown | EDITS.annotations)) === 0 ? { ...received } : bookkeeping(o);
    states.push(bk);
    if (o.root.kind === 'mapping') {
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
      if (problem) {
        if (normalize)
          for (const rest of output.slice(n + 1)) if (snapshots.has(rest)) normalizeItem(rest, rest.takeInput());
        throw new KrmfnError({ ...problem, function: name });
      }
    }
    // An item whose identity and annotations the function did not edit passed its last output
    // check and would pass again.
    if ((edits & (EDITS.unknown | EDITS.identity | EDITS.annotations)) !== 0 || !passedKrmCheck(o))
      notKrm ??= krmError(o, 'output', name);
  }
  if (notKrm) throw notKrm;
  if (call.validator) return;
  output.forEach((o, n) => {
    if (o.root.kind !== 'mapping') return;
    const mismatch = reconcile(o, states[n], snapshots.get(o), name);
    if (mismatch) throw mismatch;
  });
}

/** An error of the normalisation, which precedes the checks and so is not one of theirs. */
class NormalizeFailure {
  readonly cause: unknown;
  constructor(cause: unknown) {
    this.cause = cause;
  }
}

/**
 * Received items whose tree `normalizeAfterFunction` last found with nothing to rewrite. Such an
 * item needs it again only after an edit that could add something to rewrite, an unknown one
 * (KubeObject.takeEdits): a round trip of it changes nothing (docs/kpt-semantics.md, "Calling a
 * function"). Keyed weakly: dropped items go away.
 */
const normalForm = new WeakSet<KubeObject>();

/** `input`: the item as the function received it, when the function edited its tree (KubeObject.watchInput). */
function normalizeItem(o: KubeObject, input: YNode | undefined): void {
  let clean: boolean;
  try {
    clean = normalizeAfterFunction(o.doc, input);
  } catch (e) {
    throw new NormalizeFailure(e);
  }
  if (clean) normalForm.add(o);
  else normalForm.delete(o);
}

const PAIRS = [
  ['path', 'ipath', ANNOTATIONS.path, ANNOTATIONS.internalPath, 'path'],
  ['index', 'iindex', ANNOTATIONS.index, ANNOTATIONS.internalIndex, 'index'],
] as const;

/**
 * kpt's legacy/internal annotation reconciliation for one mutator output item (`now` is its
 * bookkeeping after the call, `before` as it was given to the function, undefined for a new item);
 * the mismatch error when both forms changed differently.
 */
function reconcile(
  o: KubeObject,
  now: Bookkeeping,
  before: Bookkeeping | undefined,
  name: string,
): KrmfnError | undefined {
  rememberBookkeeping(o, now);
  for (const [lk, ik, legacyKey, internalKey, label] of PAIRS) {
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
      return new KrmfnError({
        code: 'annotation-mismatch',
        message: `resource input to function has mismatched legacy and internal ${label} annotations`,
        function: name,
      });
    }
  }
  return undefined;
}
