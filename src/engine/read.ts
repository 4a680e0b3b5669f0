/**
 * Reading packages as kpt does (kptdev/kpt internal/pkg/pkg.go `LocalResources` over kyaml's
 * LocalPackageReader, v1.0.0-beta.56): Kptfile loading with kpt's messages, the
 * lexical walk that finds direct subpackages and local resource files (honouring `.krmignore`,
 * skipping `.git`), and parsing files into items carrying the reader annotations.
 */
import { KrmfnError, isKrmfnError } from '../core/errors.ts';
import type { PackageFs } from '../core/fs.ts';
import { checkKptfileVersion, decodeKptfile, formatUnmarshalErrors, type Kptfile } from '../core/kptfile.ts';
import { DEFAULT_KPT_VERSION, type KptVersion } from '../core/kpt-version.ts';
import { KubeObject } from '../core/kube-object.ts';
import type { Limits } from '../core/limits.ts';
import { mapGet, mappingNode, strNode, documentNode, type NodeStyle } from '../core/yaml/node.ts';
import { parseYamlFile } from '../core/yaml/index.ts';
import { stampReaderAnnotations } from './annotations.ts';
import { NO_IGNORES, parseKrmignore, type IgnoreMatcher } from './krmignore.ts';
import { join } from './paths.ts';
import { decodeUtf8Strict } from '../core/utf8.ts';

export const KPTFILE = 'Kptfile';
/** kyaml's key for wrapping a top-level sequence document into a mapping. */
export const BARE_SEQ_KEY = 'bareSeqNodeWrappingKey';

const dec = new TextDecoder();

export function isResourceFileName(name: string): boolean {
  return name === KPTFILE || name.endsWith('.yaml') || name.endsWith('.yml') || name.endsWith('.json');
}

/** Reads and strictly decodes `<dir>/Kptfile` against kpt `version`'s schema. Errors carry kpt's resolver texts. */
export async function loadKptfile(
  fs: PackageFs,
  dir: string,
  limits: Limits,
  version: KptVersion = DEFAULT_KPT_VERSION,
): Promise<Kptfile> {
  const file = join(dir, KPTFILE);
  const unreadable = (details: string): KrmfnError =>
    new KrmfnError({
      code: 'kptfile-unreadable',
      message: `Kptfile at ${JSON.stringify(dir)} can't be read.\n\nDetails:\n${details}`,
      file,
    });
  // A file given as the package: kpt's open of `<file>/Kptfile` fails with ENOTDIR.
  if ((await fs.stat(dir)) === 'file') throw unreadable(`open ${file}: not a directory`);
  if ((await fs.stat(file)) !== 'file') {
    throw new KrmfnError({ code: 'kptfile-missing', message: `No Kptfile found at ${JSON.stringify(dir)}.`, file });
  }
  let text: string;
  try {
    text = dec.decode(await fs.readFile(file));
  } catch (e) {
    throw unreadable(isKrmfnError(e) ? e.message : String(e));
  }
  let doc;
  try {
    doc = parseYamlFile(text, { file: KPTFILE, limits }).docs[0];
  } catch (e) {
    throw unreadable(isKrmfnError(e) ? e.message : String(e));
  }
  const root = doc?.content[0];
  const scalarAt = (k: string): string => {
    const v = root && root.kind === 'mapping' ? mapGet(root, k) : undefined;
    return v && v.kind === 'scalar' && v.tag !== '!!null' ? v.value : '';
  };
  const versionProblem = checkKptfileVersion(scalarAt('apiVersion'), scalarAt('kind'), dir, version);
  if (versionProblem) throw new KrmfnError({ code: 'kptfile-version', message: versionProblem, file });
  const decoded = decodeKptfile(doc ?? documentNode(undefined), version);
  if (!decoded.ok) throw unreadable(formatUnmarshalErrors(decoded.errors));
  return decoded.kptfile;
}

export interface PackageScan {
  /** Direct subpackage directories (absolute), in walk order (callers sort by display path). */
  subpackages: string[];
  /** Resource files of this package, paths relative to the package, in walk order. */
  files: string[];
}

async function loadIgnores(fs: PackageFs, dir: string): Promise<IgnoreMatcher> {
  const p = join(dir, '.krmignore');
  if ((await fs.stat(p)) !== 'file') return NO_IGNORES;
  return parseKrmignore(dec.decode(await fs.readFile(p)), p);
}

/**
 * Walks `dir` in lexical order. With `stopAtSubpackages`, directories holding a Kptfile are
 * recorded as subpackages and not entered (render); without, the whole tree is one list (eval,
 * source), and inside a nested package only that package's own `.krmignore` applies, to paths
 * relative to it, while the directory itself is matched by the enclosing package's (kyaml's
 * LocalPackageReader keeps one ignore matcher per package; checked with the real kpt:
 * test/e2e/cases/krmignore-nested-packages).
 */
export async function scanPackage(fs: PackageFs, dir: string, stopAtSubpackages: boolean): Promise<PackageScan> {
  const scan: PackageScan = { subpackages: [], files: [] };
  const walk = async (abs: string, rel: string, ignores: IgnoreMatcher, base: string): Promise<void> => {
    for (const e of await fs.readDir(abs)) {
      const childRel = rel ? `${rel}/${e.name}` : e.name;
      const childAbs = `${abs === '/' ? '' : abs}/${e.name}`;
      const local = childRel.slice(base.length);
      if (e.kind === 'dir') {
        if (e.name === '.git') continue;
        const isPackage = (await fs.stat(join(childAbs, KPTFILE))) === 'file';
        if (stopAtSubpackages && isPackage) {
          scan.subpackages.push(childAbs);
          continue;
        }
        if (ignores.ignores(local, true)) continue;
        if (isPackage) await walk(childAbs, childRel, await loadIgnores(fs, childAbs), `${childRel}/`);
        else await walk(childAbs, childRel, ignores, base);
      } else if (e.kind === 'file' || e.kind === 'symlink-file') {
        if (!isResourceFileName(e.name) || ignores.ignores(local, false)) continue;
        scan.files.push(childRel);
      }
    }
  };
  await walk(dir, '', await loadIgnores(fs, dir), '');
  return scan;
}

