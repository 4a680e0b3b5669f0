/**
 * The writer (as kpt's render writes through kyaml's LocalPackageReadWriter, kptdev/kpt
 * internal/util/render/executor.go at v1.0.0-beta.56): everything that turns the final item list into bytes is
 * computed first (`planWrite`), so a failure before `applyPlan` changes nothing on disk.
 *
 * - `relativize` rewrites each item's path to be relative to the root (`join(rel(root,
 *   package-path), clean(path))`, absolute paths re-rooted) and drops package-path.
 * - `attribute` adds kpt's `cnrm.cloud.google.com/blueprint` attribution (render only).
 * - `planWrite` groups by path, sorts by index (stable), strips bookkeeping annotations and empty
 *   metadata, emits YAML (per-document seqindent) or JSON (`.json` file with one resource), and
 *   lists read files that received nothing (deleted). Files whose bytes do not change are skipped.
 * - `emitStdout` / `emitUnwrap` produce the `-o stdout` ResourceList and the `-o unwrap` stream.
 */
import { isKrmfnError, KrmfnError } from '../core/errors.ts';
import type { FileChange } from './types.ts';
import type { PackageFs } from '../core/fs.ts';
import { ANNOTATIONS, type KubeObject } from '../core/kube-object.ts';
import { resourceListNode } from '../core/resource-list.ts';
import { mapGet, type YNode } from '../core/yaml/node.ts';
import { emitJsonFile, emitYamlDocument, emitYamlFile } from '../core/yaml/index.ts';
import { annotation, bookkeeping, itemPath, removeAnnotations, setAnnotations, stripForWrite } from './annotations.ts';
import { defaultPath } from './invariants.ts';
import { BARE_SEQ_KEY } from './read.ts';
import { clean, dirname, join, relative } from './paths.ts';

type SeqIndent = 'compact' | 'wide';

/** Rewrites paths relative to `root` (both keys) and removes package-path. */
export function relativize(items: readonly KubeObject[], root: string): void {
  const bases = new Map<string, string>();
  const baseOf = (pkg: string): string => {
    let base = bases.get(pkg);
    if (base === undefined) {
      const rel = relative(root, pkg);
      if (rel === '..' || rel.startsWith('../') || pkg === '' || !pkg.startsWith('/')) {
        throw new KrmfnError({
          code: 'write-failed',
          message: `subpackage ${JSON.stringify(pkg)} is not a descendant of ${JSON.stringify(root)}`,
        });
      }
      base = rel === '.' ? '' : rel;
      bases.set(pkg, base);
    }
    return base;
  };
  for (const o of items) {
    if (o.root.kind !== 'mapping') continue;
    const bk = bookkeeping(o);
    const base = bk.packagePath !== undefined ? baseOf(bk.packagePath) : '';
    let p = clean(bk.ipath ?? bk.path ?? defaultPath(o, ''));
    while (p.startsWith('/')) p = p.slice(1);
    const full = base ? join(base, p) : p;
    if (bk.path === undefined && bk.ipath === undefined) {
      // kyaml's DefaultPathAnnotation (kustomize kyaml/kio/kioutil/kioutil.go at kyaml/v0.15.0):
      // the internal key first, then the legacy one, single-quoted by SetAnnotation.
      setAnnotations(
        o,
        [
          [ANNOTATIONS.internalPath, full],
          [ANNOTATIONS.path, full],
        ],
        'single',
      );
    } else if (bk.path !== full || bk.ipath !== full) {
      setAnnotations(o, [
        [ANNOTATIONS.path, full],
        [ANNOTATIONS.internalPath, full],
      ]);
    }
    if (bk.packagePath !== undefined) removeAnnotations(o, [ANNOTATIONS.packagePath]);
  }
}

const BLUEPRINT = 'cnrm.cloud.google.com/blueprint';

/** kpt's attribution for KCC resources (apiVersion containing `.cnrm.`). */
export function attribute(items: readonly KubeObject[]): void {
  for (const o of items) {
    if (o.root.kind !== 'mapping' || !o.apiVersion.includes('.cnrm.')) continue;
    const cur = annotation(o, BLUEPRINT);
    let next: string;
    if (!cur) next = 'kpt-fn';
    else if (!cur.includes('kpt-')) next = `${cur},kpt-fn`;
    else {
      next = cur
        .split(',')
        .map((part) => (part.startsWith('kpt-') && !part.split('-').includes('fn') ? `${part}-fn` : part))
        .join(',');
    }
    if (next === cur) continue;
    o.setAnnotation(BLUEPRINT, next);
    // kpt writes a new annotation single-quoted; an existing one keeps its style (checked with kpt).
    const n = o.getNode(['metadata', 'annotations', BLUEPRINT]);
    if (n && !cur) n.style = 'single';
  }
}

