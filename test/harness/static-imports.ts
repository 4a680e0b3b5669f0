/**
 * The static import closure of a source file (relative imports, `import type` skipped): what
 * evaluating that module evaluates, for the tests that check start-up loads only what a command
 * needs (test/cli/lazy-commands.test.ts, test/cli/lazy-runtimes.test.ts).
 */
import { readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');
const STATIC_IMPORT = /(?:^|\n)\s*(?:(?:import|export)\s[^'"]*?from\s*|import\s*)['"](\.{1,2}\/[^'"]+)['"]/g;

export function staticClosure(entry: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const src = readFileSync(join(ROOT, file), 'utf8');
    for (const m of src.matchAll(STATIC_IMPORT)) {
      if (/^\s*(?:import|export)\s+type\s/.test(m[0].trim())) continue;
      visit(relative(ROOT, normalize(join(ROOT, dirname(file), m[1]))));
    }
  };
  visit(entry);
  return seen;
}
