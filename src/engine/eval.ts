/**
 * `eval` (kpt fn eval): one function over a flat list — a directory walked as one tree (every
 * Kptfile included, no package-path, no Kptfile required) or a ResourceList/stream given as text
 * (stdin) — with the functionConfig from `--fn-config` or the `-- [Kind] k=v` arguments (always
 * sent; `data: {}` without arguments), one match selector and one exclusion, then in-place write
 * (no attribution), stdout, unwrap or a new directory, and optionally `--save` into the Kptfile.
 */
import { KrmfnError, isKrmfnError } from '../core/errors.ts';
import type { FunctionSpec, Selector } from '../core/function.ts';
import { ANNOTATIONS, KubeObject } from '../core/kube-object.ts';
import { withLimits } from '../core/limits.ts';
import { newResultList } from '../core/results-file.ts';
import { parseResourceListInput } from '../core/resource-list.ts';
import { mapGet, mappingNode, sequenceNode, strNode, type YNode } from '../core/yaml/node.ts';
import { emitYamlFile, parseYamlFile } from '../core/yaml/index.ts';
import { toFailure } from './error-style.ts';
import type { EngineEvent } from './events.ts';
import { argsFunctionConfig } from './pipeline-config.ts';
import { isWithin, join, relative } from './paths.ts';
import { KPTFILE, readResourceFile, scanPackage } from './read.ts';
import { displayName, resolveContext, writeResults } from './render.ts';
import { kptLevel } from './kpt-level.ts';
import { runStep } from './step.ts';
import type { EngineHost, RunOutcome } from './types.ts';
import { applyPlan, emitStdout, emitUnwrap, planWrite, relativize } from './write.ts';

export interface EvalOptions extends EngineHost {
  /** An absolute directory, or the text of a ResourceList / multi-document stream (`-`). */
  source: { dir: string } | { text: string };
  /** The function: `image` (already short-name resolved) or `exec`; `tag` (kpt beta.67+, `--tag`). */
  function: Pick<FunctionSpec, 'image' | 'exec' | 'tag'>;
  /** Absolute path of a `--fn-config` file. */
  fnConfigPath?: string;
  /** `-- [Kind] k=v ...` arguments. */
  args?: { kind?: string; data: (readonly [string, string])[] };
  match?: Selector;
  exclude?: Selector;
  save?: { type: 'mutator' | 'validator' };
}

const dec = new TextDecoder();

function nonEmpty(s: Selector | undefined): s is Selector {
  return !!s && Object.values(s).some((v) => (typeof v === 'string' ? v !== '' : v && Object.keys(v).length > 0));
}

async function loadFnConfig(opts: EvalOptions): Promise<KubeObject> {
  const p = opts.fnConfigPath!;
  if ((await opts.fs.stat(p)) !== 'file')
    throw new KrmfnError({ code: 'usage', message: `missing function config file: ${p}` });
  const parsed = parseYamlFile(dec.decode(await opts.fs.readFile(p)), { file: p, limits: withLimits(opts.limits) });
  if (parsed.docs.length !== 1) {
    throw new KrmfnError({
      code: 'config-invalid',
      message: `must not contain more than one config, got ${parsed.docs.length}`,
    });
  }
  const root = parsed.docs[0]!.content[0];
  if (!root || root.kind !== 'mapping') {
    throw new KrmfnError({
      code: 'config-invalid',
      message: `wrong node kind: expected MappingNode but got ${root ? (root.kind === 'sequence' ? 'SequenceNode' : 'ScalarNode') : 'ScalarNode'}`,
    });
  }
  const o = new KubeObject(parsed.docs[0]!);
  o.setAnnotation(ANNOTATIONS.index, '0');
  o.setAnnotation(ANNOTATIONS.internalIndex, '0');
  o.setAnnotation(ANNOTATIONS.seqIndent, parsed.seqIndent[0] ?? 'compact');
  return o;
}

