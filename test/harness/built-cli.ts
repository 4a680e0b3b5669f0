/**
 * The built CLI that process-level tests run (`bin/krmfn.mjs` over `dist/`): `ensureBuilt()` runs
 * `scripts/build.mjs` once when `dist/` lacks the CLI or the serve worker (`npm test` builds
 * first; a single test file run by hand may not have).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';

const repo = path.resolve(import.meta.dirname, '../..');

export function ensureBuilt(): void {
  if (existsSync(path.join(repo, 'dist/cli.js')) && existsSync(path.join(repo, 'dist/serve-worker.js'))) return;
  const b = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: repo, encoding: 'utf8' });
  if (b.status !== 0) throw new Error(`build failed: ${b.stderr}`);
}
