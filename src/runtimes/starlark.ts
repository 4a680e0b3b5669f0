/**
 * The KRM `starlark` function (kpt's `gcr.io/kpt-fn/starlark`, `ghcr.io/kptdev/krm-functions-catalog/starlark`)
 * as an in-process `objects` runtime (starlark.md Part C).
 *
 * A call: read the script from the StarlarkRun / ConfigMap functionConfig; convert every item to a
 * Starlark dict stamped with kpt's call ids (`internal.config.kubernetes.io/id`, `config.k8s.io/id`);
 * run the script in kpt's dialect (set, while, top-level control, global reassignment, recursion)
 * with the only predeclared name `ctx`; read `ctx.resource_list["items"]` back. As in kpt, every
 * output item is re-marshalled (sorted keys, plain styles) and an item whose id matches an input
 * gets that input's comments and key order back, in place on the same KubeObject; items without a
 * matching id are new resources. `print` lines go to stderr. Any failure is one error result with
 * exit code 1 and leaves the items untouched: `fail: <msg>` and other dynamic errors as their bare
 * message, static errors as `<name>:<line>:<col>: <msg>` (the first).
 *
 * Limits: the call's step budget, deadline (polled against the injected clock), AbortSignal,
 * memory budget (allocation) and output budget apply to the script.
 */
import { NotFoundError } from '../core/errors.ts';
import type {
  FunctionRuntime,
  FunctionSpec,
  ObjectsOutcome,
  ObjectsRunner,
  ResourceList,
  RunContext,
} from '../core/function.ts';
import { parseImageRef } from '../core/image.ts';
import { ANNOTATIONS, KubeObject } from '../core/kube-object.ts';
import type { Result } from '../core/result.ts';
import { copyComments, syncOrder } from '../core/yaml/index.ts';
import { documentNode, mapGet, mapIndexOf, type YNode } from '../core/yaml/node.ts';
import {
  Dict,
  List,
  Tuple,
  execFile,
  fromHostString,
  isStarlarkEvalError,
  isStarlarkSyntaxError,
  toHostString,
} from '../starlark/index.ts';
import type { Dialect, Value } from '../starlark/index.ts';
import { readScriptConfig } from './starlark/config.ts';
import { KrmContext } from './starlark/context.ts';
import { OutputConversionError, nodeToStarlark, starlarkToNode } from './starlark/convert.ts';
import { krmLoader } from './starlark/modules.ts';

/** Repositories kpt publishes the starlark function under; any tag or digest. */
export const STARLARK_IMAGE_REPOSITORIES: readonly string[] = Object.freeze([
  'gcr.io/kpt-fn',
  'ghcr.io/kptdev/krm-functions-catalog',
]);

/** The dialect kpt's function enables (starlark.md §14). */
export const KRM_STARLARK_DIALECT: Readonly<Dialect> = Object.freeze({
  set: true,
  while: true,
  topLevelControl: true,
  globalReassign: true,
  recursion: true,
});

export interface StarlarkRuntimeOptions {
  /** `ctx.open_api`: the OpenAPI (swagger v2) document as JSON-like data, fetched on first use. Default `{}`. */
  openApi?: () => unknown;
}

export function isStarlarkImage(image: string): boolean {
  const ref = parseImageRef(image);
  return ref.name === 'starlark' && STARLARK_IMAGE_REPOSITORIES.includes(ref.repository);
}

export function createStarlarkRuntime(opts: StarlarkRuntimeOptions = {}): FunctionRuntime {
  return {
    name: 'starlark',
    async resolve(spec: FunctionSpec): Promise<ObjectsRunner> {
      if (spec.image === undefined || !isStarlarkImage(spec.image))
        throw new NotFoundError(spec.image ?? spec.exec ?? '');
      return {
        kind: 'objects',
        run: async (input, ctx) => runStarlarkFunction(input, ctx, opts),
      };
    },
  };
}

const ID_ANNOTATIONS = [ANNOTATIONS.id, ANNOTATIONS.legacyId] as const;
const FAILURE_STDERR = 'failed to evaluate function: error: function failure';

function failed(input: ResourceList, message: string, printed: string[]): ObjectsOutcome {
  const result: Result = { message, severity: 'error' };
  return {
    output: {
      items: input.items,
      ...(input.functionConfig ? { functionConfig: input.functionConfig } : {}),
      results: [result],
    },
    stderr: [...printed, FAILURE_STDERR].join('\n'),
    exitCode: 1,
  };
}

const b = fromHostString;

