/**
 * Differential cases for set-namespace v0.3.0 – v0.4.1, tag by tag: config decoding through the
 * fn SDK's typed string getters, config errors, panics as each pinned SDK commit surfaces them,
 * results and the depends-on rewrite. Expected outcomes are read from
 * functions/go/set-namespace/transformer/namespace.go at each set-namespace/<tag> and
 * kpt-functions-sdk go/fn (run.go, object.go, internal/maphelpers.go, result.go) at the commit the
 * tag's go.mod pins (builtins/docs/set-namespace.md, "v0.3.x and v0.4.x, tag by tag").
 */
import { describe, expect, it } from 'vitest';
import { runBuiltin } from '../run-builtin.ts';

const IMG = 'gcr.io/kpt-fn/set-namespace';
const V03_OLD = ['v0.3.0', 'v0.3.1', 'v0.3.2'];
const V03_NEW = ['v0.3.3', 'v0.3.4'];
const ALL = [...V03_OLD, ...V03_NEW, 'v0.4.0', 'v0.4.1'];

const SERVICE = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: api\n  namespace: dev\n';
const cm = (data: string): string => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\ndata:\n${data}`;

describe('set-namespace v0.3–v0.4: config values decode as the fn SDK reads strings', () => {
  it('a quoted number, `yes` and a `!!str` tag are strings at every tag', async () => {
    for (const [text, ns] of [
      ['"123"', '123'],
      ['yes', 'yes'],
      ['!!str 0755', '0755'],
    ]) {
      for (const tag of ALL) {
        const r = await runBuiltin(`${IMG}:${tag}`, SERVICE, cm(`  namespace: ${text}\n`));
        expect(r.exitCode, `${tag} ${text}`).toBe(0);
        expect(r.items[0].namespace, `${tag} ${text}`).toBe(ns);
      }
    }
  });

  it('v0.3.0–v0.3.2 recover the getter panic as `panic with` (exit 1)', async () => {
    for (const tag of V03_OLD) {
      const r = await runBuiltin(`${IMG}:${tag}`, SERVICE, cm('  namespace: 123\n'));
      const message = 'panic with {%!s(*fn.KubeObject=0xc000010000) [data namespace]}';
      expect(r.exitCode, tag).toBe(1);
      expect(r.results, tag).toEqual([{ message, severity: 'error' }]);
      expect(r.log.join('\n'), tag).toBe(`failed to evaluate function: ${message}`);
      expect(r.items[0].namespace, tag).toBe('dev');
    }
  });

  it('v0.3.3–v0.3.4 re-panic the by-value ErrKubeObjectFields: the process dies (exit 2)', async () => {
    for (const tag of V03_NEW) {
      for (const value of ['123', 'true', '1.5', '~', '', '{a: b}', '[a]']) {
        const r = await runBuiltin(`${IMG}:${tag}`, SERVICE, cm(`  namespace: ${value}\n`));
        expect(r.exitCode, `${tag} ${value}`).toBe(2);
        expect(r.results, `${tag} ${value}`).toEqual([]);
        expect(r.log.join('\n')).toBe(
          'panic: (fn.ErrKubeObjectFields) 0xc000010000 [recovered]\n\tpanic: (fn.ErrKubeObjectFields) 0xc000010000',
        );
      }
    }
  });

  it('v0.4.x recover ErrSubObjectFields: an error naming the field path, exit 1', async () => {
    for (const tag of ['v0.4.0', 'v0.4.1']) {
      for (const value of ['123', 'false', '~', '', '{a: b}']) {
        const r = await runBuiltin(`${IMG}:${tag}`, SERVICE, cm(`  namespace: ${value}\n`));
        const message = 'SubObject has unmatched field type: `data/namespace';
        expect(r.exitCode, `${tag} ${value}`).toBe(1);
        expect(r.results).toEqual([{ message, severity: 'error' }]);
        expect(r.log.join('\n')).toBe(`failed to evaluate function: ${message}`);
      }
      const typed = `apiVersion: fn.kpt.dev/v1alpha1\nkind: SetNamespace\nmetadata:\n  name: s\nnamespace: 42\n`;
      const r = await runBuiltin(`${IMG}:${tag}`, SERVICE, typed);
      expect(r.results[0].message).toBe('SubObject has unmatched field type: `namespace');
    }
  });

  it('v0.3.x reads `data.namespaceMatcher` typed too (a number panics)', async () => {
    const r = await runBuiltin(`${IMG}:v0.3.4`, SERVICE, cm('  namespace: prod\n  namespaceMatcher: 7\n'));
    expect(r.exitCode).toBe(2);
    // v0.4 reads no matcher at all.
    const v04 = await runBuiltin(`${IMG}:v0.4.1`, SERVICE, cm('  namespace: prod\n  namespaceMatcher: 7\n'));
    expect([v04.exitCode, v04.items[0].namespace]).toEqual([0, 'prod']);
  });
});

