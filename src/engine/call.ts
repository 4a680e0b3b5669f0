/**
 * One function call, in kpt's order (docs/kpt-semantics.md, "Calling a function"): KRM check of the input → (bytes runners)
 * ids, serialize, run, parse even on failure, restore comments and key order by id → stop on a
 * non-zero exit → default paths → package-path for new items → path invariants → KRM check of the
 * output → legacy/internal annotation reconciliation (mutators).
 *
 * Objects runners (built-ins, Starlark) edit the live items; afterwards every item the function
 * received that is still in the output gets `normalizeAfterFunction`, the in-place effect of kpt's
 * ResourceList round trip, so the written bytes match kpt's without serializing anything.
 * Validators always receive deep copies. Failures throw FunctionCallError.
 */
import { isKrmfnError, KrmfnError } from '../core/errors.ts';
import type { FunctionRunner, ResourceList, RunContext } from '../core/function.ts';
import { ANNOTATIONS, type KubeObject } from '../core/kube-object.ts';
import type { Limits } from '../core/limits.ts';
import type { Result } from '../core/result.ts';
import { parseFunctionOutput, serializeResourceList } from '../core/resource-list.ts';
import { copyComments, normalizeAfterFunction, syncOrder } from '../core/yaml/index.ts';
import {
  annotation,
  bookkeeping,
  ID_KEYS,
  knownBookkeeping,
  rememberBookkeeping,
  removeAnnotations,
  setAnnotations,
  type Bookkeeping,
} from './annotations.ts';
import { FunctionCallError } from './call-error.ts';
import { runWithDeadline } from './deadline.ts';
import { checkKrm, defaultPath, functionDir, pathInvariantError, type PathIndexSet } from './invariants.ts';

export interface CallRequest {
  /** Display name: resolved image or the whole exec string. */
  name: string;
  runner: FunctionRunner;
  items: KubeObject[];
  functionConfig?: KubeObject | undefined;
  validator: boolean;
  /** Absolute package path given to new items (render); undefined in eval. */
  packagePath?: string | undefined;
  limits: Limits;
  env: Readonly<Record<string, string>>;
  now: () => number;
  signal?: AbortSignal | undefined;
}

export interface CallOutcome {
  items: KubeObject[];
  results: Result[];
  stderr: string;
  exitCode: number;
}

type PathSnapshot = Bookkeeping;
const snapshot = knownBookkeeping;

const dec = new TextDecoder();