/** Runs one call. Exported for hosts that drive the function without a runtime chain. */
export function runStarlarkFunction(
  input: ResourceList,
  ctx: RunContext,
  opts: StarlarkRuntimeOptions = {},
): ObjectsOutcome {
  const cfg = readScriptConfig(input.functionConfig);
  if (!cfg.ok) return failed(input, cfg.message, []);

  // Items as dicts, stamped with 1-based call ids (kpt stamps them before every call).
  const byId = new Map<string, KubeObject>();
  const itemValues: Value[] = input.items.map((obj, i) => {
    const id = String(i + 1);
    byId.set(id, obj);
    const v = nodeToStarlark(obj.doc, { maxAliases: ctx.limits.maxAliases, maxDepth: ctx.limits.maxDepth });
    if (v instanceof Dict) stampIds(v, id);
    return v;
  });
  const resourceList = new Dict();
  resourceList.insert(b('apiVersion'), b('config.kubernetes.io/v1'));
  resourceList.insert(b('kind'), b('ResourceList'));
  resourceList.insert(b('items'), new List(itemValues));
  resourceList.insert(
    b('functionConfig'),
    input.functionConfig ? nodeToStarlark(input.functionConfig.doc) : new Dict(),
  );
  const krmCtx = new KrmContext(resourceList, ctx.env, opts.openApi);

  const printed: string[] = [];
  try {
    execFile({
      filename: cfg.name,
      source: cfg.source,
      predeclared: { ctx: krmCtx },
      dialect: KRM_STARLARK_DIALECT,
      limits: {
        maxSteps: ctx.limits.maxSteps,
        deadline: ctx.deadline,
        now: ctx.now,
        signal: ctx.signal,
        maxAllocBytes: ctx.limits.maxMemoryBytes,
        maxOutputBytes: ctx.limits.maxOutputBytes,
      },
      print: (m) => printed.push(m),
      load: krmLoader(ctx.now),
    });
  } catch (e) {
    if (isStarlarkSyntaxError(e)) {
      const first = e.errors[0]!;
      return failed(input, `${first.file}:${first.line}:${first.col}: ${toHostString(first.message)}`, printed);
    }
    if (isStarlarkEvalError(e)) return failed(input, e.traced ? e.message : toHostString(e.message), printed);
    throw e;
  }
  const stderr = printed.join('\n');
  if (ctx.validator) return { output: input, stderr, exitCode: 0 };

  let items: KubeObject[];
  try {
    items = readBackItems(resourceList.lookup(b('items')), byId);
  } catch (e) {
    if (e instanceof OutputConversionError) return failed(input, e.message, printed);
    throw e;
  }
  return {
    output: { items, ...(input.functionConfig ? { functionConfig: input.functionConfig } : {}), results: [] },
    stderr,
    exitCode: 0,
  };
}

function stampIds(item: Dict, id: string): void {
  let meta = item.lookup(b('metadata'));
  if (!(meta instanceof Dict)) {
    meta = new Dict();
    item.insert(b('metadata'), meta);
  }
  let ann = (meta as Dict).lookup(b('annotations'));
  if (!(ann instanceof Dict)) {
    ann = new Dict();
    (meta as Dict).insert(b('annotations'), ann);
  }
  for (const k of ID_ANNOTATIONS) (ann as Dict).insert(b(k), b(id));
}

/** The script's `items` as KubeObjects: matched ids update the input object in place. */
function readBackItems(items: Value | undefined, byId: ReadonlyMap<string, KubeObject>): KubeObject[] {
  if (!(items instanceof List || items instanceof Tuple)) {
    throw new OutputConversionError(
      `ctx.resource_list["items"] must be a list, got ${items === undefined ? 'nothing' : ((items as { starlarkType?: string }).starlarkType ?? typeof items)}`,
    );
  }
  const out: KubeObject[] = [];
  const used = new Set<string>();
  for (const v of items.elems) {
    const root = starlarkToNode(v);
    if (root.kind !== 'mapping') throw new OutputConversionError('every item must be a dict');
    const id = takeIds(root);
    const original = id !== undefined && !used.has(id) ? byId.get(id) : undefined;
    if (original) {
      used.add(id!);
      restoreFromInput(original, root);
      out.push(original);
    } else {
      out.push(new KubeObject(documentNode(root)));
    }
  }
  return out;
}

/** Removes the call-id annotations (and an annotations map they alone made); returns the id. */
function takeIds(root: YNode): string | undefined {
  const meta = mapGet(root, 'metadata');
  const ann = meta && meta.kind === 'mapping' ? mapGet(meta, 'annotations') : undefined;
  if (!meta || !ann || ann.kind !== 'mapping') return undefined;
  let id: string | undefined;
  for (const k of ID_ANNOTATIONS) {
    const i = mapIndexOf(ann, k);
    if (i < 0) continue;
    if (k === ANNOTATIONS.id) id = ann.content[i + 1]!.value;
    ann.content.splice(i, 2);
  }
  if (ann.content.length === 0) {
    const i = mapIndexOf(meta, 'annotations');
    if (i >= 0) meta.content.splice(i, 2);
  }
  return id;
}

/** kpt's restoration: comments and key order from the input, styles from the output; in place. */
function restoreFromInput(obj: KubeObject, root: YNode): void {
  const before = obj.doc;
  const doc = documentNode(root);
  copyComments(before, doc);
  syncOrder(before, doc);
  before.content = [root];
  before.headComment = '';
  before.footComment = '';
}
