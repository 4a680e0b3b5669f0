/**
 * `eval --save`: adds the evaluated function to the package's Kptfile as kpt v1.0.0-beta.56 does
 * (kptdev/kpt thirdparty/cmdconfig/commands/cmdeval/cmdeval.go `SaveFnToKptfile`,
 * `updateFnList`, `NewFunction`, `preserveCommentsAndFieldOrder`, and
 * pkg/kptfile/kptfileutil/util.go `WriteFile`, at tag v1.0.0-beta.56).
 *
 * kpt decodes the Kptfile into its Go struct, replaces the entry with the same image (or exec) or
 * appends one, marshals the struct again, then copies the original's comments and field order
 * back. The file therefore comes out as go-yaml marshals it: every scalar a plain string quoted
 * only when YAML would misread it (YAML 1.1 booleans such as `y`/`on` double-quoted, keys
 * included), multi-line strings literal, flow collections as blocks, wide sequence indentation;
 * the new entry's `configMap`, `labels` and `annotations` keys sorted (Go maps); comments and the
 * original key order kept. Here the same result comes from editing the parsed file in place and
 * normalising every node to its marshalled form.
 */
import { KrmfnError } from '../core/errors.ts';
import type { PipelineFunction, Selector } from '../core/function.ts';
import { isYaml11NonString, KubeObject } from '../core/kube-object.ts';
import { withLimits, type Limits } from '../core/limits.ts';
import type { PackageFs } from '../core/fs.ts';
import { mapGet, mappingNode, sequenceNode, strNode, type YNode } from '../core/yaml/node.ts';
import { emitYamlFile, parseYamlFile } from '../core/yaml/index.ts';
import { isWithin, join, relative } from './paths.ts';
import { KPTFILE } from './read.ts';

export interface SaveRequest {
  fs: PackageFs;
  /** Absolute package directory. */
  dir: string;
  type: 'mutator' | 'validator';
  spec: PipelineFunction;
  /** The image (resolved) or exec string, as kpt prints and matches it. */
  name: string;
  /** Absolute `--fn-config` path (saved as `configPath`, relative to the package). */
  fnConfigPath?: string;
  /** beta.67's `--tag` (saved as the entry's `tag`, after its config, as kpt's Function struct orders it). */
  tag?: string;
  /** `-- [Kind] k=v` data (saved as `configMap` when there is no config file). */
  data?: readonly (readonly [string, string])[];
  limits?: Partial<Limits>;
}

const dec = new TextDecoder();

/** A Go `map[string]string` as go-yaml marshals it: keys sorted. */
function sortedMap(m: Readonly<Record<string, string>> | readonly (readonly [string, string])[]): YNode {
  const entries: (readonly [string, string])[] = Array.isArray(m)
    ? [...(m as readonly (readonly [string, string])[])]
    : Object.entries(m);
  const last = new Map<string, string>();
  for (const [k, v] of entries) last.set(k, v);
  const keys = [...last.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return mappingNode(keys.flatMap((k) => [strNode(k), strNode(last.get(k)!)]));
}

/** kptfile.Selector in its Go field order. */
function selectorNode(s: Selector): YNode {
  const c: YNode[] = [];
  for (const k of ['apiVersion', 'kind', 'name', 'namespace'] as const) if (s[k]) c.push(strNode(k), strNode(s[k]));
  for (const k of ['labels', 'annotations'] as const) {
    const m = s[k];
    if (m && Object.keys(m).length) c.push(strNode(k), sortedMap(m));
  }
  return mappingNode(c);
}

/** kptfile.Function in its Go field order (image, exec, configPath, configMap, selectors, exclude). */
function functionNode(req: SaveRequest): YNode {
  const c: YNode[] = [];
  if (req.spec.image) c.push(strNode('image'), strNode(req.name));
  else c.push(strNode('exec'), strNode(req.name));
  if (req.fnConfigPath) c.push(strNode('configPath'), strNode(relative(req.dir, req.fnConfigPath)));
  else if (req.data && req.data.length) c.push(strNode('configMap'), sortedMap(req.data));
  if (req.spec.image && req.tag) c.push(strNode('tag'), strNode(req.tag));
  if (req.spec.selectors?.length) c.push(strNode('selectors'), sequenceNode(req.spec.selectors.map(selectorNode)));
  if (req.spec.exclude?.length) c.push(strNode('exclude'), sequenceNode(req.spec.exclude.map(selectorNode)));
  return mappingNode(c);
}

/** Every node as go-yaml marshals a Kptfile's (all-string) fields: plain strings, block collections. */
function asMarshalled(n: YNode): void {
  if (n.kind === 'scalar') {
    n.tag = '!!str';
    n.tagged = false;
    n.anchor = '';
    n.style = isYaml11NonString(n.value) ? 'double' : '';
    return;
  }
  if (n.kind === 'mapping' || n.kind === 'sequence') n.style = '';
  n.anchor = '';
  for (const c of n.content) asMarshalled(c);
}

/** kpt checks before running that a saved `--fn-config` lies inside the package. */
export function checkSavedConfigPath(dir: string, fnConfigPath: string | undefined): void {
  if (fnConfigPath && !isWithin(dir, fnConfigPath)) {
    throw new KrmfnError({
      code: 'usage',
      message: `--fn-config must be under ${dir} if saving functions to Kptfile (--save=true)`,
    });
  }
}

/** Saves the function; returns kpt's message (`Added …` / `Updated …`, or why nothing was added). */
export async function saveFunctionToKptfile(req: SaveRequest): Promise<string> {
  const file = join(req.dir, KPTFILE);
  if ((await req.fs.stat(file)) !== 'file') return 'function not added: Kptfile not exists';
  let parsed;
  try {
    parsed = parseYamlFile(dec.decode(await req.fs.readFile(file)), { file: KPTFILE, limits: withLimits(req.limits) });
  } catch {
    return 'function not added: Kptfile not exists';
  }
  const doc = parsed.docs[0];
  if (!doc || doc.content[0]?.kind !== 'mapping') return 'function not added: Kptfile not exists';
  const k = new KubeObject(doc);
  const listKey = req.type === 'mutator' ? 'mutators' : 'validators';
  let pipeline = k.getNode('pipeline');
  if (!pipeline || pipeline.kind !== 'mapping') {
    k.set('pipeline', mappingNode());
    pipeline = k.getNode('pipeline')!;
  }
  let list = mapGet(pipeline, listKey);
  if (!list || list.kind !== 'sequence') {
    k.set(['pipeline', listKey], sequenceNode());
    list = k.getNode(['pipeline', listKey])!;
  }
  const key = req.spec.image ? 'image' : 'exec';
  const entry = functionNode(req);
  let updated = false;
  list.content = list.content.map((n) => {
    if (n.kind !== 'mapping' || mapGet(n, key)?.value !== req.name) return n;
    updated = true;
    entry.headComment = n.headComment;
    return entry;
  });
  if (!updated) list.content.push(entry);
  asMarshalled(doc);
  await req.fs.writeFile(file, new TextEncoder().encode(emitYamlFile([doc], 'wide')));
  return `${updated ? 'Updated' : 'Added'} ${JSON.stringify(req.name)} as ${req.type} in the Kptfile.`;
}
