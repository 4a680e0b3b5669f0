/**
 * The KRM `starlark` function (kpt's `gcr.io/kpt-fn/starlark`, `ghcr.io/kptdev/krm-functions-catalog/starlark`)
 * as an in-process `objects` runtime; behaviour per released tag in ./starlark/versions.ts and
 * builtins/docs/starlark.md.
 *
 * A call: read the script from the StarlarkRun / ConfigMap functionConfig (the tag's rules);
 * convert every item to a Starlark dict stamped with kpt's call ids (`internal.config.kubernetes.io/id`,
 * `config.k8s.io/id`); run the script in the tag's dialect (kpt's flags from v0.3.0) with the only
 * predeclared name `ctx` and the tag's `load()` table; read `ctx.resource_list["items"]` back. As in
 * kpt, every output item is re-marshalled (sorted keys, plain styles) and an item whose id matches
 * an input gets that input's comments and key order back, in place on the same KubeObject; items
 * without a matching id are new resources. `print` lines go to stderr. Any failure is one error
 * result with exit code 1 and leaves the items untouched: `fail: <msg>` and other dynamic errors as
 * their bare message, static errors as `<name>:<line>:<col>: <msg>` (the first); stderr ends with
 * the tag's failure line.
 *
 * Sandbox: `ctx.environment` holds only `StarlarkRuntimeOptions.environment` (what the user passed
 * explicitly), never the host environment in `RunContext.env`. The call's step budget, deadline
 * (polled against the injected clock), AbortSignal, memory budget (allocation) and output budget
 * apply to the script.
 */
import { NotFoundError } from '../core/errors.ts';
import type {
  FunctionRuntime,
  PipelineFunction,
  ObjectsOutcome,
  ObjectsRunner,
  ResourceList,
  RunContext,
} from '../core/function.ts';
import { BETA56_IMAGE_PREFIX, parseImageRef, resolveCatalogVersion } from '../core/image.ts';
import { ANNOTATIONS, KubeObject } from '../core/kube-object.ts';
import type { Result } from '../core/result.ts';
import { registryTags, servesTagForm } from '../core/registry-tags.ts';
import { copyComments, syncOrder } from '../core/yaml/index.ts';
import { documentNode, mapGet, mapIndexOf, type YNode } from '../core/yaml/node.ts';
import {
  Dict,
  List,
  Tuple,
  execFile,
  formatStarlarkPosition,
  fromHostString,
  isStarlarkEvalError,
  isStarlarkSyntaxError,
  toHostString,
  starlarkGoRelease,
  STARLARK_GO_HEAD,
} from '../starlark/index.ts';
import type { Dialect, Value } from '../starlark/index.ts';
import { readScriptConfig } from './starlark/config.ts';
import { KrmContext } from './starlark/context.ts';
import { functionEnvironment } from './starlark/environment.ts';
import { OutputConversionError, nodeToStarlark, starlarkToNode, wrapped } from './starlark/convert.ts';
import { krmLoader } from './starlark/modules.ts';
import type { OpenApiLoader } from './starlark/open-api.ts';
import {
  NEWEST_STARLARK_VERSION,
  STARLARK_RELEASED_VERSIONS,
  starlarkProfile,
  type StarlarkProfile,
} from './starlark/versions.ts';

/** Repositories kpt publishes the starlark function under; any tag or digest. */
export const STARLARK_IMAGE_REPOSITORIES: readonly string[] = Object.freeze([
  'gcr.io/kpt-fn',
  'ghcr.io/kptdev/krm-functions-catalog',
]);

/** The dialect kpt's function enables (docs/starlark.md, "The KRM `starlark` function"). */
export const KRM_STARLARK_DIALECT: Readonly<Dialect> = Object.freeze({
  set: true,
  while: true,
  topLevelControl: true,
  globalReassign: true,
  recursion: true,
});

export interface StarlarkRuntimeOptions {
  /**
   * `ctx.open_api`: answers the tag's OpenAPI document (./starlark/open-api.ts), called only when a
   * script first reads `ctx.open_api`. Default none: `ctx.open_api` is empty.
   */
  openApi?: OpenApiLoader;
  /**
   * `ctx.environment`: only the variables the user passed explicitly (kpt's `--env`, see
   * ./starlark/environment.ts). Default empty: the host environment never reaches a script.
   */
  environment?: Readonly<Record<string, string>>;
  /** The released version whose behaviour to follow (default the newest). */
  version?: string;
}

