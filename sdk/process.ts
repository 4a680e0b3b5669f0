/**
 * `processResourceList(fn, input, options)`: the pure, host-independent heart of every way an SDK
 * function runs outside the engine (stdin/stdout, exec, container, Web Worker, JS-global ABI).
 * String, bytes or a parsed ResourceList in; the output ResourceList text, the list, the results,
 * the exit code and the log out. No I/O, no globals (docs/sdk.md, "Wire format", "Design").
 *
 * Wire rules: accepts `config.kubernetes.io/v1`/`v1beta1` ResourceLists and a `List` wrapper, and
 * echoes the input's apiVersion and kind; `items`, `functionConfig` and `results` are optional;
 * incoming results are kept and new ones appended; the functionConfig is echoed unchanged; items
 * keep their comments and styles (they are the parsed nodes). A plain YAML stream is taken as the
 * item list. Legacy and internal path/index annotations are reconciled after mutators: a change
 * to only one form is copied to the other. Input that cannot be parsed gives an error result,
 * exit code 1 and an (empty) ResourceList on output, so stdout is always a ResourceList.
 */
import { isKrmfnError } from '../src/core/errors.ts';
import type { ResourceList } from '../src/core/function.ts';
import { ANNOTATIONS, KubeObject } from '../src/core/kube-object.ts';
import type { Limits } from '../src/core/limits.ts';
import type { Result } from '../src/core/result.ts';
import { parseResultsValue, resultsNode, RESOURCE_LIST_API_VERSION } from '../src/core/resource-list.ts';
import { toJS } from '../src/core/yaml/convert.ts';
import { emitYamlDocument, parseYamlFile } from '../src/core/yaml/index.ts';
import { documentNode, mapGet, mappingNode, sequenceNode, strNode, type YNode } from '../src/core/yaml/node.ts';
import type { KrmFunction } from './define.ts';
import { executeFunction, executeFunctionSync, type ExecuteOptions, type ExecuteOutcome } from './execute.ts';

export interface ProcessOptions extends ExecuteOptions {
  /** Limits for parsing the input (alias count, depth, size). */
  limits?: Partial<Limits>;
}

export interface ProcessOutcome {
  /** The output ResourceList as YAML text (what goes to stdout). */
  output: string;
  resourceList: ResourceList;
  /** Results this call produced. */
  results: Result[];
  exitCode: number;
  /** stderr lines. */
  log: string[];
}

interface ParsedInput {
  list: ResourceList;
  apiVersion: string;
  kind: string;
}

/** Parses a ResourceList (or List, or plain stream) into live objects. Throws KrmfnError on bad YAML. */
export function parseResourceList(text: string, limits?: Partial<Limits>): ParsedInput {
  const parsed = parseYamlFile(text, limits ? { limits } : {});
  const root = parsed.docs[0]?.content[0];
  const kindNode = root?.kind === 'mapping' ? mapGet(root, 'kind') : undefined;
  const kind = kindNode?.kind === 'scalar' ? kindNode.value : '';
  if (parsed.docs.length === 1 && root && (kind === 'ResourceList' || kind === 'List')) {
    const av = mapGet(root, 'apiVersion');
    const itemsNode = mapGet(root, 'items');
    const items = itemsNode?.kind === 'sequence' ? itemsNode.content.map((n) => new KubeObject(documentNode(n))) : [];
    const fcNode = mapGet(root, 'functionConfig');
    const functionConfig = fcNode && fcNode.kind === 'mapping' ? new KubeObject(documentNode(fcNode)) : undefined;
    const results = parseResultsValue(toJS(mapGet(root, 'results'), limits));
    const list: ResourceList = { items, results };
    if (functionConfig) list.functionConfig = functionConfig;
    return { list, apiVersion: av?.kind === 'scalar' ? av.value : RESOURCE_LIST_API_VERSION, kind };
  }
  return {
    list: { items: parsed.docs.map((d) => new KubeObject(d)), results: [] },
    apiVersion: RESOURCE_LIST_API_VERSION,
    kind: 'ResourceList',
  };
}

/** The ResourceList as YAML text: apiVersion, kind, items, functionConfig, results (kyaml's order). */
export function stringifyResourceList(
  list: ResourceList,
  wrapper: { apiVersion?: string; kind?: string } = {},
): string {
  const content: YNode[] = [
    strNode('apiVersion'),
    strNode(wrapper.apiVersion ?? RESOURCE_LIST_API_VERSION),
    strNode('kind'),
    strNode(wrapper.kind ?? 'ResourceList'),
    strNode('items'),
    sequenceNode(list.items.map((o) => o.root)),
  ];
  if (list.functionConfig) content.push(strNode('functionConfig'), list.functionConfig.root);
  if (list.results.length) content.push(strNode('results'), resultsNode(normalizeSeverities(list.results)));
  return emitYamlDocument(documentNode(mappingNode(content)), 'compact');
}

/** Reads `warn` as `warning` (the earlier TypeScript SDK's spelling); emits only the spec's three. */
function normalizeSeverities(results: readonly Result[]): Result[] {
  return results.map((r) => ((r.severity as string) === 'warn' ? { ...r, severity: 'warning' } : r));
}

