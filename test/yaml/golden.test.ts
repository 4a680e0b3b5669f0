// Data-driven golden test: every test/yaml/cases/<name>.in.yaml is parsed and emitted and must
// equal <name>.out.yaml byte for byte; <name>.err.txt instead holds the expected error message.
// The goldens were written by the real kpt (see gen-golden.mjs).
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { emitYamlFile, parseYamlFile } from '../../src/core/yaml/index.ts';

const dir = new URL('./cases/', import.meta.url).pathname;
const names = readdirSync(dir)
  .filter((f) => f.endsWith('.in.yaml'))
  .map((f) => f.slice(0, -'.in.yaml'.length))
  .sort();

describe('kpt pure writer goldens', () => {
  for (const name of names) {
    const input = readFileSync(`${dir}${name}.in.yaml`, 'utf8');
    if (existsSync(`${dir}${name}.out.yaml`)) {
      it(name, () => {
        const f = parseYamlFile(input, { file: `${name}.yaml` });
        expect(emitYamlFile(f.docs, f.seqIndent)).toBe(readFileSync(`${dir}${name}.out.yaml`, 'utf8'));
      });
    } else if (existsSync(`${dir}${name}.err.txt`)) {
      it(`${name} (error)`, () => {
        const want = readFileSync(`${dir}${name}.err.txt`, 'utf8').trim();
        let message = '';
        try {
          parseYamlFile(input, { file: `${name}.yaml` });
        } catch (e) {
          message = (e as Error).message;
        }
        expect(message).toBe(want);
      });
    }
  }
});
