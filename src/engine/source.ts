/**
 * `fn source` and `fn sink`, as kpt v1.0.0-beta.56 does them
 * (kptdev/kpt thirdparty/cmdconfig/commands/cmdsource/cmdsource.go and cmdsink/cmdsink.go,
 * internal/util/cmdutil/cmdutil.go `WriteToOutput`, at tag v1.0.0-beta.56).
 *
 * - `sourcePackage` reads a directory (every resource file of the tree, subpackages included, in
 *   the lexical walk eval uses) or one file with kyaml's reader annotations — the values it adds
 *   are single-quoted, as kyaml's `SetAnnotation` writes them — and prints a ResourceList (with the
 *   `--fn-config` file as `functionConfig`, read the same way) or, for `-o unwrap`, the plain stream.
 * - `sinkResources` writes a ResourceList (or a plain stream) read from text into a new directory
 *   with the writer eval uses for `-o DIR` (kyaml's LocalPackageWriter).
 * Paths are absolute engine paths; the caller checks that the sink directory does not exist yet and
 * phrases path errors as the user typed the paths.
 */
import { KrmfnError, isKrmfnError } from '../core/errors.ts';
import type { PackageFs } from '../core/fs.ts';
import type { KubeObject } from '../core/kube-object.ts';
import { withLimits, type Limits } from '../core/limits.ts';
import { parseResourceListInput, resourceListNode } from '../core/resource-list.ts';
import { emitYamlDocument } from '../core/yaml/index.ts';
import { bookkeeping } from './annotations.ts';
import { basename, clean, dirname } from './paths.ts';
import { readResourceFile, readResourceFiles, scanPackage } from './read.ts';
import { applyPlan, emitUnwrap, planWrite, relativize } from './write.ts';

export interface SourceOptions {
  fs: PackageFs;
  /** Absolute path of the package directory, or of one resource file. */
  path: string;
  /** Absolute path of the `--fn-config` file. */
  fnConfigPath?: string;
  output: 'stdout' | 'unwrap';
  limits?: Partial<Limits>;
}

/** Reads a directory tree or one file as kyaml's LocalPackageReader does (kpt fn source). */
async function readAsSource(fs: PackageFs, path: string, limits: Limits): Promise<KubeObject[]> {
  if ((await fs.stat(path)) === 'file') {
    return (await readResourceFile(fs, dirname(path), basename(path), limits, undefined, 'single')).items;
  }
  const scan = await scanPackage(fs, path, false);
  const reads = await readResourceFiles(fs, path, scan.files, limits, undefined, 'single');
  return reads.flatMap((r) => r.items);
}

/** The text `kpt fn source` prints on stdout. */
export async function sourcePackage(opts: SourceOptions): Promise<string> {
  const limits = withLimits(opts.limits);
  let functionConfig: KubeObject | undefined;
  if (opts.fnConfigPath !== undefined) {
    const configs = await readAsSource(opts.fs, opts.fnConfigPath, limits);
    if (configs.length !== 1) {
      throw new KrmfnError({
        code: 'config-invalid',
        message: `expected exactly 1 functionConfig, found ${configs.length}`,
      });
    }
    functionConfig = configs[0];
  }
  const items = await readAsSource(opts.fs, opts.path, limits);
  if (opts.output === 'unwrap') return emitUnwrap(items);
  return emitYamlDocument(resourceListNode(items, functionConfig), 'compact');
}

export interface SinkOptions {
  fs: PackageFs;
  /** A ResourceList, or a plain multi-document stream. */
  text: string;
  /** Absolute path of the directory to create. */
  dir: string;
  /** The directory as the user typed it, for messages (default `dir`). */
  shownDir?: string;
  limits?: Partial<Limits>;
}

/**
 * kyaml's LocalPackageWriter refuses, before writing anything, an item whose path is absolute or
 * whose cleaned path starts with `..` (a bare prefix test, so `..x/a.yaml` is refused too):
 * kustomize kyaml/kio/pkgio_writer.go (`indexByFilePath`) at kyaml/v0.15.0, the version kpt
 * v1.0.0-beta.56 vendors; messages checked with the real kpt (test/e2e/cases/fn-sink-path-escape).
 */
function checkSinkPaths(items: readonly KubeObject[], shownDir: string): void {
  for (const o of items) {
    if (o.root.kind !== 'mapping') continue;
    const bk = bookkeeping(o);
    const p = bk.ipath ?? bk.path;
    if (p === undefined) continue;
    if (p.startsWith('/'))
      throw new KrmfnError({ code: 'write-failed', message: 'package paths may not be absolute paths' });
    const cleaned = clean(p);
    if (cleaned.startsWith('..'))
      throw new KrmfnError({
        code: 'write-failed',
        message: `resource must be written under package ${shownDir}: ${cleaned}`,
      });
  }
}

/** Writes the resources of `text` under `dir` (created first, as kpt does, even if reading fails). */
export async function sinkResources(opts: SinkOptions): Promise<void> {
  const limits = withLimits(opts.limits);
  await opts.fs.mkdirp(opts.dir);
  let items: KubeObject[];
  try {
    items = parseResourceListInput(opts.text, { limits });
  } catch (e) {
    if (isKrmfnError(e)) throw new KrmfnError({ ...e.toData(), message: `MalformedYAMLError: ${e.message}` });
    throw e;
  }
  checkSinkPaths(items, opts.shownDir ?? opts.dir);
  relativize(items, '/');
  const plan = await planWrite(opts.fs, items, { root: opts.dir, readFiles: [] });
  await applyPlan(opts.fs, plan);
}
