/**
 * kpt's checks around every function call (docs/kpt-semantics.md, "Reading resources", "Default paths", "Invariants"), with kpt's exact
 * messages, plus the default-path rule for items a function left without a path.
 */
import { KrmfnError, type ErrorData } from '../core/errors.ts';
import { ANNOTATIONS, type KubeObject } from '../core/kube-object.ts';
import { mapGet } from '../core/yaml/node.ts';
import { bookkeeping, itemPath, setAnnotations, type Bookkeeping } from './annotations.ts';
import { basename, clean, dirname } from './paths.ts';

function scalar(o: KubeObject, key: string): string {
  const root = o.doc.content[0];
  if (!root || root.kind !== 'mapping') return '';
  const v = mapGet(root, key);
  return v && v.kind === 'scalar' && v.tag !== '!!null' ? v.value : '';
}

function metadataName(o: KubeObject): string {
  const root = o.doc.content[0];
  if (!root || root.kind !== 'mapping') return '';
  const m = mapGet(root, 'metadata');
  if (!m || m.kind !== 'mapping') return '';
  const n = mapGet(m, 'name');
  return n && n.kind === 'scalar' && n.tag !== '!!null' ? n.value : '';
}

/** kustomize's konfig.RecognizedKustomizationFileNames (kubernetes-sigs/kustomize api/konfig). */
const KUSTOMIZATION_FILE_NAMES = new Set(['kustomization.yaml', 'kustomization.yml', 'Kustomization']);

/**
 * Why an item is not KRM (kyaml's message), or undefined. Kustomizations pass, recognised by file
 * name or by apiVersion/kind (kptdev/kpt pkg/api/kptfile/v1/validation.go `IsKRM` at v1.0.0-beta.56).
 */
export function krmProblem(o: KubeObject): string | undefined {
  const apiVersion = scalar(o, 'apiVersion');
  const kind = scalar(o, 'kind');
  const name = metadataName(o);
  // Every branch below answers undefined for a complete resource: the path is read only otherwise.
  if (apiVersion && kind && name) return undefined;
  const file = itemPath(o);
  if (file !== undefined && KUSTOMIZATION_FILE_NAMES.has(basename(file))) return undefined;
  if (apiVersion.startsWith('kustomize.config.k8s.io') || (kind === 'Kustomization' && !apiVersion)) return undefined;
  if (!apiVersion && !kind && !name) return 'resource must have `apiVersion`, `kind`, and `name`';
  if (!apiVersion) return 'resource must have `apiVersion`';
  if (!kind) return 'resource must have `kind`';
  if (!name) return 'resource must have `metadata.name`';
  return undefined;
}

/**
 * Items that passed an output check. Between calls nothing edits items, so an input check can
 * skip them: it would pass again (the next function's own output is checked anew).
 */
const verified = new WeakSet<KubeObject>();

/** Whether `o` passed an output check; it passes again until its tree is edited (KubeObject.takeEdits). */
export function passedKrmCheck(o: KubeObject): boolean {
  return verified.has(o);
}

export function checkKrm(items: readonly KubeObject[], side: 'input' | 'output', fn?: string): void {
  for (const o of items) {
    const error = krmError(o, side, fn);
    if (error) throw error;
  }
}

/** checkKrm for one item: the error it would throw, or undefined (an output item passing is remembered). */
export function krmError(o: KubeObject, side: 'input' | 'output', fn?: string): KrmfnError | undefined {
  if (side === 'input' && verified.has(o)) return undefined;
  const problem = krmProblem(o);
  if (problem) {
    return new KrmfnError({
      code: 'not-krm',
      message: `${side} resource list must contain only KRM resources: ${itemPath(o) ?? ''}: ${problem}`,
      ...(fn ? { function: fn } : {}),
    });
  }
  if (side === 'output') verified.add(o);
  return undefined;
}

/**
 * kpt's path invariants for one output item (`seen` collects package-path/path/index keys of the
 * items checked so far): no path escaping its package, no duplicate (package-path, path, index).
 */
export function pathInvariantError(bk: Bookkeeping, seen: PathIndexSet): ErrorData | undefined {
  const p = bk.ipath ?? bk.path;
  if (p === undefined) return undefined;
  const c = clean(p);
  if (c === '..' || c.startsWith('../')) {
    return {
      code: 'path-escape',
      message: `function must not modify resources outside of package: resource has path ${p}`,
    };
  }
  const idx = bk.iindex ?? bk.index ?? '';
  const pkg = bk.packagePath ?? '';
  let paths = seen.get(pkg);
  if (!paths) seen.set(pkg, (paths = new Map<string, Set<string>>()));
  let indexes = paths.get(c);
  if (!indexes) paths.set(c, (indexes = new Set()));
  if (indexes.has(idx)) {
    return {
      code: 'duplicate-path-index',
      message: `resource at path ${JSON.stringify(c)} and index ${JSON.stringify(idx)} already exists`,
    };
  }
  indexes.add(idx);
  return undefined;
}

/** package-path → path → indexes seen (no key strings allocated per item). */
export type PathIndexSet = Map<string, Map<string, Set<string>>>;

/** No path may escape its package; no two items may share (package-path, path, index). */
export function checkPathInvariants(items: readonly KubeObject[], fn?: string): void {
  const seen: PathIndexSet = new Map();
  for (const o of items) {
    const problem = pathInvariantError(bookkeeping(o), seen);
    if (problem) throw new KrmfnError({ ...problem, ...(fn ? { function: fn } : {}) });
  }
}

/** The directory new items of a function go to: the functionConfig's directory, `functions/` lifted. */
export function functionDir(fnConfigPath: string | undefined): string {
  if (!fnConfigPath) return '';
  let d = dirname(fnConfigPath);
  if (d === '.') return '';
  if (basename(d) === 'functions') {
    d = dirname(d);
    if (d === '.') return '';
  }
  return d;
}

/** `<dir>/<namespace>/<kind lowercased>_<name>.yaml`, the namespace segment omitted when empty. */
export function defaultPath(o: KubeObject, dir: string): string {
  const ns = o.namespace;
  const file = `${o.kind.toLowerCase()}_${o.name}.yaml`;
  return [dir, ns, file].filter((s) => s !== '').join('/');
}

/** Gives items without a path annotation their default path (both keys). */
export function defaultPaths(items: readonly KubeObject[], dir: string): void {
  for (const o of items) {
    if (o.root.kind !== 'mapping' || itemPath(o) !== undefined) continue;
    const p = defaultPath(o, dir);
    setAnnotations(
      o,
      [
        [ANNOTATIONS.internalPath, p],
        [ANNOTATIONS.path, p],
      ],
      'single',
    );
  }
}