function seqIndentOf(o: KubeObject): SeqIndent {
  return annotation(o, ANNOTATIONS.seqIndent) === 'wide' ? 'wide' : 'compact';
}

/** The document to emit: unwraps kyaml's bare-sequence wrapper. */
function emitDoc(o: KubeObject): YNode {
  const root = o.doc.content[0];
  if (root && root.kind === 'mapping' && root.content.length === 2 && root.content[0].value === BARE_SEQ_KEY) {
    const seq = mapGet(root, BARE_SEQ_KEY)!;
    return { ...o.doc, content: [seq] };
  }
  return o.doc;
}

export interface FileGroup {
  /** Path relative to the root. */
  path: string;
  items: KubeObject[];
}

/** Groups relativized items by path (first-appearance order) and sorts each group by index. */
export function groupByPath(items: readonly KubeObject[]): FileGroup[] {
  const groups = new Map<
    string,
    { path: string; entries: { o: KubeObject; index: number; order: number }[]; max: number }
  >();
  items.forEach((o, order) => {
    // One pass over the annotations for both keys (itemPath and itemIndex would make four).
    const bk = bookkeeping(o);
    const path = bk.ipath ?? bk.path ?? defaultPath(o, '');
    let g = groups.get(path);
    if (!g) {
      g = { path, entries: [], max: 0 };
      groups.set(path, g);
    }
    const raw = bk.iindex ?? bk.index;
    const parsed = raw !== undefined && /^-?\d+$/.test(raw) ? Number(raw) : undefined;
    const index = parsed ?? g.max;
    if (index > g.max) g.max = index;
    g.entries.push({ o, index, order });
  });
  return [...groups.values()].map((g) => ({
    path: g.path,
    items: g.entries.sort((a, b) => a.index - b.index || a.order - b.order).map((e) => e.o),
  }));
}

export function emitFile(path: string, items: readonly KubeObject[]): string {
  const seq = items.map(seqIndentOf);
  for (const o of items) stripForWrite(o);
  if (path.endsWith('.json') && items.length === 1) return emitJsonFile(emitDoc(items[0]));
  return emitYamlFile(items.map(emitDoc), seq);
}

export interface WritePlan {
  /** Absolute path → new bytes. */
  writes: Map<string, Uint8Array>;
  /** Absolute paths of files to delete. */
  deletes: string[];
}