describe('set-namespace v0.3–v0.4: config errors', () => {
  it('no functionConfig: a nil dereference before v0.4.1, a missing-config error at v0.4.1', async () => {
    const nil = 'runtime error: invalid memory address or nil pointer dereference';
    for (const tag of V03_OLD) {
      const r = await runBuiltin(`${IMG}:${tag}`, SERVICE);
      expect([r.exitCode, r.results[0].message], tag).toEqual([1, `panic with ${nil}`]);
    }
    for (const tag of [...V03_NEW, 'v0.4.0']) {
      const r = await runBuiltin(`${IMG}:${tag}`, SERVICE);
      expect([r.exitCode, r.log.join('\n')], tag).toEqual([2, `panic: ${nil} [recovered]\n\tpanic: ${nil}`]);
    }
    const v041 = await runBuiltin(`${IMG}:v0.4.1`, SERVICE);
    expect(v041.exitCode).toBe(1);
    expect(v041.results).toEqual([
      { message: 'FunctionConfig is missing. Expect `ConfigMap` or `SetNamespace`', severity: 'error' },
    ]);
    expect(v041.log.join('\n')).toBe('failed to evaluate function: error: function failure');
  });

  it('an unknown kind names the config object and exits 0 before v0.4.1, exits 1 at v0.4.1', async () => {
    const other = 'apiVersion: example.com/v1\nkind: Settings\nmetadata:\n  name: s\nnamespace: prod\n';
    const message =
      'unknown functionConfig Kind=Settings ApiVersion=example.com/v1, expect `SetNamespace` or `ConfigMap`';
    for (const tag of [...V03_OLD, ...V03_NEW, 'v0.4.0']) {
      const r = await runBuiltin(`${IMG}:${tag}`, SERVICE, other);
      expect(r.exitCode, tag).toBe(0);
      expect(r.results, tag).toEqual([
        { message, severity: 'error', resourceRef: { apiVersion: 'example.com/v1', kind: 'Settings', name: 's' } },
      ]);
      expect(r.items[0].namespace).toBe('dev');
    }
    const v041 = await runBuiltin(`${IMG}:v0.4.1`, SERVICE, other);
    expect([v041.exitCode, v041.results]).toEqual([1, [{ message, severity: 'error' }]]);
  });

  it('an empty namespace: `data.namespace should not be empty` (a quoted empty string is a string)', async () => {
    for (const tag of ALL) {
      const r = await runBuiltin(`${IMG}:${tag}`, SERVICE, cm('  namespace: ""\n'));
      expect(r.results[0].message, tag).toBe('`data.namespace` should not be empty');
      expect(r.exitCode, tag).toBe(tag === 'v0.4.1' ? 1 : 0);
    }
  });
});

