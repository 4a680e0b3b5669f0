// Shared by the suite tests: the .star files of test/starlark/suite and the known-failures list.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, relative } from 'node:path';

export const REPO = fileURLToPath(new URL('../../../', import.meta.url));
export const SUITE_DIR = join(REPO, 'test/starlark/suite');

export function suiteFiles(): string[] {
  return readdirSync(SUITE_DIR)
    .filter((f) => f.endsWith('.star'))
    .sort();
}

/** Path as the runner sees it (repo-relative, so messages are short and stable). */
export function suitePath(name: string): string {
  return relative(REPO, join(SUITE_DIR, name));
}

export function readRepoFile(path: string): string | null {
  const abs = join(REPO, path);
  return existsSync(abs) ? readFileSync(abs, 'utf8') : null;
}

export function knownFailures(): Map<string, string> {
  const raw = JSON.parse(readFileSync(join(SUITE_DIR, 'known-failures.json'), 'utf8')) as Record<string, string>;
  return new Map(Object.entries(raw).filter(([k]) => k !== '//'));
}