/**
 * Parses one resource file into items with reader annotations. `packagePath` is stamped when
 * given (render). Top-level sequences are wrapped under kyaml's `bareSeqNodeWrappingKey`.
 */
export function parseResourceFile(
  text: string,
  relPath: string,
  limits: Limits,
  packagePath?: string,
  valueStyle?: NodeStyle,
): KubeObject[] {
  const parsed = parseYamlFile(text, { file: relPath, limits });
  return parsed.docs.map((doc, index) => {
    const root = doc.content[0];
    if (root && root.kind === 'sequence') {
      const wrapper = mappingNode([strNode(BARE_SEQ_KEY), root]);
      wrapper.headComment = root.headComment;
      root.headComment = '';
      doc.content[0] = wrapper;
    }
    const o = new KubeObject(doc);
    const stamp = {
      path: relPath,
      index,
      seqIndent: parsed.seqIndent[index] ?? 'compact',
      ...(valueStyle !== undefined ? { valueStyle } : {}),
    };
    stampReaderAnnotations(o, packagePath !== undefined ? { ...stamp, packagePath } : stamp);
    return o;
  });
}

/**
 * Reads and parses one resource file; returns the items and the file's bytes. Errors are worded as
 * kpt's (kyaml's LocalPackageReader): `/abs/pkg/x.yaml: open /abs/pkg/x.yaml: too many levels of
 * symbolic links`, `/abs/pkg/x.yaml: MalformedYAMLError: yaml: invalid leading UTF-8 octet`.
 */
export async function readResourceFile(
  fs: PackageFs,
  dir: string,
  relPath: string,
  limits: Limits,
  packagePath?: string,
  valueStyle?: NodeStyle,
): Promise<{ items: KubeObject[]; bytes: Uint8Array }> {
  const abs = join(dir, relPath);
  const failed = (message: string, e?: unknown): KrmfnError =>
    new KrmfnError({
      ...(isKrmfnError(e) ? e.toData() : { code: 'package-io' as const }),
      message: `${abs}: ${message}`,
      file: relPath,
      cause: e,
    });
  let bytes: Uint8Array;
  try {
    bytes = await fs.readFile(abs);
  } catch (e) {
    throw failed(isKrmfnError(e) ? e.message : String(e), e);
  }
  if (bytes.length > limits.maxInputBytes) {
    throw new KrmfnError({
      code: 'yaml-size-limit',
      message: `${abs}: file is ${bytes.length} bytes, more than the limit of ${limits.maxInputBytes} bytes`,
      file: relPath,
    });
  }
  const decoded = decodeUtf8Strict(bytes);
  if ('problem' in decoded) {
    throw new KrmfnError({
      code: 'yaml-syntax',
      message: `${abs}: MalformedYAMLError: yaml: ${decoded.problem}`,
      file: relPath,
    });
  }
  try {
    return { items: parseResourceFile(decoded.text, relPath, limits, packagePath, valueStyle), bytes };
  } catch (e) {
    if (isKrmfnError(e) && (e.code === 'yaml-syntax' || e.code === 'yaml-duplicate-key')) {
      // kyaml's reader: the file's absolute path, then ByteReader's MalformedYAMLError prefix
      // (kustomize kyaml/kio/pkgio_reader.go and byteio_reader.go at kyaml/v0.15.0).
      throw new KrmfnError({
        ...e.toData(),
        message: `${abs}: MalformedYAMLError: ${e.message}`,
        file: relPath,
        cause: e,
      });
    }
    if (isKrmfnError(e)) {
      const msg = e.message.startsWith(`${relPath}: `) ? e.message.slice(relPath.length + 2) : e.message;
      throw failed(msg.startsWith('yaml: ') ? `MalformedYAMLError: ${msg}` : msg, e);
    }
    throw e;
  }
}

/** Reads in flight at once: enough to keep the file system busy, far below any open-file limit. */
const READS_IN_FLIGHT = 64;

/**
 * `readResourceFile` over many files, results in the order given. At most READS_IN_FLIGHT files
 * are open at a time: one read per file at once failed with EMFILE past the process's open-file
 * limit (28,897 files of a 50 MB package against a limit of 20,000). The first failure rejects,
 * and no new read starts after it.
 */
export async function readResourceFiles(
  fs: PackageFs,
  dir: string,
  relPaths: readonly string[],
  limits: Limits,
  packagePath?: string,
  valueStyle?: NodeStyle,
): Promise<{ items: KubeObject[]; bytes: Uint8Array }[]> {
  const out = new Array<{ items: KubeObject[]; bytes: Uint8Array }>(relPaths.length);
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < relPaths.length) {
      const i = next++;
      try {
        out[i] = await readResourceFile(fs, dir, relPaths[i], limits, packagePath, valueStyle);
      } catch (e) {
        failed = true;
        throw e;
      }
    }
  };
  const workers: Promise<void>[] = [];
  for (let w = 0; w < Math.min(READS_IN_FLIGHT, relPaths.length); w++) workers.push(worker());
  await Promise.all(workers);
  return out;
}
