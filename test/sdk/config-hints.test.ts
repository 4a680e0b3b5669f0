/**
 * Config errors of SDK functions name the offending key with its path and suggest the declared
 * key nearest to a misspelt one (sdk/config.ts): in ConfigMap data (`labelvalue` → `labelValue`)
 * and in a typed functionConfig whose schema forbids additional properties, at any depth.
 */
import { describe, expect, it } from 'vitest';
import { bindConfig, KubeObject, type ConfigSpec } from 'krmfn/sdk';

const spec: ConfigSpec<unknown> = {
  kind: 'SetOwner',
  schema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      labelValue: { type: 'string' },
      selector: {
        type: 'object',
        additionalProperties: false,
        properties: { matchKind: { type: 'string' }, matchName: { type: 'string' } },
      },
      rules: {
        type: 'array',
        items: { type: 'object', additionalProperties: false, properties: { field: { type: 'string' } } },
      },
    },
  },
};

const messages = (raw: Record<string, unknown>): [string, string | undefined][] =>
  bindConfig(spec, KubeObject.fromJS(raw)).results.map((r) => [r.message, r.field?.path]);

describe('config key hints', () => {
  it('a misspelt ConfigMap key names the declared one', () => {
    expect(
      messages({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { labelvalue: 'x' } }),
    ).toEqual([
      [
        'unknown key "labelvalue" in the ConfigMap data of functionConfig; did you mean "labelValue"?',
        'data.labelvalue',
      ],
    ]);
  });

  it('an unrelated key gets no suggestion', () => {
    expect(messages({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { zzzzzz: 'x' } })).toEqual([
      ['unknown key "zzzzzz" in the ConfigMap data of functionConfig', 'data.zzzzzz'],
    ]);
  });

  it('a schema error names the key and its path, nested and in arrays', () => {
    const cr = {
      apiVersion: 'fn.kpt.dev/v1alpha1',
      kind: 'SetOwner',
      metadata: { name: 'c' },
      labelValue: 'x',
      selector: { matchkind: 'Deployment' },
      rules: [{ field: 'a' }, { feild: 'b' }],
    };
    expect(messages(cr)).toEqual([
      [
        'functionConfig is invalid: selector.matchkind: is not a known field; did you mean "matchKind"?',
        'selector.matchkind',
      ],
      ['functionConfig is invalid: rules[1].feild: is not a known field; did you mean "field"?', 'rules[1].feild'],
    ]);
  });
});
