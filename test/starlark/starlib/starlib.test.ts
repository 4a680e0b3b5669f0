// The starlib modules of the KRM starlark function (src/runtimes/starlark/modules.ts), loaded under
// the catalog's module names, against the chunked .star cases in this directory (the same harness
// as test/starlark/suite). Expected values follow qri-io/starlib v0.5.0 and the Go libraries it
// uses (gopkg.in/yaml.v2 v2.4.0, encoding/base64, encoding/csv, regexp).
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { formatChunk, runTestFile } from '../../../src/starlark/testing/index.ts';
import { HARNESS_MODULES } from '../../../src/starlark/testing/modules.ts';
import { krmLoader } from '../../../src/runtimes/starlark/modules.ts';

const DIR = fileURLToPath(new URL('./', import.meta.url));
const load = krmLoader({ now: () => 0 });

/** Every module the catalog loader serves, plus the harness's own. */
function modules(): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = { ...HARNESS_MODULES };
  for (const name of [
    'encoding/json.star',
    'encoding/yaml.star',
    'encoding/base64.star',
    'encoding/csv.star',
    'hash.star',
    're.star',
    'math.star',
    'time.star',
    'krmfn.star',
  ])
    out[name] = load(name);
  return out;
}

for (const file of readdirSync(DIR)
  .filter((f) => f.endsWith('.star'))
  .sort()) {
  const outcome = runTestFile(file, readFileSync(join(DIR, file), 'utf8'), {
    modules: modules() as never,
  });
  describe(file, () => {
    for (const c of outcome.chunks) {
      it(`${c.chunk.startLine}: ${c.title}`, () => {
        expect(c.status === 'fail' ? formatChunk(c) : '').toBe('');
      });
    }
  });
}
