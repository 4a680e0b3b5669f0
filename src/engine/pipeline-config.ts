/**
 * Pipeline validation and functionConfig construction (docs/kpt-semantics.md, "Kptfile", "Calling a function"): the static
 * checks of every function (mutators first), the configPath file checks, the run-time rule that a
 * configPath names a resource read from this package, and the `function-input` ConfigMap.
 */
import { KrmfnError, isKrmfnError } from '../core/errors.ts';
import type { PipelineFunction } from '../core/function.ts';
import type { PackageFs } from '../core/fs.ts';
import { cleanSlashPath, formatValidateError, validateFunctionStatic, type Kptfile } from '../core/kptfile.ts';
import { BETA56_MESSAGES, type KptMessages } from '../core/kpt-messages.ts';
import { ANNOTATIONS, KubeObject } from '../core/kube-object.ts';
import type { Limits } from '../core/limits.ts';
import { documentNode, mappingNode, strNode } from '../core/yaml/node.ts';
import { parseYamlFile } from '../core/yaml/index.ts';
import { annotation } from './annotations.ts';
import { krmProblem } from './invariants.ts';
import { join } from './paths.ts';

const dec = new TextDecoder();

export interface PipelineEntry {
  spec: PipelineFunction;
  /** `pipeline.mutators[i]` / `pipeline.validators[i]`. */
  field: string;
  validator: boolean;
  /** The configPath file as parsed from disk (no annotations). */
  diskConfig?: KubeObject;
}

function invalid(text: string): KrmfnError {
  return new KrmfnError({ code: 'kptfile-invalid', message: text });
}

/** Validates a package's pipeline and loads configPath files. Mutators are checked before validators. */
export async function validatePipeline(
  fs: PackageFs,
  dir: string,
  kptfile: Kptfile,
  limits: Limits,
  messages: KptMessages = BETA56_MESSAGES,
): Promise<PipelineEntry[]> {
  const entries: PipelineEntry[] = [
    ...kptfile.pipeline.mutators.map((spec, i) => ({ spec, field: `pipeline.mutators[${i}]`, validator: false })),
    ...kptfile.pipeline.validators.map((spec, i) => ({ spec, field: `pipeline.validators[${i}]`, validator: true })),
  ];
  for (const e of entries) {
    const problem = validateFunctionStatic(e.spec, e.field, messages);
    if (problem) throw invalid(problem);
    if (e.spec.configPath === undefined) continue;
    const p = e.spec.configPath.trim();
    const field = `${e.field}.configPath`;
    const abs = join(dir, p);
    if ((await fs.stat(abs)) !== 'file')
      throw invalid(formatValidateError(field, messages.configPathMissing(e.spec.configPath, abs), e.spec.configPath));
    let docs;
    try {
      docs = parseYamlFile(dec.decode(await fs.readFile(abs)), { file: p, limits }).docs;
    } catch (err) {
      const msg = isKrmfnError(err) ? err.message : String(err);
      throw invalid(
        formatValidateError(field, `failed to read functionConfig ${JSON.stringify(p)}: ${msg}`, e.spec.configPath),
      );
    }
    if (docs.length > 1) {
      throw invalid(
        formatValidateError(
          field,
          `functionConfig ${JSON.stringify(p)} must not contain more than one config, got ${docs.length}`,
          e.spec.configPath,
        ),
      );
    }
    const obj = new KubeObject(docs[0] ?? documentNode(mappingNode()));
    const krm = krmProblem(obj);
    if (krm)
      throw invalid(formatValidateError(field, `functionConfig ${JSON.stringify(p)}: ${krm}`, e.spec.configPath));
    e.diskConfig = obj;
  }
  return entries;
}

/**
 * The run-time rule: a configPath must name a resource read from this package (paths compared
 * cleaned, as kpt's `ValidatePipeline` does). kpt beta.67 checks every step, mutators first, and
 * joins the failures (`errors.Join`): its CLI prints the first (the resolver's `errors.As`), its
 * Kptfile status the whole joined text. beta.56 stops at the first, which is the same text.
 * Returns undefined when every configPath is present.
 */
export function configPathProblem(
  entries: readonly PipelineEntry[],
  local: readonly KubeObject[],
  messages: KptMessages = BETA56_MESSAGES,
): { first: string; all: string } | undefined {
  const present = new Set<string>();
  for (const o of local) {
    const p = annotation(o, ANNOTATIONS.internalPath) ?? annotation(o, ANNOTATIONS.path);
    if (p !== undefined) present.add(cleanSlashPath(p));
  }
  const errors: string[] = [];
  for (const e of entries) {
    const p = e.spec.configPath;
    if (p === undefined || p === '' || present.has(cleanSlashPath(p))) continue;
    const reason = messages.configPathNotInPackage(
      {
        validator: e.validator,
        ...(e.spec.name ? { name: e.spec.name } : {}),
        ...(e.spec.image ? { image: e.spec.image } : {}),
      },
      p,
    );
    errors.push(formatValidateError(`${e.field}.configPath`, reason, p));
  }
  return errors.length ? { first: errors[0], all: errors.join('\n') } : undefined;
}

/** The live configPath item (this package, same path), or undefined. */
export function liveConfig(
  items: readonly KubeObject[],
  packagePath: string,
  configPath: string,
): KubeObject | undefined {
  return items.find(
    (o) =>
      annotation(o, ANNOTATIONS.packagePath) === packagePath &&
      (annotation(o, ANNOTATIONS.internalPath) ?? annotation(o, ANNOTATIONS.path)) === configPath,
  );
}

/** `configMap:` → `{apiVersion: v1, kind: ConfigMap, metadata: {name: function-input}, data: {...}}` (flow data). */
export function configMapFunctionConfig(data: Record<string, string>): KubeObject {
  const d = mappingNode(
    Object.entries(data).flatMap(([k, v]) => [strNode(k), { ...strNode(v), tag: '!!str' }]),
    'flow',
  );
  return new KubeObject(
    documentNode(
      mappingNode([
        strNode('apiVersion'),
        strNode('v1'),
        strNode('kind'),
        strNode('ConfigMap'),
        strNode('metadata'),
        mappingNode([strNode('name'), strNode('function-input')]),
        strNode('data'),
        d,
      ]),
    ),
  );
}

/** eval's ConfigMap from `-- [Kind] k=v ...`, in kpt's unusual field order. */
export function argsFunctionConfig(kind: string | undefined, data: readonly (readonly [string, string])[]): KubeObject {
  const d = mappingNode(
    data.flatMap(([k, v]) => [strNode(k), { ...strNode(v), tag: '!!str' }]),
    'flow',
  );
  return new KubeObject(
    documentNode(
      mappingNode([
        strNode('metadata'),
        mappingNode([strNode('name'), strNode('function-input')]),
        strNode('data'),
        d,
        strNode('kind'),
        strNode(kind ?? 'ConfigMap'),
        strNode('apiVersion'),
        strNode('v1'),
      ]),
    ),
  );
}
