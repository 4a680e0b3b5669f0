/**
 * `krmfn render --watch`: render the package, then again after each change under it, until
 * interrupted (SIGINT/SIGTERM end it with status 0). Changes are collected until the tree has been
 * quiet for a moment (debounced), from a recursive watch of the package directory; paths a
 * `.krmignore` of the package or of a subpackage ignores (src/engine/krmignore.ts), `.git` and
 * `node_modules` never trigger a run, nor do the files a run itself wrote (a changed file is
 * compared with its content after the last run). Each run prints kpt's render output on stderr
 * and the changes it made as a unified diff on stdout, then `watching DIR for changes` on stderr.
 */
import { watch, promises as fsp } from 'node:fs';
import * as nodePath from 'node:path';
import { unifiedDiff } from '../../core/diff.ts';
import { parseKrmignore } from '../../engine/krmignore.ts';
import { write, type CliIO } from '../io.ts';

/** Quiet time after the last change before a run starts. */
const DEBOUNCE_MS = 150;
const NEVER_WATCHED = new Set(['.git', 'node_modules']);

export type RenderOnce = () => Promise<number>;

/** Every file under `root` (but .git and node_modules) with its text. */
async function snapshot(root: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (dir: string): Promise<void> => {
    const entries = await fsp.readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      if (NEVER_WATCHED.has(e.name)) continue;
      const p = nodePath.join(dir, e.name);
      if (e.isDirectory()) await walk(p);
      else if (e.isFile()) out.set(p, await fsp.readFile(p, 'utf8').catch(() => ''));
    }
  };
  await walk(root);
  return out;
}

/** The unified diff between two snapshots, paths shown relative to the package's parent (as --diff). */
function snapshotDiff(root: string, before: Map<string, string>, after: Map<string, string>): string {
  const base = nodePath.dirname(root);
  const paths = [...new Set([...before.keys(), ...after.keys()])].sort();
  return paths
    .filter((p) => before.get(p) !== after.get(p))
    .map((p) => unifiedDiff(nodePath.relative(base, p), before.get(p), after.get(p)))
    .join('');
}

/** Whether a `.krmignore` between `root` and the changed path (or NEVER_WATCHED) excludes it. */
async function ignored(root: string, abs: string): Promise<boolean> {
  const rel = nodePath.relative(root, abs);
  const parts = rel.split(nodePath.sep);
  if (rel.startsWith('..') || parts.some((p) => NEVER_WATCHED.has(p))) return true;
  for (let i = 0; i < parts.length; i++) {
    const dir = nodePath.join(root, ...parts.slice(0, i));
    const text = await fsp.readFile(nodePath.join(dir, '.krmignore'), 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    const matcher = parseKrmignore(text);
    // kyaml's walk skips an ignored directory: any ignored ancestor ignores the path.
    for (let j = i + 1; j <= parts.length; j++) {
      if (matcher.ignores(parts.slice(i, j).join('/'), j < parts.length)) return true;
    }
  }
  return false;
}

export async function watchRender(root: string, io: CliIO, renderOnce: RenderOnce): Promise<number> {
  let last = await snapshot(root);
  const runOnce = async (): Promise<void> => {
    const before = await snapshot(root);
    await renderOnce();
    last = await snapshot(root);
    const diff = snapshotDiff(root, before, last);
    if (diff) await write(io.stdout, diff);
    await write(io.stderr, `watching ${nodePath.relative(io.cwd, root) || '.'} for changes (Ctrl-C to stop)\n`);
  };
  const pending = new Set<string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<void> = Promise.resolve();
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = resolve));

  /** Runs once if a pending path's content differs from what the last run left. */
  const settle = (): void => {
    const paths = [...pending];
    pending.clear();
    running = running.then(async () => {
      let changed = false;
      for (const p of paths) {
        if (await ignored(root, p)) continue;
        const now = await fsp.readFile(p, 'utf8').catch(() => undefined);
        if (now !== last.get(p)) changed = true;
      }
      if (changed) await runOnce();
    });
  };

  const watcher = watch(root, { recursive: true }, (_event, name) => {
    if (name === null) return;
    pending.add(nodePath.join(root, name.toString()));
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(settle, DEBOUNCE_MS);
  });
  watcher.on('error', () => stop());
  // The watch starts before the first run, so a file saved as soon as the first `watching` line is
  // out is never missed; events of the first run's own writes queue behind it and compare equal.
  running = runOnce();
  await running;
  const onSignal = (): void => stop();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  await stopped;
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  if (timer !== undefined) clearTimeout(timer);
  watcher.close();
  await running;
  return 0;
}
