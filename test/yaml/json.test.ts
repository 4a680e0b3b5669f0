// The `.json` writer (§4.8): each test/yaml/json-cases/<name>.in.json must come out exactly as kpt
// wrote it (<name>.out.json): encoding/json, 2-space indent, keys sorted, HTML-safe escapes.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { emitJsonFile, parseYamlFile } from '../../src/core/yaml/index.ts';

const dir = new URL('./json-cases/', import.meta.url).pathname;
const names = readdirSync(dir)
  .filter((f) => f.endsWith('.in.json'))
  .map((f) => f.slice(0, -'.in.json'.length));

describe('JSON files as kpt writes them', () => {
  for (const name of names) {
    it(name, () => {
      const f = parseYamlFile(readFileSync(`${dir}${name}.in.json`, 'utf8'));
      expect(f.docs).toHaveLength(1);
      expect(emitJsonFile(f.docs[0])).toBe(readFileSync(`${dir}${name}.out.json`, 'utf8'));
    });
  }

  it('an infinite float cannot be written', () => {
    const f = parseYamlFile('a: .inf\n');
    expect(() => emitJsonFile(f.docs[0])).toThrow(/unsupported value/);
  });
});
