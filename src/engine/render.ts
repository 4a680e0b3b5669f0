/**
 * `render` (kpt fn render, beta.56 semantics): validate the root Kptfile, hydrate depth-first
 * post-order (subpackage outputs first, sorted by display path; then local resources in walk
 * order), run each package's mutators then validators, and only after every package succeeded
 * compute the complete write plan and apply it. On any failure nothing of the package is written
 * (only `results.yaml`, when asked for). Never prints: progress goes to `onEvent`.
 */
import { KrmfnError } from '../core/errors.ts';
import type { FunctionRunner, PipelineFunction } from '../core/function.ts';
import { resolveImageName, type Kptfile } from '../core/kptfile.ts';
import { ANNOTATIONS, type KubeObject } from '../core/kube-object.ts';
import { emitResultsFile } from '../core/results-file.ts';
import type { FieldValueStyle } from '../core/result-field-values.ts';
import type { FunctionResultList } from '../core/result.ts';
import { createCallEnv, resolveContext, type CallEnv } from './call-env.ts';
import { checkKrm } from './invariants.ts';
import {
  applyRenderStatus,
  recordStep,
  renderErrorForStatus,
  bfsRenderingRequested,
  saveFailedRender,
  saveOnFailureRequested,
  writeFailureStatus,
} from './render-level-hooks.ts';
import type { StepRecord } from './render-status.ts';
import { toFailure } from './error-style.ts';
import { loadKptfile, readResourceFiles, scanPackage } from './read.ts';
import { byteCompare, dirname, join, relative } from './paths.ts';
import {
  configPathProblem,
  configMapFunctionConfig,
  liveConfig,
  validatePipeline,
  type PipelineEntry,
} from './pipeline-config.ts';
import { siblingHydration } from './sibling-render.ts';
import { runStep } from './step.ts';
import type { EngineHost, RenderOptions, RunOutcome } from './types.ts';
import { checkOutputAbsent, outputText, planOutput, writtenPaths } from './output-mode.ts';
import { applyPlan, attribute, describeChangesOnDemand, relativize } from './write.ts';

export interface RenderState {
  opts: RenderOptions;
  /** The call context of this render, created once (src/engine/call-env.ts). */
  env: CallEnv;
  root: string;
  visiting: Set<string>;
  readFiles: string[];
  originals: Map<string, Uint8Array>;
  functionsRun: number;
  packagesRun: number;
  /** Every step run or attempted, in order (kpt beta.67 renderStatus). */
  steps: StepRecord[];
  /** The package whose pipeline failed, when one did. */
  failedPackage?: string;
  /**
   * When that pipeline failed its run-time validation (kpt's `ValidatePipeline`), before any step:
   * kpt's whole error text, which its Kptfile status shows without the `pipeline.run` layer.
   */
  failedBeforeRun?: string;
  /** Hydration is top-down (`kpt.dev/bfs-rendering`), which words the status message differently. */
  topDown?: boolean;
  /** Packages hydration reached. */
  packagesVisited: number;
  /** The root Kptfile asks to keep a failed render's partial results (kpt beta.67). */
  saveOnFailure?: boolean;
  /** The current pipeline's items after its last successful mutator. */
  pipelineItems?: KubeObject[];
  /**
   * After a failure: what kpt beta.67 keeps as package `dir`'s resources (its pipeline's items
   * so far, or its input plus a direct subpackage's); only the root's are ever written.
   */
  partial?: { dir: string; items: KubeObject[] } | undefined;
}

export function displayName(spec: { image?: string; exec?: string }): string {
  return spec.image ? resolveImageName(spec.image) : (spec.exec ?? '');
}

/** The name the level gives a pipeline entry (image naming and tag resolution), or its exec. */
function levelName(st: RenderState, spec: PipelineFunction): string {
  if (!spec.image) return spec.exec ?? '';
  return st.env.level.images.resolve(spec.image, spec.tag, st.opts.listTags ?? (() => []), st.opts.imagePrefix);
}

function displayPath(root: string, dir: string): string {
  return relative(dirname(root), dir);
}

