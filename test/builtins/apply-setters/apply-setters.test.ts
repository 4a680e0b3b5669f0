import { describe, expect, it } from 'vitest';
import { deriveSetterValues, resolvePattern } from '../../../builtins/apply-setters.ts';
import { runBuiltin } from '../run-builtin.ts';

const IMG = 'ghcr.io/kptdev/krm-functions-catalog/apply-setters';
const cm = (data: Record<string, string>): string =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: setters\ndata:\n${Object.entries(data)
    .map(([k, v]) => `  ${k}: ${JSON.stringify(v)}`)
    .join('\n')}\n`;

describe('apply-setters pattern logic', () => {
  it('derives unconfigured setters from the current value', () => {
    expect([...deriveSetterValues('${image}:${tag}', 'nginx:1.16.1')]).toEqual([
      ['${image}', 'nginx'],
      ['${tag}', '1.16.1'],
    ]);
    expect(resolvePattern('${image}:${tag}', 'nginx:1.16.1', new Map([['tag', '1.17']]))).toBe('nginx:1.17');
  });
  it('never derives adjacent setters', () => {
    expect(deriveSetterValues('${image}${tag}', 'nginx1.16').size).toBe(0);
    expect(() => resolvePattern('${image}${tag}', 'nginx1.16', new Map([['tag', '2']]))).toThrow(
      'values for setters [${image}] must be provided',
    );
  });
  it('escapes regex characters of the pattern', () => {
    expect([...deriveSetterValues('a.b-${x}', 'a.b-c')]).toEqual([['${x}', 'c']]);
    expect(deriveSetterValues('a.b-${x}', 'aXb-c').size).toBe(0);
  });
});

describe('apply-setters', () => {
  it('sets scalars, keeps quote style and comments, re-infers types', async () => {
    const r = await runBuiltin(
      `${IMG}:v0.2.1`,
      `apiVersion: v1
kind: ConfigMap
metadata:
  name: app # kpt-set: \${app}
data:
  replicas: "3" # kpt-set: \${replicas}
  count: 3 # kpt-set: \${replicas}
  image: 'nginx:1.16.1' # kpt-set: \${image}:\${tag}
  other: x # kpt-set: \${nope}
`,
      cm({ app: 'web', replicas: '5', tag: '1.17' }),
    );
    expect(r.exitCode).toBe(0);
    expect(r.output).toBe(`apiVersion: v1
kind: ConfigMap
metadata:
  name: web # kpt-set: \${app}
data:
  replicas: "5" # kpt-set: \${replicas}
  count: 5 # kpt-set: \${replicas}
  image: 'nginx:1.17' # kpt-set: \${image}:\${tag}
  other: x # kpt-set: \${nope}
`);
    expect(r.results.map((x) => [x.message, x.field?.path])).toEqual([
      ['set field value to "web"', 'metadata.name'],
      ['set field value to "5"', 'data.replicas'],
      ['set field value to "5"', 'data.count'],
      ['set field value to "nginx:1.17"', 'data.image'],
    ]);
    expect(r.items[0].get('data.count')).toBe(5);
  });

  it('sets array setters from flow or block YAML and empties them', async () => {
    const r = await runBuiltin(
      `${IMG}:v0.2.1`,
      `apiVersion: v1
kind: Thing
metadata:
  name: t
spec:
  envs: # kpt-set: \${envs}
    - dev
  flow: [a, b] # kpt-set: \${flow}
  gone: # kpt-set: \${gone}
    - x
`,
      cm({ envs: '[dev, stage, prod]', flow: '- c\n- d', gone: '' }),
    );
    expect(r.exitCode).toBe(0);
    expect(r.output).toBe(`apiVersion: v1
kind: Thing
metadata:
  name: t
spec:
  envs: # kpt-set: \${envs}
    - dev
    - stage
    - prod
  flow: # kpt-set: \${flow}
    - c
    - d
  gone: [] # kpt-set: \${gone}
