import { describe, expect, it } from 'vitest';
import { bindConfig, emptyFunctionInput, KubeObject, type ConfigSpec } from 'krmfn/sdk';

interface Team {
  team: string;
  replicas: number;
  strict: boolean;
  zones?: string[];
}

const spec: ConfigSpec<Team> = {
  kind: 'SetTeam',
  schema: {
    type: 'object',
    required: ['team'],
    properties: {
      team: { type: 'string' },
      replicas: { type: 'integer', default: 1 },
      strict: { type: 'boolean', default: false },
      zones: { type: 'array', items: { type: 'string' } },
    },
  },
};

const cm = (data: Record<string, string>, name = 'function-input'): KubeObject =>
  KubeObject.fromJS({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });

describe('bindConfig', () => {
  it('coerces ConfigMap strings by schema type and applies defaults', () => {
    const out = bindConfig(spec, cm({ team: 'a', replicas: '3', strict: 'true', zones: '["x","y"]' }));
    expect(out).toEqual({ ok: true, config: { team: 'a', replicas: 3, strict: true, zones: ['x', 'y'] }, results: [] });
    const d = bindConfig(spec, cm({ team: 'b' }));
    expect(d.ok && d.config).toEqual({ team: 'b', replicas: 1, strict: false });
  });

  it('rejects strings that are not strict numbers or booleans, pointing at data.<key>', () => {
    const out = bindConfig(spec, cm({ team: 'a', replicas: '3x', strict: 'yes' }));
    expect(out.ok).toBe(false);
    expect(out.results.map((r) => [r.message, r.field?.path])).toEqual([
      ['functionConfig is invalid: replicas: must be integer', 'data.replicas'],
      ['functionConfig is invalid: strict: must be boolean', 'data.strict'],
    ]);
    expect(out.results[0].resourceRef).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', name: 'function-input' });
  });

  it('catches typos in ConfigMap keys (error, warn or ignore)', () => {
    const typo = cm({ team: 'a', replcas: '2' });
    expect(bindConfig(spec, typo).results.map((r) => r.message)).toEqual([
      'unknown key "replcas" in the ConfigMap data of functionConfig; did you mean "replicas"?',
    ]);
    const warn = bindConfig({ ...spec, additionalKeys: 'warn' }, typo);
    expect(warn.ok).toBe(true);
    expect(warn.results.map((r) => r.severity)).toEqual(['warning']);
    expect(bindConfig({ ...spec, additionalKeys: 'ignore' }, typo).results).toEqual([]);
  });

  it('binds a typed custom resource minus apiVersion/kind/metadata', () => {
    const cr = KubeObject.fromJS({
      apiVersion: 'fn.kpt.dev/v1alpha1',
      kind: 'SetTeam',
      metadata: { name: 'x' },
      team: 'a',
      replicas: 2,
    });
    expect(bindConfig(spec, cr)).toEqual({ ok: true, config: { team: 'a', replicas: 2, strict: false }, results: [] });
    const wrongVersion = KubeObject.fromJS({
      apiVersion: 'fn.kpt.dev/v2',
      kind: 'SetTeam',
      metadata: { name: 'x' },
      team: 'a',
    });
    expect(bindConfig(spec, wrongVersion).results[0].message).toBe(
      'functionConfig must be a `ConfigMap` (v1) or `SetTeam` (fn.kpt.dev/v1alpha1), got `SetTeam` (fn.kpt.dev/v2)',
    );
  });

  it('treats no config and an empty function-input as "no config"', () => {
    const required = 'functionConfig is required: provide a `ConfigMap` (v1) or `SetTeam` (fn.kpt.dev/v1alpha1)';
    expect(bindConfig(spec, undefined).results.map((r) => r.message)).toEqual([required]);
    expect(bindConfig(spec, KubeObject.fromJS(emptyFunctionInput())).results.map((r) => r.message)).toEqual([required]);
    const optional: ConfigSpec<{ n?: number }> = {
      kind: 'X',
      schema: { type: 'object', properties: { n: { type: 'number', default: 7 } } },
    };
    expect(bindConfig(optional, undefined)).toEqual({ ok: true, config: { n: 7 }, results: [] });
  });

  it('puts a whole ConfigMap data map into configMapField (Go SDK first-string-map rule)', () => {
    const labels: ConfigSpec<{ labels: Record<string, string> }> = {
      kind: 'SetLabels',
      configMapField: 'labels',
      schema: { type: 'object', properties: { labels: { type: 'object', additionalProperties: { type: 'string' } } } },
    };
    expect(bindConfig(labels, cm({ app: 'web', tier: 'db' }, 'x'))).toEqual({
      ok: true,
      config: { labels: { app: 'web', tier: 'db' } },
      results: [],
    });
  });

  it('uses an injected ajv-compatible validator', () => {
    const validate = Object.assign((d: unknown) => (d as Team).team !== 'bad', {
      errors: [{ instancePath: '/team', message: 'must not be bad', keyword: 'x' }],
    });
    const out = bindConfig({ ...spec, validate }, cm({ team: 'bad' }));
    expect(out.results.map((r) => r.message)).toEqual(['functionConfig is invalid: team: must not be bad']);
  });
});
