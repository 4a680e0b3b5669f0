// The function boundary (§7): for every golden input whose resources kpt could send to a function,
// (1) the real ResourceList round trip built from our parse/emit must equal what kpt wrote after an
// identity exec function (<name>.fn.yaml), and (2) normalizeAfterFunction must give the same bytes
// as that real round trip with each resource alone in its list.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { emitYamlFile, normalizeAfterFunction, parseYamlFile } from '../../src/core/yaml/index.ts';
import { throughResourceList } from './resource-list.ts';

const dir = new URL('./cases/', import.meta.url).pathname;
const names = readdirSync(dir)
  .filter((f) => f.endsWith('.in.yaml'))
  .map((f) => f.slice(0, -'.in.yaml'.length))
  .filter((n) => existsSync(`${dir}${n}.out.yaml`))
  .sort();

describe('ResourceList round trip matches kpt after an identity function', () => {
  for (const name of names.filter((n) => existsSync(`${dir}${n}.fn.yaml`))) {
    it(name, () => {
      const f = parseYamlFile(readFileSync(`${dir}${name}.in.yaml`, 'utf8'));
      const out = emitYamlFile(throughResourceList(f), f.seqIndent);
      expect(out).toBe(readFileSync(`${dir}${name}.fn.yaml`, 'utf8'));
    });
  }
});

describe('normalizeAfterFunction equals the real round trip', () => {
  for (const name of names) {
    it(name, () => {
      const input = readFileSync(`${dir}${name}.in.yaml`, 'utf8');
      const real = emitYamlFile(throughResourceList(parseYamlFile(input), 'alone'), parseYamlFile(input).seqIndent);
      const f = parseYamlFile(input);
      for (const d of f.docs) normalizeAfterFunction(d);
      expect(emitYamlFile(f.docs, f.seqIndent)).toBe(real);
    });
  }
});
