// Limits enforced while the YAML is read (src/core/yaml/parser.ts, parse.ts), not after: hostile
// input ends with a limit error naming file and line, without building the hostile structure.
import { describe, expect, it } from 'vitest';
import { parseYamlFile } from '../../src/core/yaml/index.ts';

function errorOf(f: () => unknown): { code?: string; message?: string; file?: string; line?: number } {
  try {
    f();
  } catch (e) {
    return e as { code?: string; message?: string };
  }
  return {};
}

describe('depth is checked while parsing', () => {
  it('9 MB of "[" fails with yaml-depth-limit at line 1 of the file', () => {
    const e = errorOf(() => parseYamlFile('['.repeat(9_000_000), { file: 'bomb.yaml' }));
    expect(e).toMatchObject({ code: 'yaml-depth-limit', file: 'bomb.yaml', line: 1 });
    expect(e.message).toBe('YAML nesting deeper than 1000 levels');
  });

  it('millions of "- " fail with yaml-depth-limit', () => {
    const e = errorOf(() => parseYamlFile(`kind: x\nitems:\n${'- '.repeat(3_000_000)}x\n`, { file: 'seq.yaml' }));
    expect(e).toMatchObject({ code: 'yaml-depth-limit', file: 'seq.yaml', line: 3 });
  });

  it('deep flow mappings over many lines report the line where the limit was crossed', () => {
    // Indented: at column 0 the first `{` would be a key with no ':' (go-yaml and kpt say so).
    const text = 'a:\n  ' + '{b:\n'.repeat(200_000);
    const e = errorOf(() => parseYamlFile(text, { file: 'f.yaml', limits: { maxDepth: 100 } }));
    expect(e.code).toBe('yaml-depth-limit');
    expect(e.line).toBeGreaterThan(90);
    expect(e.line).toBeLessThan(110);
  });

  it('the early check never fires before the exact one: the limit is still exact', () => {
    const limits = { maxDepth: 50 };
    // a: is depth 1, each [ one more; the innermost [] has no scalar below it.
    expect(parseYamlFile(`a: ${'['.repeat(49)}${']'.repeat(49)}\n`, { limits }).docs).toHaveLength(1);
    expect(errorOf(() => parseYamlFile(`a: ${'['.repeat(50)}${']'.repeat(50)}\n`, { limits })).code).toBe(
      'yaml-depth-limit',
    );
    // "- a:" lines nest a sequence and a mapping each; the scalar 1 is one level more.
    const seqOfMaps = (n: number): string =>
      Array.from({ length: n }, (_, i) => `${' '.repeat(2 * i)}- a:`).join('\n') + ' 1\n';
    expect(parseYamlFile(seqOfMaps(24), { limits }).docs).toHaveLength(1);
    expect(errorOf(() => parseYamlFile(seqOfMaps(25), { limits })).code).toBe('yaml-depth-limit');
  });
});

describe('document count', () => {
  it('more documents than maxDocuments fail with the line of the first one over', () => {
    const text = 'a: 1\n---\n'.repeat(11);
    const e = errorOf(() => parseYamlFile(text, { file: 'many.yaml', limits: { maxDocuments: 10 } }));
    expect(e).toMatchObject({ code: 'yaml-size-limit', file: 'many.yaml', line: 21 });
    expect(e.message).toBe('YAML input holds more than 10 documents');
  });

  it('empty pieces between separators do not count', () => {
    const text = '---\n---\n---\na: 1\n';
    expect(parseYamlFile(text, { limits: { maxDocuments: 1 } }).docs).toHaveLength(1);
  });
});

describe('alias expansion', () => {
  it('an alias bomb fails with yaml-alias-limit naming file and line', () => {
    const lines = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 8; i++) {
      const prev = String.fromCharCode(96 + i);
      const name = String.fromCharCode(97 + i);
      lines.push(`${name}: &${name} [${Array(10).fill(`*${prev}`).join(', ')}]`);
    }
    const e = errorOf(() => parseYamlFile(lines.join('\n') + '\n', { file: 'lol.yaml' }));
    expect(e.code).toBe('yaml-alias-limit');
    expect(e.file).toBe('lol.yaml');
    expect(e.line).toBeGreaterThan(0);
  });
});
