/**
 * Where the running krmfn package is on disk: the nearest directory above this module whose
 * package.json is named "krmfn" (the clone when run from sources or its build, the installed
 * package when run from node_modules). `krmfn build` bundles the SDK from it and `krmfn init`
 * points new projects at it.
 */
import { existsSync, readFileSync } from 'node:fs';
import * as nodePath from 'node:path';
import { fileURLToPath } from 'node:url';

/** The krmfn package root (the directory whose package.json is named "krmfn"). */
export function krmfnRoot(): string {
  let dir = nodePath.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = nodePath.join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        const name = (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name;
        if (name === 'krmfn') return dir;
      } catch {
        // keep walking up
      }
    }
    const up = nodePath.dirname(dir);
    if (up === dir) throw new Error('cannot locate the krmfn package root');
    dir = up;
  }
}