export interface PlanOptions {
  /** Directory the relative paths are written under. */
  root: string;
  /** Absolute paths of every file read (candidates for deletion); empty for `-o DIR`. */
  readFiles: readonly string[];
  /** Original bytes of read files: unchanged files are not rewritten. */
  originals?: ReadonlyMap<string, Uint8Array>;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Computes every byte to write and every file to delete; touches nothing but `stat`. */
export async function planWrite(fs: PackageFs, items: readonly KubeObject[], opts: PlanOptions): Promise<WritePlan> {
  const enc = new TextEncoder();
  const writes = new Map<string, Uint8Array>();
  const groups = groupByPath(items);
  const kinds = await Promise.all(
    groups.map((g) =>
      opts.originals?.has(join(opts.root, g.path))
        ? Promise.resolve('file' as const)
        : fs.stat(join(opts.root, g.path)),
    ),
  );
  groups.forEach((g, i) => {
    if (kinds[i] === 'dir') {
      throw new KrmfnError({
        code: 'write-failed',
        message: `failed to save resources: config.kubernetes.io/path cannot be a directory: ${g.path}`,
      });
    }
  });
  for (const g of groups) {
    const abs = join(opts.root, g.path);
    const bytes = enc.encode(emitFile(g.path, g.items));
    const old = opts.originals?.get(abs);
    if (old && sameBytes(old, bytes)) {
      writes.set(abs, old);
      continue;
    }
    writes.set(abs, bytes);
  }
  const deletes = opts.readFiles.filter((f) => !writes.has(f));
  return { writes, deletes };
}

/**
 * Applies a plan: writes changed files (creating parent directories), then deletes emptied files.
 * A filesystem with `commit` (NodeFs) gets the whole plan at once and makes it crash-safe
 * (docs/writes.md); otherwise files are written one at a time and deletions come only after every
 * write succeeded.
 */
export async function applyPlan(
  fs: PackageFs,
  plan: WritePlan,
  originals?: ReadonlyMap<string, Uint8Array>,
): Promise<void> {
  const changed = new Map([...plan.writes].filter(([abs, data]) => !originals || originals.get(abs) !== data));
  try {
    if (fs.commit) await fs.commit({ writes: changed, deletes: plan.deletes });
    else await writeOneByOne(fs, changed, plan.deletes, originals);
  } catch (e) {
    // kpt: `failed to save resources: open /abs/path: file name too long`.
    if (isKrmfnError(e) && (e.code === 'write-failed' || e.code === 'package-io')) {
      throw new KrmfnError({ ...e.toData(), code: 'write-failed', message: `failed to save resources: ${e.message}` });
    }
    throw e;
  }
}

async function writeOneByOne(
  fs: PackageFs,
  changed: ReadonlyMap<string, Uint8Array>,
  deletes: readonly string[],
  originals?: ReadonlyMap<string, Uint8Array>,
): Promise<void> {
  const known = new Set([...(originals?.keys() ?? [])].map(dirname));
  const dirs = new Set([...changed.keys()].map(dirname).filter((d) => !known.has(d)));
  for (const d of dirs) await fs.mkdirp(d);
  for (const [abs, data] of changed) await fs.writeFile(abs, data);
  for (const abs of deletes) await fs.remove(abs);
}

/** The files a plan changes, with their texts before and after, sorted by path. */
export function describeChanges(plan: WritePlan, originals: ReadonlyMap<string, Uint8Array>): FileChange[] {
  const dec = new TextDecoder();
  const out: FileChange[] = [];
  for (const [path, data] of plan.writes) {
    const old = originals.get(path);
    if (old === data) continue;
    out.push({ path, before: old ? dec.decode(old) : undefined, after: dec.decode(data) });
  }
  for (const path of plan.deletes)
    out.push({ path, before: dec.decode(originals.get(path) ?? new Uint8Array()), after: undefined });
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * Sets `outcome.changes` as an enumerable property computed at its first read (then kept): the
 * texts before and after of every changed file are then made only when a caller asks (the CLI does
 * for `--diff`), after the write, not next to every output held for it (bench/README.md,
 * "Render memory"). Until then the outcome holds the plan's bytes and the originals instead.
 */
export function describeChangesOnDemand(
  outcome: { changes?: FileChange[] },
  plan: WritePlan,
  originals: ReadonlyMap<string, Uint8Array>,
): void {
  let changes: FileChange[] | undefined;
  Object.defineProperty(outcome, 'changes', {
    enumerable: true,
    configurable: true,
    get: () => (changes ??= describeChanges(plan, originals)),
    set: (value: FileChange[] | undefined) => {
      changes = value;
    },
  });
}

/**
 * `-o stdout`: a ResourceList whose items keep index/path (root-relative) and seqindent; items a
 * function created get no index (kpt adds none).
 */
export function emitStdout(items: readonly KubeObject[]): string {
  for (const o of items) {
    removeAnnotations(o, [
      ANNOTATIONS.packagePath,
      ANNOTATIONS.id,
      ANNOTATIONS.legacyId,
      ANNOTATIONS.migrationId,
      ANNOTATIONS.kptResourceId,
    ]);
  }
  return emitYamlDocument(resourceListNode(items), 'compact');
}

/** `-o unwrap`: the items as one multi-document stream, bookkeeping annotations removed. */
export function emitUnwrap(items: readonly KubeObject[]): string {
  if (!items.length) return '';
  // kyaml's ByteWriter JSON-encodes one unwrapped item read from a .json file
  // (kustomize kyaml/kio/byteio_writer.go `shouldJSONEncodeSingleBareNode` at kyaml/v0.15.0).
  const only = items.length === 1 ? itemPath(items[0]) : undefined;
  if (only !== undefined && only.endsWith('.json')) return emitFile(only, items);
  const seq = items.map(seqIndentOf);
  for (const o of items) stripForWrite(o);
  return emitYamlFile(items.map(emitDoc), seq);
}
