/**
 * Regular expressions users write in function configs and Kptfiles run on Go's regexp semantics
 * (src/core/go-regexp.ts): Go syntax works, invalid patterns fail with Go's message, and
 * pathological patterns finish (no backtracking).
 */
import { describe, expect, it } from 'vitest';
import { isValidImageReference } from '../../src/core/kptfile.ts';
import { validateSchema } from '../../sdk/index.ts';
import { pathMatch } from '../../builtins/search-replace.ts';
import { runBuiltin } from './run-builtin.ts';

const SR = 'gcr.io/kpt-fn/search-replace:v0.2.0';
const cm = (data: Record<string, string>): string =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: fn-config\ndata:\n${Object.entries(data)
    .map(([k, v]) => `  ${k}: ${JSON.stringify(v)}`)
    .join('\n')}\n`;

const configMap = (value: string): string => `apiVersion: v1
kind: ConfigMap
metadata:
  name: target
  annotations:
    config.kubernetes.io/path: cm.yaml
data:
  key: ${JSON.stringify(value)}
`;

describe('search-replace by-value-regex', () => {
  it('accepts Go syntax: (?i), named groups, \\z, \\Q…\\E', async () => {
    const r = await runBuiltin(
      SR,
      configMap('Image-V1.2'),
      cm({ 'by-value-regex': '(?i)^image-(?P<major>v1)\\Q.\\E(\\d)\\z', 'put-value': 'img-${1}-${2}' }),
    );
    expect(r.exitCode).toBe(0);
    expect(r.output).toContain('key: "img-V1-2"');
  });

  it('expands a group that did not take part as empty, as Go FindStringSubmatch does', async () => {
    const r = await runBuiltin(SR, configMap('abc'), cm({ 'by-value-regex': 'a(x)?bc', 'put-value': '[${1}]' }));
    expect(r.exitCode).toBe(0);
    expect(r.output).toContain('key: "[]"');
  });

  it('fails with Go error text for an invalid pattern', async () => {
    const r = await runBuiltin(SR, configMap('abc'), cm({ 'by-value-regex': '(a', 'put-value': 'x' }));
    expect(r.exitCode).toBe(1);
    expect(r.results[0]).toMatchObject({
      message: 'failed to perform search-replace operation: "error parsing regexp: missing closing ): `(a`"',
      severity: 'error',
    });
  });

  it('rejects JavaScript-only syntax that Go rejects (lookahead)', async () => {
    const r = await runBuiltin(SR, configMap('abc'), cm({ 'by-value-regex': 'a(?=b)' }));
    expect(r.results[0].message).toBe(
      'failed to perform search-replace operation: "error parsing regexp: invalid or unsupported Perl syntax: `(?=`"',
    );
  });

  it('finishes a pathological pattern on a long value', async () => {
    const r = await runBuiltin(SR, configMap('a'.repeat(20_000) + 'b'), cm({ 'by-value-regex': '^(a|a?)+$' }));
    expect(r.exitCode).toBe(0);
    expect(r.results).toEqual([{ message: 'no matches' }]);
  });

  it('finishes a by-path segment with many wildcards on a long key', async () => {
    const key = 'a'.repeat(60);
    const item = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: t\n  annotations:\n    config.kubernetes.io/path: t.yaml\ndata:\n  ${key}: v\n`;
    const r = await runBuiltin(SR, item, cm({ 'by-path': `data.${'*a'.repeat(12)}*c` }));
    expect(r.results).toEqual([{ message: 'no matches' }]);
  });
});

describe('search-replace by-path', () => {
  it('finishes many ** segments against a deep path', () => {
    const path = Array.from({ length: 60 }, (_, i) => `s${i}`).join('.');
    expect(pathMatch(`${'**.'.repeat(15)}nope`, path)).toBe(false);
    expect(pathMatch(`${'**.'.repeat(15)}s59`, path)).toBe(true);
  });
});

describe('search-replace by-file-path', () => {
  it('reports a malformed glob as doublestar ErrBadPattern', async () => {
    const r = await runBuiltin(SR, configMap('abc'), cm({ 'by-file-path': '[]', 'by-value': 'abc' }));
    expect(r.exitCode).toBe(1);
    expect(r.results[0]).toMatchObject({
      message: 'failed to perform search-replace operation: "syntax error in pattern"',
      severity: 'error',
    });
  });

  it('finishes a long wildcard chain on a long file path', async () => {
    const long = configMap('abc').replace('cm.yaml', `${'a'.repeat(5_000)}.yaml`);
    const r = await runBuiltin(SR, long, cm({ 'by-file-path': `${'*a'.repeat(30)}*c`, 'by-value': 'abc' }));
    expect(r.results).toEqual([{ message: 'no matches' }]);
  });
});

describe('apply-setters', () => {
  it('derives setter values from a long value without backtracking', async () => {
    const setters = 'abcdefghijkl'.split('');
    const pattern = `${setters.map((s) => `\${${s}}`).join('-')}!`;
    const item = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: t\ndata:\n  key: x${'-'.repeat(2_000)} # kpt-set: ${pattern}\n`;
    const r = await runBuiltin(
      'gcr.io/kpt-fn/apply-setters:v0.2.0',
      item,
      cm({ a: 'A', b: 'B', c: 'C', d: 'D', e: 'E', f: 'F', g: 'G', h: 'H', i: 'I', j: 'J', k: 'K', l: 'L' }),
    );
    expect(r.exitCode).toBe(0);
    expect(r.output).toContain('key: A-B-C-D-E-F-G-H-I-J-K-L!');
  });
});

describe('Kptfile image references', () => {
  it('checks the docker reference grammar in linear time', () => {
    expect(isValidImageReference('gcr.io/kpt-fn/set-labels:v0.2')).toBe(true);
    expect(isValidImageReference('a'.repeat(300) + '!')).toBe(false);
    expect(isValidImageReference(`${'a'.repeat(60)}-${'b'.repeat(60)}!`)).toBe(false);
  });
});

describe('JSON Schema patterns (CRD schemas validated by kubeconform)', () => {
  it('run in linear time', () => {
    const schema = { type: 'object', properties: { v: { type: 'string', pattern: '^(a|a?)+$' } } };
    expect(validateSchema(schema, { v: 'a'.repeat(50_000) })).toEqual([]);
    expect(validateSchema(schema, { v: `${'a'.repeat(50_000)}b` })).toHaveLength(1);
    const props = {
      type: 'object',
      patternProperties: { '^(x+x+)+y$': { type: 'string' } },
      additionalProperties: false,
    };
    expect(validateSchema(props, { [`${'x'.repeat(5_000)}`]: 's' })).toHaveLength(1);
  });
});