export async function callFunction(req: CallRequest): Promise<CallOutcome> {
  const { name } = req;
  checkKrm(req.items, 'input', name);
  const snapshots = new Map<KubeObject, PathSnapshot>();
  let output: KubeObject[];
  let results: Result[];
  let stderr: string;
  let exitCode: number;
  const ctxFor = (signal: AbortSignal, deadline: number): RunContext => ({
    limits: req.limits,
    signal,
    deadline,
    now: req.now,
    env: req.env,
    validator: req.validator,
  });

  if (req.runner.kind === 'bytes') {
    const runner = req.runner;
    const byId = new Map<string, KubeObject>();
    req.items.forEach((o, i) => {
      if (o.root.kind !== 'mapping') return;
      const id = String(i + 1);
      if (!req.validator) o.setAnnotation(ANNOTATIONS.migrationId, String(i));
      o.setAnnotation(ANNOTATIONS.id, id);
      o.setAnnotation(ANNOTATIONS.legacyId, id);
      byId.set(id, o);
    });
    const stdin = new TextEncoder().encode(serializeResourceList(req.items, req.functionConfig));
    for (const o of req.items) removeAnnotations(o, [...ID_KEYS, ANNOTATIONS.migrationId]);
    let outcome;
    try {
      outcome = await runWithDeadline(
        name,
        req.limits.timeoutMs,
        req.signal,
        (signal, deadline) => runner.run(stdin, ctxFor(signal, deadline)),
        req.now,
      );
    } catch (e) {
      throw wrapRunError(e, name);
    }
    stderr = outcome.stderr;
    exitCode = outcome.exitCode;
    if (outcome.stdout.length > req.limits.maxOutputBytes) {
      throw new FunctionCallError({
        code: 'limit-exceeded',
        message: `function ${JSON.stringify(name)} wrote more than ${req.limits.maxOutputBytes} bytes`,
        function: name,
        stderr,
        exitCode,
        stage: 'function',
      });
    }
    let parsed;
    try {
      parsed = parseFunctionOutput(dec.decode(outcome.stdout), { limits: req.limits });
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
    output = parsed.items;
    results = parsed.results;
    for (const o of output) {
      const id = annotation(o, ANNOTATIONS.id) ?? annotation(o, ANNOTATIONS.legacyId);
      const source = id !== undefined ? byId.get(id) : undefined;
      if (source) {
        copyComments(source.doc, o.doc);
        syncOrder(source.doc, o.doc);
        snapshots.set(o, snapshot(source));
      }
      removeAnnotations(o, [...ID_KEYS, ANNOTATIONS.migrationId]);
    }
    if (exitCode !== 0) {
      throw exitFailure(name, exitCode, results, stderr);
    }
  } else {
    const runner = req.runner;
    // Mutators: `snapshots` doubles as the set of items the function received.
    if (!req.validator) for (const o of req.items) snapshots.set(o, snapshot(o));
    const list: ResourceList = { items: [...req.items], results: [] };
    if (req.functionConfig) list.functionConfig = req.functionConfig;
    let outcome;
    try {
      outcome = await runWithDeadline(
        name,
        req.limits.timeoutMs,
        req.signal,
        (signal, deadline) => runner.run(list, ctxFor(signal, deadline)),
        req.now,
      );
    } catch (e) {
      throw wrapRunError(e, name);
    }
    stderr = outcome.stderr;
    exitCode = outcome.exitCode;
    results = outcome.output.results ?? [];
    output = outcome.output.items;
    if (exitCode !== 0) {
      throw exitFailure(name, exitCode, results, stderr);
    }
    if (!req.validator) for (const o of output) if (snapshots.has(o)) normalizeAfterFunction(o.doc);
  }

  try {
    postProcess(output, snapshots, req);
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

function wrapRunError(e: unknown, name: string): FunctionCallError {
  if (isKrmfnError(e)) {
    const ex = e as KrmfnError & { stderr?: string; exitCode?: number };
    return new FunctionCallError({
      code: e.code,
      message: e.message,
      function: name,
      stderr: typeof ex.stderr === 'string' ? ex.stderr : '',
      ...(typeof ex.exitCode === 'number' ? { exitCode: ex.exitCode } : {}),
      stage: 'function',
      cause: e,
    });
  }
  return new FunctionCallError({
    code: 'internal',
    message: `unexpected function error: ${e instanceof Error ? e.message : String(e)}`,
    function: name,
    stage: 'function',
    cause: e,
  });
}

/**
 * After a successful call, in kpt's order: default paths (the functionConfig's directory),
 * package-path for new items, path invariants, the KRM check of the output, then (mutators) the
 * legacy/internal annotation reconciliation of docs/kpt-semantics.md, "Calling a function". One annotation scan per item.
 */
function postProcess(output: readonly KubeObject[], snapshots: Map<KubeObject, PathSnapshot>, req: CallRequest): void {
  const name = req.name;
  const dir = functionDir(req.functionConfig ? annotation(req.functionConfig, ANNOTATIONS.path) : undefined);
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
    if (req.packagePath !== undefined && bk.packagePath === undefined) {
      o.setAnnotation(ANNOTATIONS.packagePath, req.packagePath);
      bk.packagePath = req.packagePath;
    }
    const problem = pathInvariantError(bk, seen);
    if (problem) throw new KrmfnError({ ...problem, function: name });
  }
  checkKrm(output, 'output', name);
  if (req.validator) return;
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

/** The error of a function that exited non-zero (kpt prints its `Exit code: N` block, no error line). */
function exitFailure(name: string, exitCode: number, results: Result[], stderr: string): FunctionCallError {
  return new FunctionCallError({
    code: 'function-failed',
    message: `function ${JSON.stringify(name)} exited with code ${exitCode}`,
    function: name,
    results,
    stderr,
    exitCode,
    exitFailure: true,
    stage: 'function',
  });
}
