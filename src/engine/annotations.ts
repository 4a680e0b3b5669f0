/**
 * kpt's bookkeeping annotations on items (docs/kpt-semantics.md, "Reading resources", "Calling a function", "Writing"): stamping on read,
 * reading path/index (internal key first, then legacy), per-call ids, and stripping before write.
 */
import { ANNOTATIONS, type KubeObject } from '../core/kube-object.ts';
import { mapGet, mapIndexOf, strNode, type NodeStyle, type YNode } from '../core/yaml/node.ts';

export interface ReaderStamp {
  path: string;
  index: number;
  seqIndent: string;
  /** Absolute package path (render only). */
  packagePath?: string;
  /**
   * Style of the annotation values the stamp adds (existing values keep theirs). kyaml's
   * `SetAnnotation` single-quotes them (kustomize kyaml/yaml/kfns.go at kyaml/v0.15.0), which
   * `kpt fn source` shows; the engine's own reads leave them plain.
   */
  valueStyle?: NodeStyle;
}

/** kyaml's legacy/current annotation pairs, copied both ways on read (kioutil.CopyLegacyAnnotations). */
const LEGACY_PAIRS: readonly (readonly [string, string])[] = [
  [ANNOTATIONS.path, ANNOTATIONS.internalPath],
  [ANNOTATIONS.index, ANNOTATIONS.internalIndex],
  [ANNOTATIONS.legacyId, ANNOTATIONS.id],
];

/**
 * Stamps the reader annotations as kyaml's ByteReader does (kustomize kyaml/kio/byteio_reader.go
 * at kyaml/v0.15.0): first the legacy/current pairs are completed from each other (so a missing
 * half is appended right after the existing annotations), then index, path and seqindent are set
 * in key order.
 */
export function stampReaderAnnotations(o: KubeObject, s: ReaderStamp): void {
  if (o.root.kind !== 'mapping') return;
  const style = s.valueStyle ?? '';
  const ann = annotationsNode(o);
  if (ann) {
    for (const [legacy, current] of LEGACY_PAIRS) {
      const l = annotation(o, legacy) ?? '';
      const c = annotation(o, current) ?? '';
      if (c !== '' && l === '') setAnnotations(o, [[legacy, c]], style);
      else if (c === '' && l !== '') setAnnotations(o, [[current, l]], style);
    }
  }
  const index = String(s.index);
  const pairs: [string, string][] = [
    [ANNOTATIONS.index, index],
    [ANNOTATIONS.path, s.path],
    [ANNOTATIONS.internalIndex, index],
  ];
  if (s.packagePath !== undefined) pairs.push([ANNOTATIONS.packagePath, s.packagePath]);
  pairs.push([ANNOTATIONS.internalPath, s.path], [ANNOTATIONS.seqIndent, s.seqIndent]);
  setAnnotations(o, pairs, style);
  lastKnown.set(o, { path: s.path, ipath: s.path, index, iindex: index, packagePath: s.packagePath });
}

/**
 * Sets several string annotations at once (existing values replaced in place, new keys appended
 * in order), creating `metadata.annotations` once if needed. Same result as repeated
 * `setAnnotation`, one lookup of the annotations map.
 */
export function setAnnotations(
  o: KubeObject,
  pairs: readonly (readonly [string, string])[],
  style: NodeStyle = '',
): void {
  let ann = annotationsNode(o);
  if (!ann) {
    o.setAnnotation(pairs[0][0], pairs[0][1]);
    ann = annotationsNode(o);
    if (!ann) return;
    const first = mapGet(ann, pairs[0][0]);
    if (first) first.style = style;
  }
  for (const [k, v] of pairs) {
    const i = mapIndexOf(ann, k);
    if (i >= 0) {
      const n = ann.content[i + 1];
      if (n.kind === 'scalar') {
        n.value = v;
        n.tag = '!!str';
        n.tagged = false;
        continue;
      }
      ann.content[i + 1] = strNode(v, style);
    } else ann.content.push(strNode(k), strNode(v, style));
  }
}

function annotationsNode(o: KubeObject): YNode | undefined {
  const root = o.doc.content[0];
  if (!root || root.kind !== 'mapping') return undefined;
  const meta = mapGet(root, 'metadata');
  if (!meta || meta.kind !== 'mapping') return undefined;
  const ann = mapGet(meta, 'annotations');
  return ann && ann.kind === 'mapping' ? ann : undefined;
}