describe('set-namespace v0.3.x: old-namespace discovery and results per tag', () => {
  const config = cm('  namespace: prod\n');

  it('results: `namespace updated` (v0.3.0–v0.3.2), counted (v0.3.3+), plus a stray image result at v0.3.3', async () => {
    const two = `${SERVICE}---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: dev\n`;
    for (const tag of V03_OLD) {
      const r = await runBuiltin(`${IMG}:${tag}`, two, config);
      expect(r.results, tag).toEqual([{ message: 'namespace updated', severity: 'info' }]);
      expect(r.items.map((o) => o.namespace)).toEqual(['prod', 'prod']);
    }
    const counted = { message: 'namespace "dev" updated to "prod", 2 values changed', severity: 'info' };
    expect((await runBuiltin(`${IMG}:v0.3.4`, two, config)).results).toEqual([counted]);
    expect((await runBuiltin(`${IMG}:v0.3.3`, two, config)).results).toEqual([
      counted,
      {
        message: 'set image from dev to prod',
        field: { path: '', currentValue: 'dev', proposedValue: 'prod' },
        file: { path: 'test' },
        severity: 'info',
      },
    ]);
  });

  it('different namespaces: unquoted list before v0.3.3, quoted after; exit 0', async () => {
    const mixed = `${SERVICE}---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: qa\n`;
    const v032 = await runBuiltin(`${IMG}:v0.3.2`, mixed, config);
    expect([v032.exitCode, v032.results[0].message]).toEqual([
      0,
      'all input namespace-scoped resources should be under the same namespace but found different namespaces: dev,qa ',
    ]);
    const v034 = await runBuiltin(`${IMG}:v0.3.4`, mixed, config);
    expect(v034.results[0].message).toBe(
      'all input namespace-scoped resources should be under the same namespace but found different namespaces: "dev,qa" ',
    );
  });

  it('no namespace field at all: index-out-of-range panic before v0.3.3, an error after', async () => {
    const bare = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: api\n';
    const v030 = await runBuiltin(`${IMG}:v0.3.0`, bare, config);
    expect([v030.exitCode, v030.results[0].message]).toEqual([
      1,
      'panic with runtime error: index out of range [0] with length 0',
    ]);
    const v033 = await runBuiltin(`${IMG}:v0.3.3`, bare, config);
    expect(v033.exitCode).toBe(0);
    expect(v033.results[0].message).toMatch(/^could not find any namespace fields to update\./);
  });

  it('two Namespace objects are listed as a Go map; the same name twice is its own error', async () => {
    const ns = (n: string): string => `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ${n}\n`;
    const r = await runBuiltin(`${IMG}:v0.3.4`, `${ns('b')}---\n${ns('a')}`, config);
    expect(r.results[0].message).toBe(
      'cannot accept more than one Namespace objects from the input resources, found map[a:1 b:1]',
    );
    const same = `${ns('a')}---\n${ns('a')}`;
    expect((await runBuiltin(`${IMG}:v0.3.2`, same, config)).results[0].message).toBe(
      'found more than one Namespace objects of the same name a',
    );
    expect((await runBuiltin(`${IMG}:v0.3.3`, same, config)).results[0].message).toBe(
      'found more than one Namespace objects of the same name "a"',
    );
  });

  it('RoleBinding subjects are namespace fields from v0.3.2 (v0.3.0/v0.3.1: ClusterRoleBinding only)', async () => {
    const rb = `apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: rb
  namespace: dev
subjects:
- kind: ServiceAccount
  name: sa
  namespace: dev
`;
    const v031 = await runBuiltin(`${IMG}:v0.3.1`, rb, config);
    expect([v031.items[0].namespace, v031.items[0].get(['subjects', 0, 'namespace'])]).toEqual(['prod', 'dev']);
    const v032 = await runBuiltin(`${IMG}:v0.3.2`, rb, config);
    expect([v032.items[0].namespace, v032.items[0].get(['subjects', 0, 'namespace'])]).toEqual(['prod', 'prod']);
  });

  it('a CRD without a conversion webhook gets `namespace: ""` at v0.3 (SetOrDie writes the empty value back)', async () => {
    const crd =
      'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: x.example.com\n';
    const r = await runBuiltin(`${IMG}:v0.3.4`, `${crd}---\n${SERVICE}`, config);
    expect(r.items[0].get(['spec', 'conversion', 'webhook', 'clientConfig', 'service', 'namespace'])).toBe('');
    expect(r.items[1].namespace).toBe('prod');
  });
});

describe('set-namespace v0.4.x: duplicates and depends-on', () => {
  it('a duplicate after the change is the only result and the run still succeeds', async () => {
    const dup = `${SERVICE}---\napiVersion: v1\nkind: Service\nmetadata:\n  name: api\n  namespace: qa\n`;
    for (const tag of ['v0.4.0', 'v0.4.1']) {
      const r = await runBuiltin(`${IMG}:${tag}`, dup, cm('  namespace: prod\n'));
      expect(r.exitCode, tag).toBe(0);
      expect(r.results).toEqual([
        { message: 'duplicate Resource(apiVersion=v1, kind=Service, Namespace=prod, Name=api)', severity: 'error' },
      ]);
    }
  });
});
