/**
 * Differential test: the SDK's interpreted (CSP-safe) schema validator must agree with ajv (the
 * reference, compiled with `new Function`) on validity and on the set of (instancePath, keyword)
 * errors, over a table of schemas and instances typical of function configs.
 */
import { describe, expect, it } from 'vitest';
import Ajv from 'ajv';
import { validateSchema, type JsonSchema } from 'krmfn/sdk';

const CASES: { name: string; schema: JsonSchema; data: unknown[] }[] = [
  {
    name: 'object with required, types and additionalProperties',
    schema: {
      type: 'object',
      required: ['namespace'],
      additionalProperties: false,
      properties: {
        namespace: { type: 'string', minLength: 1 },
        replicas: { type: 'integer', minimum: 0, maximum: 10 },
        debug: { type: 'boolean' },
      },
    },
    data: [
      { namespace: 'a' },
      {},
      { namespace: '' },
      { namespace: 'a', replicas: 11 },
      { namespace: 'a', replicas: 1.5 },
      { namespace: 1, debug: 'x', extra: true },
      [],
      'str',
      null,
    ],
  },
  {
    name: 'string maps and arrays of objects',
    schema: {
      type: 'object',
      properties: {
        labels: { type: 'object', additionalProperties: { type: 'string' }, maxProperties: 2 },
        fieldSpecs: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            required: ['path'],
            properties: { path: { type: 'string' }, create: { type: 'boolean' } },
          },
        },
      },
    },
    data: [
      { labels: { a: 'b' } },
      { labels: { a: 1, b: 'x', c: 'y' } },
      { fieldSpecs: [] },
      { fieldSpecs: [{ path: 'a/b' }, { create: true }, { path: 3, create: 'no' }] },
      { labels: [] },
    ],
  },
  {
    name: 'enum, const, pattern, exclusive bounds, multipleOf, uniqueItems',
    schema: {
      type: 'object',
      properties: {
        mode: { enum: ['warn', 'deny', 'dryrun'] },
        version: { const: 'v1' },
        image: { type: 'string', pattern: '^[a-z0-9./-]+(:[A-Za-z0-9._-]+)?$' },
        ratio: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
        step: { type: 'integer', multipleOf: 5 },
        tags: { type: 'array', uniqueItems: true, items: { type: 'string', maxLength: 3 } },
      },
    },
    data: [
      { mode: 'deny', version: 'v1', image: 'nginx:1.25', ratio: 0.5, step: 10, tags: ['a', 'b'] },
      { mode: 'off', version: 'v2', image: 'Bad Image', ratio: 1, step: 7, tags: ['a', 'a', 'long'] },
      { ratio: 0 },
    ],
  },
  {
    name: 'combinators and refs',
    schema: {
      $defs: { port: { type: 'integer', minimum: 1, maximum: 65535 } },
      type: 'object',
      properties: {
        port: { $ref: '#/$defs/port' },
        target: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
        either: { anyOf: [{ type: 'string', minLength: 3 }, { type: 'null' }] },
        notEmpty: { not: { const: '' } },
        both: { allOf: [{ type: 'string' }, { minLength: 2 }] },
      },
      patternProperties: { '^x-': { type: 'string' } },
    },
    data: [
      { port: 80, target: 'http', either: null, notEmpty: 'a', both: 'ab', 'x-note': 'ok' },
      { port: 0, target: 1.5, either: 'ab', notEmpty: '', both: 'a', 'x-note': 3 },
      { port: 'x', target: true },
    ],
  },
  {
    name: 'type unions and nested arrays',
    schema: { type: ['string', 'array'], items: { type: 'array', items: { type: 'integer' } }, minItems: 1 },
    data: ['x', [], [[1, 2], [3]], [[1, 'a'], 'b'], 5],
  },
];

const key = (e: { instancePath: string; keyword: string }): string => `${e.instancePath} ${e.keyword}`;

describe('validateSchema agrees with ajv', () => {
  const ajv = new Ajv({ allErrors: true, strict: false });
  for (const c of CASES) {
    const compiled = ajv.compile(c.schema as object);
    c.data.forEach((data, i) => {
      it(`${c.name} #${i}`, () => {
        const ok = compiled(structuredClone(data));
        const ours = validateSchema(c.schema, structuredClone(data));
        expect(ours.length === 0).toBe(ok);
        // ajv also reports the failing branches of a oneOf/anyOf; compare the errors both report at the top level.
        const theirs = (compiled.errors ?? [])
          .filter((e) => !/\/(anyOf|oneOf|not)\/\d+/.test(e.schemaPath))
          .map(key)
          .sort();
        expect(ours.map(key).sort()).toEqual([...new Set(theirs)].sort());
        const messages = new Map((compiled.errors ?? []).map((e) => [key(e), e.message]));
        for (const e of ours) if (messages.has(key(e))) expect(e.message).toBe(messages.get(key(e)));
      });
    });
  }
});