/**
 * The released version an image reference selects, or undefined when the reference is not the
 * catalog's starlark function or names no released version. Spellings: full
 * (`gcr.io/kpt-fn/starlark:v0.4.3`, `ghcr.io/kptdev/krm-functions-catalog/starlark:v0.5`), short
 * (`starlark:v0.4.3`, which kpt beta.56 prefixes with `gcr.io/kpt-fn/`), floating `vX.Y` / `vX`,
 * `latest`/`unstable`/no tag (the newest), each among the tags that registry serves. `name:tag@sha256:…` follows the tag; a bare digest is
 * not one krmfn can vouch for and is refused (undefined).
 */
export function starlarkImageVersion(image: string): string | undefined {
  const ref = parseImageRef(image.includes('/') ? image : BETA56_IMAGE_PREFIX + image.trim());
  if (ref.name !== 'starlark' || !STARLARK_IMAGE_REPOSITORIES.includes(ref.repository)) return undefined;
  if (ref.digest && !ref.tag) return undefined;
  // Only what that registry serves (src/core/registry-tags.ts): gcr.io/kpt-fn has no v0.5.1 and no latest.
  const served = registryTags(`${ref.repository}/`, 'starlark');
  if (!servesTagForm(served, ref.tag, '')) return undefined;
  return resolveCatalogVersion(
    ref.tag,
    '',
    STARLARK_RELEASED_VERSIONS.filter((v) => served.versions.includes(v)),
  );
}

export function isStarlarkImage(image: string): boolean {
  return starlarkImageVersion(image) !== undefined;
}

export function createStarlarkRuntime(opts: StarlarkRuntimeOptions = {}): FunctionRuntime {
  return {
    name: 'starlark',
    async resolve(spec: PipelineFunction): Promise<ObjectsRunner> {
      const version = spec.image === undefined ? undefined : starlarkImageVersion(spec.image);
      if (version === undefined) throw new NotFoundError(spec.image ?? spec.exec ?? '');
      return {
        kind: 'objects',
        run: async (input, ctx) =>
          runStarlarkFunction(input, ctx, {
            ...opts,
            version,
            // `--env` reaches ctx.environment; bare KEYs export the host's value (docker's `-e KEY`).
            ...(spec.env?.length
              ? { environment: { ...opts.environment, ...functionEnvironment(spec.env, ctx.env) } }
              : {}),
          }),
      };
    },
  };
}

const ID_ANNOTATIONS = [ANNOTATIONS.id, ANNOTATIONS.legacyId] as const;
/** kpt-functions-sdk `fn.AsMain` (v0.4.0+) after a failing ResourceListProcessor. */
const SDK_FAILURE_STDERR = 'failed to evaluate function: error: function failure';

/**
 * The failure's stderr line: v0.4.0+ the SDK's fixed text; before, kyaml `command.Build` prints
 * `framework.Result.Error()`, i.e. `[error] : <message>` (ResultItem.String with no resource and an
 * empty field path), without a trailing newline.
 */
function failureLine(profile: StarlarkProfile, message: string): string {
  return profile.generation === 'sdk' ? SDK_FAILURE_STDERR : `[error] : ${message}`;
}

