/**
 * `eval` (kpt fn eval): one function over a flat list — a directory walked as one tree (every
 * Kptfile included, no package-path, no Kptfile required) or a ResourceList/stream given as text
 * (stdin) — with the functionConfig from `--fn-config` or the `-- [Kind] k=v` arguments (always
 * sent; `data: {}` without arguments), one match selector and one exclusion, then in-place write
 * (no attribution), stdout, unwrap or a new directory, and optionally `--save` into the Kptfile.
 */
import { KrmfnError, isKrmfnError } from '../core/errors.ts';
import type { PipelineFunction, Selector } from '../core/function.ts';
import { ANNOTATIONS, KubeObject } from '../core/kube-object.ts';
import type { Limits } from '../core/limits.ts';
import { parseResourceListInput } from '../core/resource-list.ts';
import { parseYamlFile } from '../core/yaml/index.ts';
import { createCallEnv, resolveContext } from './call-env.ts';
import { toFailure } from './error-style.ts';
import { argsFunctionConfig } from './pipeline-config.ts';
import { checkSavedConfigPath, saveFunctionToKptfile } from './kptfile-save.ts';
import { join } from './paths.ts';
import { readResourceFiles, scanPackage } from './read.ts';
import { displayName, writeResults } from './render.ts';
import { runStep } from './step.ts';
import type { EngineHost, RunOutcome } from './types.ts';
import { checkOutputAbsent, outputText, planOutput, writtenPaths } from './output-mode.ts';
import { applyPlan, relativize } from './write.ts';

export interface EvalOptions extends EngineHost {
  /** An absolute directory, or the text of a ResourceList / multi-document stream (`-`). */
  source: { dir: string } | { text: string };
  /** The function: `image` (already short-name resolved) or `exec`; `tag` (kpt beta.67+, `--tag`). */
  function: Pick<PipelineFunction, 'image' | 'exec' | 'tag' | 'env'>;
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
  return (
    !!s &&
    Object.values(s).some((v) =>
      typeof v === 'string' ? v !== '' : v !== undefined && Object.keys(v as object).length > 0,
    )
  );
}

/**
 * The functionConfig of an `eval --fn-config` file at absolute path `p`, as kpt reads it: exactly
 * one document holding a mapping, given index annotations (also read by `krmfn check --fn-config`).
 */
export async function loadFnConfigFile(fs: EvalOptions['fs'], p: string, limits: Limits): Promise<KubeObject> {
  if ((await fs.stat(p)) !== 'file')
    throw new KrmfnError({ code: 'usage', message: `missing function config file: ${p}` });
  const parsed = parseYamlFile(dec.decode(await fs.readFile(p)), { file: p, limits });
  if (parsed.docs.length !== 1) {
    throw new KrmfnError({
      code: 'config-invalid',
      message: `must not contain more than one config, got ${parsed.docs.length}`,
    });
  }
  const root = parsed.docs[0].content[0];
  if (!root || root.kind !== 'mapping') {
    throw new KrmfnError({
      code: 'config-invalid',
      message: `wrong node kind: expected MappingNode but got ${root ? (root.kind === 'sequence' ? 'SequenceNode' : 'ScalarNode') : 'ScalarNode'}`,
    });
  }
  const o = new KubeObject(parsed.docs[0]);
  o.setAnnotation(ANNOTATIONS.index, '0');
  o.setAnnotation(ANNOTATIONS.internalIndex, '0');
  o.setAnnotation(ANNOTATIONS.seqIndent, parsed.seqIndent[0] ?? 'compact');
  return o;
}