`);
  });

  it('rejects bad array patterns and non-array values', async () => {
    const bad = await runBuiltin(
      `${IMG}:v0.2.1`,
      'apiVersion: v1\nkind: T\nmetadata:\n  name: t\nlist: # kpt-set: a-${x}\n  - a\n',
      cm({ x: '[b]' }),
    );
    expect(bad.exitCode).toBe(1);
    expect(bad.results).toEqual([
      { message: 'failed to apply setters: invalid setter pattern for array node: "a-${x}"', severity: 'error' },
    ]);
    const scalar = await runBuiltin(
      `${IMG}:v0.2.1`,
      'apiVersion: v1\nkind: T\nmetadata:\n  name: t\nlist: # kpt-set: ${x}\n  - a\n',
      cm({ x: 'plain' }),
    );
    expect(scalar.results[0].message).toBe(
      'failed to apply setters: input to array setter must be an array of values, but found "plain"',
    );
  });

  it('v0.2: no match is one severity-less result and success; v0.1: an error', async () => {
    const items = 'apiVersion: v1\nkind: T\nmetadata:\n  name: t\n';
    const v2 = await runBuiltin(`${IMG}:v0.2`, items, cm({ a: 'b' }));
    expect(v2.exitCode).toBe(0);
    expect(v2.results).toEqual([{ message: 'no matches for input setter(s)' }]);
    const v1 = await runBuiltin(`${IMG}:v0.1`, items, cm({ a: 'b' }));
    expect(v1.exitCode).toBe(1);
    expect(v1.results).toEqual([
      { message: 'failed to apply setters: no matches for the input list of setters', severity: 'error' },
    ]);
    const empty = await runBuiltin(`${IMG}:v0.1.1`, items, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n');
    expect(empty.results).toEqual([
      { message: 'failed to apply setters: input setters list cannot be empty', severity: 'error' },
    ]);
    expect(empty.log.join('\n')).toContain('[error] : failed to apply setters: input setters list cannot be empty');
  });
});

describe('apply-setters empty values', () => {
  it('writes an empty scalar result as ""', async () => {
    const r = await runBuiltin(
      `${IMG}:v0.2.1`,
      'apiVersion: v1\nkind: T\nmetadata:\n  name: t\nsuffix: x # kpt-set: ${suffix}\n',
      cm({ suffix: '' }),
    );
    expect(r.output).toContain('suffix: "" # kpt-set: ${suffix}');
    expect(r.items[0].get('suffix')).toBe('');
  });
});

/**
 * Differential cases per tag, from the catalog's functions/go/apply-setters at apply-setters/v0.1.0,
 * v0.1.1, v0.2.0 (applysetters/walk.go `acceptImpl`, apply_setters.go, main.go) and v0.2.1.
 */
describe('apply-setters per tag', () => {
  const SVC = `apiVersion: v1
kind: ConfigMap
metadata:
  name: first
  annotations:
    config.kubernetes.io/path: app.yaml
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: app
  annotations:
    config.kubernetes.io/path: app.yaml
    config.kubernetes.io/index: '1'
data:
  tier: web # kpt-set: \${tier}
  owner: ~ # kpt-set: \${owner}
  zones: # kpt-set: \${zones}
  - a
`;
  const setters = cm({ tier: 'db', owner: 'ops', zones: '[b, c]' });

  it('array setters of a mapping come before its scalar fields; results name the file path only', async () => {
    const r = await runBuiltin(`${IMG}:v0.2.1`, SVC, setters);
    expect(r.exitCode).toBe(0);
    expect(r.results).toEqual([
      { message: 'set field value to "[b, c]"', field: { path: 'data.zones' }, file: { path: 'app.yaml' } },
      { message: 'set field value to "db"', field: { path: 'data.tier' }, file: { path: 'app.yaml' } },
      { message: 'set field value to "ops"', field: { path: 'data.owner' }, file: { path: 'app.yaml' } },
    ]);
  });

  it('v0.1.0 reports nothing, never fails on empty or unmatched setters, and skips null scalars', async () => {
    const r = await runBuiltin(`${IMG}:v0.1.0`, SVC, setters);
    expect(r.exitCode).toBe(0);
    expect(r.results).toEqual([]);
    expect(r.output).toContain('tier: db # kpt-set: ${tier}');
    expect(r.output).toContain('owner: ~ # kpt-set: ${owner}');
    expect(r.output).toContain('  - b\n  - c\n');
    for (const cfg of [cm({}), cm({ absent: 'x' })]) {
      const none = await runBuiltin(`${IMG}:v0.1.0`, SVC, cfg);
      expect(none.exitCode).toBe(0);
      expect(none.results).toEqual([]);
    }
    const v011 = await runBuiltin(`${IMG}:v0.1.1`, SVC, setters);
    expect(v011.output).toContain('owner: ops # kpt-set: ${owner}');
  });

  it('only the empty text empties an array setter; `~` is not an array', async () => {
    const r = await runBuiltin(`${IMG}:v0.2.0`, SVC, cm({ zones: '~' }));
    expect(r.exitCode).toBe(1);
    expect(r.results[0]?.message).toBe(
      'failed to apply setters: input to array setter must be an array of values, but found "~"',
    );
  });
});