export async function evaluate(opts: EvalOptions): Promise<RunOutcome> {
  const limits = withLimits(opts.limits);
  const results = newResultList();
  const emit = (e: EngineEvent): void => opts.onEvent?.(e);
  const outcome: RunOutcome = { ok: false, results, functionsRun: 0, packagesRun: 0, written: [], deleted: [] };
  const output = opts.output ?? ('dir' in opts.source ? { kind: 'in-place' as const } : { kind: 'stdout' as const });
  try {
    if (!opts.function.image && !opts.function.exec)
      throw new KrmfnError({ code: 'usage', message: 'must specify --image or --exec' });
    if (opts.fnConfigPath && opts.args && (opts.args.data.length || opts.args.kind)) {
      throw new KrmfnError({
        code: 'usage',
        message: 'function arguments can only be specified without function config file',
      });
    }
    if (output.kind === 'dir' && (await opts.fs.stat(output.dir)) !== 'missing') {
      throw new KrmfnError({
        code: 'output-exists',
        message: `directory ${JSON.stringify(output.dir)} already exists, please delete the directory and retry`,
      });
    }
    const spec: FunctionSpec = opts.function.image ? { image: opts.function.image } : { exec: opts.function.exec! };
    if (nonEmpty(opts.match)) spec.selectors = [opts.match];
    if (nonEmpty(opts.exclude)) spec.exclude = [opts.exclude];
    // The level names the image (default registry, `:latest`, `--tag` resolution).
    const name = spec.image
      ? kptLevel(opts.kptVersion).images.resolve(
          spec.image,
          opts.function.tag,
          opts.listTags ?? (() => []),
          opts.imagePrefix,
        )
      : displayName(spec);
    if (spec.image) spec.image = name;

    let items: KubeObject[] = [];
    const readFiles: string[] = [];
    const originals = new Map<string, Uint8Array>();
    const root = 'dir' in opts.source ? opts.source.dir : '/';
    if ('dir' in opts.source) {
      const scan = await scanPackage(opts.fs, root, false);
      const reads = await Promise.all(scan.files.map((rel) => readResourceFile(opts.fs, root, rel, limits)));
      scan.files.forEach((rel, i) => {
        const abs = join(root, rel);
        readFiles.push(abs);
        originals.set(abs, reads[i]!.bytes);
        items.push(...reads[i]!.items);
      });
    } else {
      try {
        items = parseResourceListInput(opts.source.text, { limits });
      } catch (e) {
        if (isKrmfnError(e))
          throw new KrmfnError({ ...e.toData(), code: 'function-output', message: `MalformedYAMLError: ${e.message}` });
        throw e;
      }
    }
    const fnConfig = opts.fnConfigPath
      ? await loadFnConfig(opts)
      : argsFunctionConfig(opts.args?.kind, opts.args?.data ?? []);
    const runner = await opts.runtime.resolve(
      spec,
      resolveContext(opts, name, 'dir' in opts.source ? root : '', limits, true),
    );
    items = await runStep(
      {
        limits,
        env: opts.env ?? {},
        now: opts.now ?? Date.now,
        signal: opts.signal,
        emit,
        results,
        wasm: opts.allowWasm ?? false,
      },
      { spec, name, runner, functionConfig: fnConfig, validator: false },
      items,
    );
    outcome.functionsRun = 1;
    relativize(items, root);
    if (output.kind === 'stdout') outcome.stdout = emitStdout(items);
    else if (output.kind === 'unwrap') outcome.stdout = emitUnwrap(items);
    else {
      const target = output.kind === 'dir' ? output.dir : root;
      const plan = await planWrite(opts.fs, items, {
        root: target,
        readFiles: output.kind === 'dir' ? [] : readFiles,
        originals,
      });
      if (output.kind === 'dir') await opts.fs.mkdirp(output.dir);
      await applyPlan(opts.fs, plan, originals);
      outcome.written = [...plan.writes].filter(([p, d]) => originals.get(p) !== d).map(([p]) => p);
      outcome.deleted = plan.deletes;
    }
    if (opts.save && 'dir' in opts.source) await saveToKptfile(opts, root, spec, name, emit);
    outcome.ok = true;
  } catch (e) {
    outcome.failure = toFailure(e);
    results.exitCode = 1;
  }
  const file = await writeResults(opts, results, !outcome.ok);
  if (file) outcome.resultsFile = file;
  return outcome;
}

function selectorNode(s: Selector): YNode {
  const c: YNode[] = [];
  for (const k of ['apiVersion', 'kind', 'name', 'namespace'] as const) if (s[k]) c.push(strNode(k), strNode(s[k]!));
  for (const k of ['labels', 'annotations'] as const) {
    const m = s[k];
    if (m && Object.keys(m).length)
      c.push(strNode(k), mappingNode(Object.entries(m).flatMap(([a, b]) => [strNode(a), strNode(b)])));
  }
  return mappingNode(c);
}

/** `--save`: append or replace (same image/exec string) the function in DIR/Kptfile, keeping comments. */
async function saveToKptfile(
  opts: EvalOptions,
  dir: string,
  spec: FunctionSpec,
  name: string,
  emit: (e: EngineEvent) => void,
): Promise<void> {
  const type = opts.save!.type;
  const file = join(dir, KPTFILE);
  if ((await opts.fs.stat(file)) !== 'file') {
    emit({ type: 'message', message: 'function not added: Kptfile not exists' });
    return;
  }
  const parsed = parseYamlFile(dec.decode(await opts.fs.readFile(file)), {
    file: KPTFILE,
    limits: withLimits(opts.limits),
  });
  const doc = parsed.docs[0]!;
  const k = new KubeObject(doc);
  const entry: YNode[] = [];
  if (spec.image) entry.push(strNode('image'), strNode(name));
  else entry.push(strNode('exec'), strNode(name));
  if (opts.fnConfigPath) {
    if (!isWithin(dir, opts.fnConfigPath)) {
      throw new KrmfnError({
        code: 'usage',
        message: `--fn-config must be under ${dir} if saving functions to Kptfile (--save=true)`,
      });
    }
    entry.push(strNode('configPath'), strNode(relative(dir, opts.fnConfigPath)));
  } else if (opts.args && opts.args.data.length) {
    entry.push(
      strNode('configMap'),
      mappingNode(opts.args.data.flatMap(([a, b]) => [strNode(a), { ...strNode(b), tag: '!!str' }])),
    );
  }
  if (spec.selectors?.length) entry.push(strNode('selectors'), sequenceNode(spec.selectors.map(selectorNode)));
  if (spec.exclude?.length) entry.push(strNode('exclude'), sequenceNode(spec.exclude.map(selectorNode)));
  const listKey = type === 'mutator' ? 'mutators' : 'validators';
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
  const key = spec.image ? 'image' : 'exec';
  const at = list.content.findIndex((n) => n.kind === 'mapping' && mapGet(n, key)?.value === name);
  const node = mappingNode(entry);
  if (at >= 0) {
    node.headComment = list.content[at]!.headComment;
    list.content[at] = node;
  } else list.content.push(node);
  await opts.fs.writeFile(file, new TextEncoder().encode(emitYamlFile(parsed.docs, parsed.seqIndent)));
  emit({
    type: 'message',
    message: `${at >= 0 ? 'Updated' : 'Added'} ${JSON.stringify(name)} as ${type} in the Kptfile.`,
  });
}
