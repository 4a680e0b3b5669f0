import { describe, expect, it } from 'vitest';
import { validateSchema, type JsonSchema } from 'krmfn/sdk';

const schema: JsonSchema = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: { type: 'string', minLength: 2, pattern: '^[a-z]+$' },
    replicas: { type: 'integer', minimum: 1, default: 1 },
    mode: { enum: ['a', 'b'] },
    tags: { type: 'array', items: { type: 'string' }, uniqueItems: true },
    nested: { $ref: '#/$defs/nested' },
  },
  $defs: { nested: { type: 'object', properties: { on: { type: 'boolean' } } } },
};

describe('validateSchema (CSP-safe interpreter, ajv error shape)', () => {
  it('accepts valid data and applies defaults', () => {
    const data: Record<string, unknown> = { name: 'web' };
    expect(validateSchema(schema, data, { useDefaults: true })).toEqual([]);
    expect(data['replicas']).toBe(1);
  });

  it('reports ajv-style errors with instance paths', () => {
    const errs = validateSchema(schema, {
      replicas: 0,
      mode: 'c',
      tags: ['x', 'x'],
      nested: { on: 'yes' },
      extra: 1,
      name: 'A',
    });
    const brief = errs.map((e) => [e.instancePath, e.keyword, e.message]);
    expect(brief).toEqual([
      ['/replicas', 'minimum', 'must be >= 1'],
      ['/mode', 'enum', 'must be equal to one of the allowed values'],
      ['/tags', 'uniqueItems', 'must NOT have duplicate items (items ## 1 and 0 are identical)'],
      ['/nested/on', 'type', 'must be boolean'],
      ['', 'additionalProperties', 'must NOT have additional properties'],
      ['/name', 'minLength', 'must NOT have fewer than 2 characters'],
      ['/name', 'pattern', 'must match pattern "^[a-z]+$"'],
    ]);
    expect(validateSchema(schema, {}).map((e) => e.message)).toEqual(["must have required property 'name'"]);
  });

  it('handles combinators', () => {
    const s: JsonSchema = { oneOf: [{ type: 'string' }, { type: 'integer' }], not: { const: 'x' } };
    expect(validateSchema(s, 'a')).toEqual([]);
    expect(validateSchema(s, 1.5).map((e) => e.keyword)).toEqual(['oneOf']);
    expect(validateSchema(s, 'x').map((e) => e.keyword)).toEqual(['not']);
    expect(validateSchema({ anyOf: [{ minimum: 3 }, { maximum: 1 }] }, 2).map((e) => e.keyword)).toEqual(['anyOf']);
  });
});