async function runPipeline(
  st: RenderState,
  dir: string,
  kptfile: Kptfile,
  entries: PipelineEntry[],
  local: KubeObject[],
  input: KubeObject[],
): Promise<KubeObject[]> {
  const shown = displayPath(st.root, dir);
  const count = kptfile.pipeline.mutators.length + kptfile.pipeline.validators.length;
  st.env.emit({ type: 'package-start', displayPath: shown, functions: count });
  if (count === 0) {
    checkKrm(input, 'input');
    st.packagesRun++;
    st.env.emit({ type: 'package-end', displayPath: shown, functions: 0 });
    return input;
  }
  const missing = configPathProblem(entries, local, st.env.level.messages);
  if (missing) {
    st.failedBeforeRun = missing.all;
    throw new KrmfnError({ code: 'kptfile-invalid', message: missing.first });
  }
  const names = new Map<PipelineEntry, string>();
  const resolve = (e: PipelineEntry): Promise<FunctionRunner> =>
    recordStep(
      st,
      e,
      true,
      () => names.get(e),
      async () => {
        names.set(e, '');
        const name = levelName(st, e.spec);
        names.set(e, name);
        const spec = e.spec.image ? { ...e.spec, image: name } : e.spec;
        return st.env.runtime.resolve(spec, resolveContext(st.env, name, dir));
      },
    );
  const run = (
    e: PipelineEntry,
    runner: FunctionRunner,
    functionConfig: KubeObject | undefined,
    validator: boolean,
    on: KubeObject[],
  ): Promise<KubeObject[]> =>
    recordStep(
      st,
      e,
      false,
      () => names.get(e),
      () =>
        runStep(st.env, { spec: e.spec, name: names.get(e)!, runner, functionConfig, validator, packagePath: dir }, on),
    );
  const mutators = entries.filter((e) => !e.validator);
  const runners: FunctionRunner[] = [];
  for (const m of mutators) runners.push(await resolve(m));
  let items = input;
  for (let i = 0; i < mutators.length; i++) {
    const e = mutators[i];
    let fnConfig: KubeObject | undefined;
    if (e.spec.configPath !== undefined)
      fnConfig = (liveConfig(items, dir, e.spec.configPath) ?? e.diskConfig)?.clone();
    else if (e.spec.configMap && Object.keys(e.spec.configMap).length)
      fnConfig = configMapFunctionConfig(e.spec.configMap);
    items = await run(e, runners[i], fnConfig, false, items);
    st.pipelineItems = items;
    st.functionsRun++;
  }
  for (const e of entries.filter((x) => x.validator)) {
    const runner = await resolve(e);
    let fnConfig: KubeObject | undefined = e.diskConfig?.clone();
    if (!fnConfig && e.spec.configMap && Object.keys(e.spec.configMap).length)
      fnConfig = configMapFunctionConfig(e.spec.configMap);
    await run(e, runner, fnConfig, true, items);
    st.functionsRun++;
  }
  st.packagesRun++;
  st.env.emit({ type: 'package-end', displayPath: shown, functions: count });
  return items;
}

/** A package's own resources, its files read concurrently (bounded) and folded in walk order; records them for the write plan. */
async function readLocalResources(st: RenderState, dir: string, files: readonly string[]): Promise<KubeObject[]> {
  const local: KubeObject[] = [];
  const reads = await readResourceFiles(st.opts.fs, dir, files, st.env.limits, dir);
  files.forEach((rel, i) => {
    const abs = join(dir, rel);
    // Only a file that held resources is deleted when they are gone (docs/kpt-semantics.md, "Writing").
    if (reads[i].items.length) st.readFiles.push(abs);
    local.push(...reads[i].items);
    st.originals.set(abs, reads[i].bytes);
  });
  return local;
}

/** A package in top-down hydration: its Kptfile, its current resources, its direct subpackages. */
interface BfsPackage {
  dir: string;
  kptfile: Kptfile;
  entries: PipelineEntry[];
  resources: KubeObject[];
  children: BfsPackage[];
}

/**
 * kpt 1.0.0-beta.67's opt-in top-down hydration (`kpt.dev/bfs-rendering: "true"` on the root
 * Kptfile; kptdev/kpt pkg/lib/kptops/render_executor.go at v1.0.0-beta.67, `hydrateBfsOrder`,
 * `discoverAndLoadPackages`, `executePipelinesWithScopedVisibility`,
 * `propagateResourcesAcrossNodes`): packages are discovered breadth-first (subpackages in name
 * order), each with its own resources and a validated Kptfile; then each runs its pipeline, in
 * that order, on its own resources followed by every descendant's (pre-order). The output goes back
 * to the package its package-path annotation names (unannotated items stay with the package that
 * ran; items naming no package are dropped, as kpt drops them). A parent can so change its
 * subpackages; a subpackage never sees its parent or its siblings.
 */