/** A string annotation, read without allocating (hot path). */
export function annotation(o: KubeObject, key: string): string | undefined {
  const ann = annotationsNode(o);
  if (!ann) return undefined;
  const v = mapGet(ann, key);
  return v && v.kind === 'scalar' && v.tag !== '!!null' ? v.value : undefined;
}

/** The bookkeeping annotations of an item, read in one pass over its annotations (hot path). */
export interface Bookkeeping {
  path: string | undefined;
  ipath: string | undefined;
  index: string | undefined;
  iindex: string | undefined;
  packagePath: string | undefined;
}

/**
 * The bookkeeping values the engine last established for an item (at read time and after each
 * call's post-processing). Between calls nothing but the engine edits items, so the snapshot a
 * call needs can come from here instead of a new scan. Keyed weakly: dropped items go away.
 */
const lastKnown = new WeakMap<KubeObject, Bookkeeping>();

export function rememberBookkeeping(o: KubeObject, bk: Bookkeeping): void {
  lastKnown.set(o, bk);
}

/** The item's bookkeeping as last established by the engine, else read now. */
export function knownBookkeeping(o: KubeObject): Bookkeeping {
  return lastKnown.get(o) ?? bookkeeping(o);
}

export function bookkeeping(o: KubeObject): Bookkeeping {
  const bk: Bookkeeping = {
    path: undefined,
    ipath: undefined,
    index: undefined,
    iindex: undefined,
    packagePath: undefined,
  };
  const ann = annotationsNode(o);
  if (!ann) return bk;
  const c = ann.content;
  for (let i = 0; i + 1 < c.length; i += 2) {
    const v = c[i + 1];
    if (v.kind !== 'scalar' || v.tag === '!!null') continue;
    switch (c[i].value) {
      case ANNOTATIONS.path:
        bk.path ??= v.value;
        break;
      case ANNOTATIONS.internalPath:
        bk.ipath ??= v.value;
        break;
      case ANNOTATIONS.index:
        bk.index ??= v.value;
        break;
      case ANNOTATIONS.internalIndex:
        bk.iindex ??= v.value;
        break;
      case ANNOTATIONS.packagePath:
        bk.packagePath ??= v.value;
        break;
    }
  }
  return bk;
}

export function itemPath(o: KubeObject): string | undefined {
  return annotation(o, ANNOTATIONS.internalPath) ?? annotation(o, ANNOTATIONS.path);
}

export function itemIndex(o: KubeObject): string | undefined {
  return annotation(o, ANNOTATIONS.internalIndex) ?? annotation(o, ANNOTATIONS.index);
}

export function removeAnnotations(o: KubeObject, keys: readonly string[]): void {
  const ann = annotationsNode(o);
  if (!ann) return;
  for (const k of keys) {
    const i = mapIndexOf(ann, k);
    if (i >= 0) ann.content.splice(i, 2);
  }
}

export const ID_KEYS: readonly string[] = [ANNOTATIONS.id, ANNOTATIONS.legacyId];

/** Every bookkeeping annotation the writer removes. */
export const WRITER_STRIPPED: readonly string[] = [
  ANNOTATIONS.path,
  ANNOTATIONS.index,
  ANNOTATIONS.internalPath,
  ANNOTATIONS.internalIndex,
  ANNOTATIONS.seqIndent,
  ANNOTATIONS.packagePath,
  ANNOTATIONS.id,
  ANNOTATIONS.legacyId,
  ANNOTATIONS.migrationId,
  ANNOTATIONS.kptResourceId,
];

/** Removes empty `metadata.annotations` (map, list or null), then an empty `metadata`. */
export function pruneEmptyMetadata(o: KubeObject): void {
  const root = o.doc.content[0];
  if (!root || root.kind !== 'mapping') return;
  const mi = mapIndexOf(root, 'metadata');
  if (mi < 0) return;
  const meta = root.content[mi + 1];
  if (meta.kind === 'mapping') {
    const ai = mapIndexOf(meta, 'annotations');
    if (ai >= 0) {
      const a = meta.content[ai + 1];
      const empty =
        ((a.kind === 'mapping' || a.kind === 'sequence') && a.content.length === 0) ||
        (a.kind === 'scalar' && a.tag === '!!null');
      if (empty) meta.content.splice(ai, 2);
    }
    if (meta.content.length === 0) root.content.splice(mi, 2);
  }
}

/** Strips reader/internal annotations for writing (in place). */
export function stripForWrite(o: KubeObject, keep: readonly string[] = []): void {
  removeAnnotations(o, keep.length ? WRITER_STRIPPED.filter((k) => !keep.includes(k)) : WRITER_STRIPPED);
  pruneEmptyMetadata(o);
}