function failed(input: ResourceList, message: string, printed: string[], profile: StarlarkProfile): ObjectsOutcome {
  const result: Result = { message, severity: 'error' };
  return {
    output: {
      items: input.items,
      ...(input.functionConfig ? { functionConfig: input.functionConfig } : {}),
      results: [result],
    },
    stderr: [...printed, failureLine(profile, message)].join('\n'),
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
  const profile = starlarkProfile(opts.version ?? NEWEST_STARLARK_VERSION);
  const cfg = readScriptConfig(input.functionConfig, profile);
  if (!cfg.ok) return failed(input, cfg.message, [], profile);

  // Items as dicts, stamped with 1-based call ids (kpt stamps them before every call).
  const byId = new Map<string, KubeObject>();
  // v0.1.x `config.go` filterStarlarkFunctionKind: items of kind StarlarkRun never reach the script.
  const visible =
    profile.generation === 'kyaml-filter' ? input.items.filter((o) => o.kind !== 'StarlarkRun') : input.items;
  const itemValues: Value[] = visible.map((obj, i) => {
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
  resourceList.insert(b('functionConfig'), functionConfigValue(input.functionConfig, profile));
  const loadOpenApi = opts.openApi;
  const krmCtx = new KrmContext(
    resourceList,
    opts.environment ?? {},
    loadOpenApi ? { load: () => loadOpenApi(profile.openApi), mapping: profile.openApiMapping } : undefined,
  );

  const printed: string[] = [];
  // The image embeds the go.starlark.net version its go.mod pins; the interpreter follows it.
  const release = starlarkGoRelease(profile.starlarkGo) ?? STARLARK_GO_HEAD;
  try {
    execFile({
      filename: cfg.name,
      source: cfg.source,
      predeclared: { ctx: krmCtx },
      dialect: profile.kptDialect ? KRM_STARLARK_DIALECT : {},
      limits: {
        maxSteps: ctx.limits.maxSteps,
        deadline: ctx.deadline,
        now: ctx.now,
        signal: ctx.signal,
        maxAllocBytes: ctx.limits.maxMemoryBytes,
        maxOutputBytes: ctx.limits.maxOutputBytes,
      },
      print: (m) => printed.push(m),
      release,
      ...(profile.modules === 'none'
        ? {}
        : {
            load: krmLoader({
              now: ctx.now,
              krmfn: profile.modules === 'starlib+krmfn',
              maxAliases: ctx.limits.maxAliases,
              maxDepth: ctx.limits.maxDepth,
              release,
            }),
          }),
    });
  } catch (e) {
    if (isStarlarkSyntaxError(e)) {
      const first = e.errors[0];
      return failed(input, `${formatStarlarkPosition(first)}: ${toHostString(first.message)}`, printed, profile);
    }
    if (isStarlarkEvalError(e)) return failed(input, e.traced ? e.message : toHostString(e.message), printed, profile);
    throw e;
  }
  const stderr = printed.join('\n');
  if (ctx.validator) return { output: input, stderr, exitCode: 0 };

  let items: KubeObject[];
  try {
    items = readBackItems(
      resourceList.lookup(b('items')),
      byId,
      profile.generation === 'kyaml-filter' ? 'int32' : 'int64',
    );
  } catch (e) {
    if (e instanceof OutputConversionError) return failed(input, e.message, printed, profile);
    throw e;
  }
  return {
    output: { items, ...(input.functionConfig ? { functionConfig: input.functionConfig } : {}), results: [] },
    stderr,
    exitCode: 0,
  };
}

/** v0.1.x re-marshals its StarlarkRun struct (`toRNode`): only apiVersion, kind, metadata's
 * name/namespace/labels/annotations and source survive. Later tags pass the config as written. */
function functionConfigValue(fc: KubeObject | undefined, profile: StarlarkProfile): Value {
  const v = fc ? nodeToStarlark(fc.doc) : new Dict();
  if (profile.generation !== 'kyaml-filter' || !(v instanceof Dict)) return v;
  const out = new Dict();
  for (const key of ['apiVersion', 'kind', 'metadata', 'source']) {
    let x = v.lookup(b(key));
    if (x === undefined) continue;
    if (key === 'metadata' && x instanceof Dict) {
      const meta = new Dict();
      for (const k of ['name', 'namespace', 'labels', 'annotations']) {
        const y = x.lookup(b(k));
        if (y !== undefined) meta.insert(b(k), y);
      }
      x = meta;
    }
    out.insert(b(key), x);
  }
  return out;
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
function readBackItems(
  items: Value | undefined,
  byId: ReadonlyMap<string, KubeObject>,
  ints: 'int32' | 'int64',
): KubeObject[] {
  if (!(items instanceof List || items instanceof Tuple)) {
    throw new OutputConversionError(
      `ctx.resource_list["items"] must be a list, got ${items === undefined ? 'nothing' : ((items as { starlarkType?: string }).starlarkType ?? typeof items)}`,
    );
  }
  const out: KubeObject[] = [];
  const used = new Set<string>();
  for (const v of items.elems) {
    // Upstream converts the whole ResourceList dict, so `items` is one dict value deep.
    const root = wrapped('unmarshaling starlark value: ', () => starlarkToNode(v, 0, ints));
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
    if (k === ANNOTATIONS.id) id = ann.content[i + 1].value;
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