async function hydrateBfs(
  st: RenderState,
  root: string,
  kptfile: Kptfile,
  entries: PipelineEntry[],
): Promise<KubeObject[]> {
  const { fs } = st.opts;
  st.topDown = true;
  const top: BfsPackage = { dir: root, kptfile, entries, resources: [], children: [] };
  const all: BfsPackage[] = [];
  const queue = [top];
  for (let node = queue.shift(); node !== undefined; node = queue.shift()) {
    if (st.visiting.has(node.dir))
      throw new KrmfnError({ code: 'package-cycle', message: 'cycle detected in pkg dependencies' });
    st.visiting.add(node.dir);
    st.packagesVisited++;
    all.push(node);
    const scan = await scanPackage(fs, node.dir, true);
    node.resources = await readLocalResources(st, node.dir, scan.files);
    const subs = [...scan.subpackages].sort((a, b) => byteCompare(displayPath(st.root, a), displayPath(st.root, b)));
    for (const sub of subs) {
      const subKptfile = await loadKptfile(fs, sub, st.env.limits, st.env.level.version);
      const subEntries = await validatePipeline(fs, sub, subKptfile, st.env.limits, st.env.level.messages);
      const child: BfsPackage = { dir: sub, kptfile: subKptfile, entries: subEntries, resources: [], children: [] };
      node.children.push(child);
      queue.push(child);
    }
  }
  const withDescendants = (node: BfsPackage, into: KubeObject[]): KubeObject[] => {
    for (const child of node.children) {
      into.push(...child.resources);
      withDescendants(child, into);
    }
    return into;
  };
  const propagate = (node: BfsPackage, output: KubeObject[]): void => {
    const byPackage = new Map<string, KubeObject[]>();
    for (const o of output) {
      const pkg = o.getAnnotation(ANNOTATIONS.packagePath) || node.dir;
      const list = byPackage.get(pkg);
      if (list) list.push(o);
      else byPackage.set(pkg, [o]);
    }
    for (const target of all) {
      const mine = byPackage.get(target.dir);
      if (target === node) target.resources = mine ?? [];
      else if (mine) target.resources = mine;
    }
  };
  for (const node of all) {
    const input = withDescendants(node, [...node.resources]);
    st.pipelineItems = input;
    try {
      propagate(node, await runPipeline(st, node.dir, node.kptfile, node.entries, node.resources, input));
    } catch (e) {
      st.failedPackage ??= node.dir;
      propagate(node, st.pipelineItems);
      st.partial = { dir: root, items: all.flatMap((n) => n.resources) };
      throw e;
    }
  }
  return all.flatMap((n) => n.resources);
}

async function hydrate(
  st: RenderState,
  dir: string,
  kptfile: Kptfile,
  entries: PipelineEntry[],
): Promise<KubeObject[]> {
  if (st.visiting.has(dir))
    throw new KrmfnError({ code: 'package-cycle', message: 'cycle detected in pkg dependencies' });
  st.visiting.add(dir);
  st.packagesVisited++;
  const { fs } = st.opts;
  const scan = await scanPackage(fs, dir, true);
  const subs = [...scan.subpackages].sort((a, b) => byteCompare(displayPath(st.root, a), displayPath(st.root, b)));
  const readLocal = (): Promise<KubeObject[]> => readLocalResources(st, dir, scan.files);
  // The level decides whether local resources come before or after the subpackages' outputs.
  let local = st.env.level.localResourcesFirst ? await readLocal() : undefined;
  const subKptfiles: Kptfile[] = [];
  for (const s of subs) subKptfiles.push(await loadKptfile(fs, s, st.env.limits, st.env.level.version));
  const input: KubeObject[] = local ? [...local] : [];
  const siblings = siblingHydration(st, subs.length, async (state, i) => {
    const subEntries = await validatePipeline(fs, subs[i], subKptfiles[i], state.env.limits, state.env.level.messages);
    return hydrate(state, subs[i], subKptfiles[i], subEntries);
  });
  for (let i = 0; i < subs.length; i++) {
    const sub = subs[i];
    try {
      input.push(...(await siblings.take(i)));
    } catch (e) {
      st.partial = st.partial?.dir === sub ? { dir, items: [...input, ...st.partial.items] } : undefined;
      throw e;
    }
  }
  local ??= await readLocal();
  if (!st.env.level.localResourcesFirst) input.push(...local);
  let out: KubeObject[];
  st.pipelineItems = input;
  try {
    out = await runPipeline(st, dir, kptfile, entries, local, input);
  } catch (e) {
    st.failedPackage ??= dir;
    st.partial = { dir, items: st.pipelineItems };
    throw e;
  }
  st.visiting.delete(dir);
  return out;
}

