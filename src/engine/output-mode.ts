/**
 * The `-o` output modes as render and eval share them (docs/kpt-semantics.md, "Writing"): a `dir`
 * output must not exist yet (kpt's message and code `output-exists`), `stdout` and `unwrap` turn
 * the items into text, and the file modes plan their writes over what the run read (in place) or
 * into the new directory; `writtenPaths` names the files whose bytes the plan changes. The writes
 * themselves are src/engine/write.ts.
 */
import { KrmfnError } from '../core/errors.ts';
import type { PackageFs } from '../core/fs.ts';
import type { KubeObject } from '../core/kube-object.ts';
import type { OutputMode } from './types.ts';
import { emitStdout, emitUnwrap, planWrite, type WritePlan } from './write.ts';

/** Fails with kpt's `output-exists` error when `-o DIR` names something that exists. */
export async function checkOutputAbsent(fs: PackageFs, output: OutputMode): Promise<void> {
  if (output.kind === 'dir' && (await fs.stat(output.dir)) !== 'missing') {
    throw new KrmfnError({
      code: 'output-exists',
      message: `directory ${JSON.stringify(output.dir)} already exists, please delete the directory and retry`,
    });
  }
}

/** The text of the `stdout` and `unwrap` modes; undefined for the modes that write files. */
export function outputText(output: OutputMode, items: readonly KubeObject[]): string | undefined {
  if (output.kind === 'stdout') return emitStdout(items);
  if (output.kind === 'unwrap') return emitUnwrap(items);
  return undefined;
}

/** The write plan of a file mode: over the files read from `root` (in place) or into the new directory. */
export function planOutput(
  fs: PackageFs,
  output: Extract<OutputMode, { kind: 'in-place' | 'dir' }>,
  items: readonly KubeObject[],
  root: string,
  read: { readFiles: string[]; originals: Map<string, Uint8Array> },
): Promise<WritePlan> {
  return planWrite(fs, items, {
    root: output.kind === 'dir' ? output.dir : root,
    readFiles: output.kind === 'dir' ? [] : read.readFiles,
    originals: read.originals,
  });
}

/** Absolute paths the plan writes with bytes other than what was read. */
export function writtenPaths(plan: WritePlan, originals: ReadonlyMap<string, Uint8Array>): string[] {
  return [...plan.writes].filter(([p, d]) => originals.get(p) !== d).map(([p]) => p);
}