export async function evaluate(opts: EvalOptions): Promise<RunOutcome> {
  // eval grants exec: the user named the function on the command line.
  const env = createCallEnv(opts, true);
  const { limits, level, results } = env;
  const outcome: RunOutcome = { ok: false, results, functionsRun: 0, packagesRun: 0, written: [], deleted: [] };
  const output = opts.output ?? ('dir' in opts.source ? { kind: 'in-place' as const } : { kind: 'stdout' as const });
  let plainFailure = false;
  try {
    if (!opts.function.image && !opts.function.exec)
      throw new KrmfnError({ code: 'usage', message: 'must specify --image or --exec' });
    if (opts.fnConfigPath && opts.args && (opts.args.data.length || opts.args.kind)) {
      throw new KrmfnError({
        code: 'usage',
        message: 'function arguments can only be specified without function config file',
      });
    }
    await checkOutputAbsent(opts.fs, output);
    const spec: PipelineFunction = opts.function.image ? { image: opts.function.image } : { exec: opts.function.exec! };
    if (opts.function.image && opts.function.env?.length) spec.env = opts.function.env;
    if (nonEmpty(opts.match)) spec.selectors = [opts.match];
    if (nonEmpty(opts.exclude)) spec.exclude = [opts.exclude];
    // The level names the image (default registry, `:latest`, `--tag` resolution).
    const name = spec.image
      ? level.images.resolve(spec.image, opts.function.tag, opts.listTags ?? (() => []), opts.imagePrefix)
      : displayName(spec);
    if (spec.image) spec.image = name;

    let items: KubeObject[] = [];
    const readFiles: string[] = [];
    const originals = new Map<string, Uint8Array>();
    const root = 'dir' in opts.source ? opts.source.dir : '/';
    if ('dir' in opts.source) {
      const scan = await scanPackage(opts.fs, root, false);
      // kpt fn eval reads with kyaml's LocalPackageReader: the annotations it adds are single-quoted.
      const reads = await readResourceFiles(opts.fs, root, scan.files, limits, undefined, 'single').catch(
        (e: unknown) => {
          // kpt's eval reports a package it cannot read through cobra: `error: ...`.
          plainFailure = true;
          throw e;
        },
      );
      scan.files.forEach((rel, i) => {
        const abs = join(root, rel);
        // Only a file that held resources is deleted when they are gone (docs/kpt-semantics.md, "Writing").
        if (reads[i].items.length) readFiles.push(abs);
        originals.set(abs, reads[i].bytes);
        items.push(...reads[i].items);
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
      ? await loadFnConfigFile(opts.fs, opts.fnConfigPath, limits)
      : argsFunctionConfig(opts.args?.kind, opts.args?.data ?? []);
    if (opts.save && 'dir' in opts.source) checkSavedConfigPath(opts.source.dir, opts.fnConfigPath);
    const runner = await env.runtime.resolve(spec, resolveContext(env, name, 'dir' in opts.source ? root : ''));
    items = await runStep(env, { spec, name, runner, functionConfig: fnConfig, validator: false }, items);
    outcome.functionsRun = 1;
    relativize(items, root);
    if (output.kind === 'stdout' || output.kind === 'unwrap') outcome.stdout = outputText(output, items);
    else {
      const plan = await planOutput(opts.fs, output, items, root, { readFiles, originals });
      if (output.kind === 'dir') {
        // kpt: cmdutil.WriteToOutput (internal/util/cmdutil/cmdutil.go at v1.0.0-beta.56).
        await opts.fs.mkdirp(output.dir).catch((e: unknown) => {
          const why = e instanceof Error ? e.message : String(e);
          throw new KrmfnError({
            code: 'write-failed',
            message: `failed to create output directory ${JSON.stringify(output.dir)}: ${JSON.stringify(why)}`,
          });
        });
      }
      await applyPlan(opts.fs, plan, originals);
      outcome.written = writtenPaths(plan, originals);
      outcome.deleted = plan.deletes;
    }
    if (opts.save) {
      outcome.notice =
        'dir' in opts.source
          ? await saveFunctionToKptfile({
              fs: opts.fs,
              dir: root,
              type: opts.save.type,
              spec,
              name: opts.function.image ? level.images.prefixOnly(opts.function.image, opts.imagePrefix) : name,
              ...(opts.fnConfigPath !== undefined ? { fnConfigPath: opts.fnConfigPath } : {}),
              data: opts.args?.data ?? [],
              ...(opts.function.tag ? { tag: opts.function.tag } : {}),
              ...(opts.limits ? { limits: opts.limits } : {}),
            })
          : 'function not added: Kptfile not exists';
    }
    outcome.ok = true;
  } catch (e) {
    outcome.failure = toFailure(e, 'eval');
    if (plainFailure && outcome.failure.style === 'typed') outcome.failure.style = 'plain';
  }
  const file = await writeResults(opts, results, !outcome.ok, level.resultFieldValues);
  if (file) outcome.resultsFile = file;
  return outcome;
}
