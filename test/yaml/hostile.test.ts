// Hostile input: the parser must fail with a limit error (never hang, blow up memory or overflow
// the JS stack), and keep what go-yaml keeps.
import { describe, expect, it } from 'vitest';
import { emitYamlFile, parseYamlFile } from '../../src/core/yaml/index.ts';

function errorOf(f: () => unknown): { code?: string; message?: string } {
  try {
    f();
  } catch (e) {
    return e as { code?: string; message?: string };
  }
  return {};
}

const BILLION_LAUGHS = `apiVersion: v1
kind: ConfigMap
metadata:
  name: lol
a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]
`;

describe('hostile YAML', () => {
  it('billion laughs fails with yaml-alias-limit', () => {
    const e = errorOf(() => parseYamlFile(BILLION_LAUGHS));
    expect(e.code).toBe('yaml-alias-limit');
  });

  it('a few aliases are fine and written back as aliases', () => {
    const text = 'a: &a [x, y]\nb: *a\nc: *a\n';
    const f = parseYamlFile(text);
    expect(emitYamlFile(f.docs, f.seqIndent)).toBe(text);
  });

  it('the alias limit is configurable', () => {
    const text = 'a: &a [x]\nb: [*a, *a, *a]\n';
    expect(errorOf(() => parseYamlFile(text, { limits: { maxAliases: 2 } })).code).toBe('yaml-alias-limit');
    expect(parseYamlFile(text, { limits: { maxAliases: 3 } }).docs).toHaveLength(1);
  });

  it('10,000-deep flow nesting fails with yaml-depth-limit', () => {
    const text = 'a: ' + '['.repeat(10_000) + ']'.repeat(10_000) + '\n';
    expect(errorOf(() => parseYamlFile(text)).code).toBe('yaml-depth-limit');
  });

  it('10,000-deep block nesting fails with yaml-depth-limit', () => {
    const text = 'a:\n' + '- '.repeat(10_000) + 'x\n';
    expect(errorOf(() => parseYamlFile(text)).code).toBe('yaml-depth-limit');
  });

  it('10,000-deep nesting does not overflow the stack even with the depth limit lifted', () => {
    const text = 'a: ' + '['.repeat(10_000) + ']'.repeat(10_000) + '\n';
    const e = errorOf(() => parseYamlFile(text, { limits: { maxDepth: 1e9 } }));
    expect(e.code === undefined || e.code === 'yaml-depth-limit').toBe(true);
  });

  it('nesting within the limit parses', () => {
    const text = 'a: ' + '['.repeat(500) + ']'.repeat(500) + '\n';
    const f = parseYamlFile(text);
    expect(emitYamlFile(f.docs, f.seqIndent)).toBe(text);
  });

  it('input over the configured size limit fails before parsing', () => {
    const big = 'a: b\n'.repeat(10_000_000); // 50 MB
    const e = errorOf(() => parseYamlFile(big, { limits: { maxInputBytes: 10_000_000 } }));
    expect(e.code).toBe('yaml-size-limit');
    expect(e.message).toMatch(/exceeds the limit of 10000000 bytes/);
  });

  it('duplicate keys are kept, like kyaml', () => {
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: d\na: 1\na: 2\n';
    const f = parseYamlFile(text);
    expect(emitYamlFile(f.docs, f.seqIndent)).toBe(text);
  });

  it('tabs as indentation fail as in go-yaml', () => {
    const e = errorOf(() => parseYamlFile('a:\n\tb: 1\n', { file: 'x.yaml' }));
    expect(e).toMatchObject({
      code: 'yaml-syntax',
      message: 'yaml: line 2: found character that cannot start any token',
      file: 'x.yaml',
      line: 2,
    });
  });

  it('a tab after a colon or inside a value is fine', () => {
    const f = parseYamlFile('a:\tb\nc: "x\ty"\n');
    expect(emitYamlFile(f.docs, f.seqIndent)).toBe('a: b\nc: "x\\ty"\n');
  });
});