/** Writes `results.yaml` when a results dir is set; returns its path. Errors are ignored on failure. */
export async function writeResults(
  host: EngineHost,
  results: FunctionResultList,
  failed: boolean,
  fieldValues?: FieldValueStyle,
): Promise<string | undefined> {
  if (!host.resultsDir) return undefined;
  const file = join(host.resultsDir, 'results.yaml');
  try {
    await host.fs.mkdirp(host.resultsDir);
    await host.fs.writeFile(file, new TextEncoder().encode(emitResultsFile(results, fieldValues)));
  } catch (e) {
    if (!failed) throw e;
  }
  return file;
}

export async function render(opts: RenderOptions): Promise<RunOutcome> {
  const env = createCallEnv(opts, opts.allowExec ?? false);
  const { limits, level, results } = env;
  const root = opts.root;
  const st: RenderState = {
    opts,
    env,
    root,
    visiting: new Set(),
    readFiles: [],
    originals: new Map(),
    functionsRun: 0,
    packagesRun: 0,
    steps: [],
    packagesVisited: 0,
  };
  const outcome: RunOutcome = { ok: false, results, functionsRun: 0, packagesRun: 0, written: [], deleted: [] };
  // kpt saves no results when the root package cannot be loaded (internal/util/render/executor.go
  // `Execute` at v1.0.0-beta.56, checked with the real kpt, and pkg/lib/kptops/render_executor.go
  // at v1.0.0-beta.67 both return from `newPkgNode`'s error before hydrating); beta.67 writes no
  // status then either.
  let rootLoaded = false;
  try {
    const output = opts.output ?? { kind: 'in-place' };
    await checkOutputAbsent(opts.fs, output);
    const kptfile = await loadKptfile(opts.fs, root, limits, level.version);
    st.saveOnFailure = saveOnFailureRequested(level, kptfile);
    const entries = await validatePipeline(opts.fs, root, kptfile, limits, level.messages);
    rootLoaded = true;
    // `let`: the trees are dropped once the plan holds every byte (bench/README.md, "Render memory").
    let items: KubeObject[] | undefined = bfsRenderingRequested(level, kptfile)
      ? await hydrateBfs(st, root, kptfile, entries)
      : await hydrate(st, root, kptfile, entries);
    st.pipelineItems = undefined;
    relativize(items, root);
    if (opts.attribution ?? true) attribute(items);
    if (output.kind === 'stdout' || output.kind === 'unwrap') outcome.stdout = outputText(output, items);
    else {
      const plan = await planOutput(opts.fs, output, items, root, st);
      items = undefined;
      if (output.kind === 'in-place') applyRenderStatus(st, plan, root);
      outcome.written = writtenPaths(plan, st.originals);
      outcome.deleted = plan.deletes;
      if (output.kind === 'in-place') describeChangesOnDemand(outcome, plan, st.originals);
      if (!(opts.dryRun && output.kind === 'in-place')) {
        if (output.kind === 'dir') await opts.fs.mkdirp(output.dir);
        await applyPlan(opts.fs, plan, st.originals);
      }
    }
    outcome.ok = true;
  } catch (e) {
    outcome.failure = toFailure(e, 'render');
    const inPlace = (opts.output ?? { kind: 'in-place' }).kind === 'in-place';
    if (rootLoaded && inPlace && !opts.dryRun) {
      const error = renderErrorForStatus(st, root, outcome.failure);
      if (st.saveOnFailure) {
        outcome.savedOnFailure = true;
        await saveFailedRender(
          st,
          root,
          st.partial?.dir === root ? st.partial.items : [],
          error,
          opts.attribution ?? true,
        );
      } else await writeFailureStatus(st, root, error);
    }
  }
  outcome.functionsRun = st.functionsRun;
  outcome.packagesRun = st.packagesRun;
  outcome.packagesVisited = st.packagesVisited;
  const file = rootLoaded ? await writeResults(opts, results, !outcome.ok, level.resultFieldValues) : undefined;
  if (file) outcome.resultsFile = file;
  return outcome;
}