type SourceSnapshot = Map<KubeObject, Record<string, string | undefined>>;

const PAIRS: readonly (readonly [string, string])[] = [
  [ANNOTATIONS.path, ANNOTATIONS.internalPath],
  [ANNOTATIONS.index, ANNOTATIONS.internalIndex],
];

function snapshotSources(items: readonly KubeObject[]): SourceSnapshot {
  const m: SourceSnapshot = new Map();
  for (const o of items) {
    const a = o.annotations();
    m.set(o, Object.fromEntries(PAIRS.flat().map((k) => [k, a[k]])));
  }
  return m;
}

/** Copies a change made to only one of the legacy/internal forms into the other (kyaml's reconciliation). */
function reconcileSources(items: readonly KubeObject[], before: SourceSnapshot): void {
  for (const o of items) {
    const old = before.get(o);
    if (!old) continue;
    const now = o.annotations();
    for (const [legacy, internal] of PAIRS) {
      const legacyChanged = now[legacy] !== old[legacy];
      const internalChanged = now[internal] !== old[internal];
      if (legacyChanged && !internalChanged && now[legacy] !== undefined && old[internal] !== undefined)
        o.setAnnotation(internal, now[legacy]);
      if (internalChanged && !legacyChanged && now[internal] !== undefined && old[legacy] !== undefined)
        o.setAnnotation(legacy, now[internal]);
    }
  }
}

type Prepared = { parsed: ParsedInput; before: SourceSnapshot } | { failed: ProcessOutcome };

function prepareInput(input: string | Uint8Array | ResourceList, options: ProcessOptions): Prepared {
  let parsed: ParsedInput;
  if (typeof input === 'string' || input instanceof Uint8Array) {
    const text = typeof input === 'string' ? input : new TextDecoder().decode(input);
    try {
      parsed = parseResourceList(text, options.limits);
    } catch (e) {
      if (!isKrmfnError(e)) throw e;
      const result: Result = { message: `cannot parse the input ResourceList: ${e.message}`, severity: 'error' };
      if (e.file) result.file = { path: e.file };
      const list: ResourceList = { items: [], results: [result] };
      return {
        failed: {
          output: stringifyResourceList(list),
          resourceList: list,
          results: [result],
          exitCode: 1,
          log: [result.message],
        },
      };
    }
  } else {
    parsed = { list: input, apiVersion: RESOURCE_LIST_API_VERSION, kind: 'ResourceList' };
  }
  return { parsed, before: snapshotSources(parsed.list.items) };
}

function finishOutput(
  fn: KrmFunction,
  p: { parsed: ParsedInput; before: SourceSnapshot },
  outcome: ExecuteOutcome,
  options: ProcessOptions,
): ProcessOutcome {
  const { list } = p.parsed;
  if (fn.kind !== 'validator' && !options.validator) reconcileSources(list.items, p.before);
  return {
    output: stringifyResourceList(list, { apiVersion: p.parsed.apiVersion, kind: p.parsed.kind }),
    resourceList: list,
    results: outcome.results,
    exitCode: outcome.exitCode,
    log: outcome.log,
  };
}

export async function processResourceList(
  fn: KrmFunction,
  input: string | Uint8Array | ResourceList,
  options: ProcessOptions = {},
): Promise<ProcessOutcome> {
  const p = prepareInput(input, options);
  if ('failed' in p) return p.failed;
  return finishOutput(fn, p, await executeFunction(fn, p.parsed.list, options), options);
}

/** `processResourceList` for synchronous functions (throws a TypeError if `run` returns a Promise). */
export function processResourceListSync(
  fn: KrmFunction,
  input: string | Uint8Array | ResourceList,
  options: ProcessOptions = {},
): ProcessOutcome {
  const p = prepareInput(input, options);
  if ('failed' in p) return p.failed;
  return finishOutput(fn, p, executeFunctionSync(fn, p.parsed.list, options), options);
}

/**
 * Installs the JS-global ABI some WASM/JS hosts use (docs/sdk.md, "Design"):
 * `processResourceList(yaml) → yaml` and `processResourceListErrors(yaml) → string` (the messages
 * of error results, newline-joined) on `target` (default `globalThis`). Synchronous functions only.
 * Returns a function that removes them again.
 */
export function toWasmGlobal(fn: KrmFunction, target: Record<string, unknown> = globalThis): () => void {
  const prev = { a: target['processResourceList'], b: target['processResourceListErrors'] };
  target['processResourceList'] = (yaml: string): string => {
    try {
      return processResourceListSync(fn, yaml).output;
    } catch (e) {
      return `unable to process resource list: ${e instanceof Error ? e.message : String(e)}`;
    }
  };
  target['processResourceListErrors'] = (yaml: string): string => {
    try {
      return processResourceListSync(fn, yaml)
        .results.filter((r) => r.severity === 'error')
        .map((r) => r.message)
        .join('\n');
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
  };
  return () => {
    target['processResourceList'] = prev.a;
    target['processResourceListErrors'] = prev.b;
  };
}
