/**
 * Differential test: the SDK's interpreted (CSP-safe) schema validator must agree with ajv (the
 * reference, compiled with `new Function`) on validity and on the set of (instancePath, keyword)
 * errors, over a table of schemas and instances typical of function configs. The 2020-12 keywords
 * (`if`/`then`/`else`, `prefixItems`, `contains`, `propertyNames`, `dependentRequired`) and
 * `format` are checked against Ajv2020 with ajv-formats (full mode).
 */
import { describe, expect, it } from 'vitest';
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
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

const CASES_2020: { name: string; schema: JsonSchema; data: unknown[] }[] = [
  {
    name: 'if/then/else',
    schema: {
      type: 'object',
      properties: { mode: { enum: ['file', 'url'] } },
      if: { properties: { mode: { const: 'file' } }, required: ['mode'] },
      then: { required: ['path'], properties: { path: { type: 'string', minLength: 1 } } },
      else: { required: ['url'] },
    },
    data: [
      { mode: 'file', path: 'a' },
      { mode: 'file' },
      { mode: 'file', path: '' },
      { mode: 'url', url: 'x' },
      { mode: 'url' },
      {},
      { url: 1 },
    ],
  },
  {
    name: 'if without else, then without if',
    schema: { if: { type: 'string' }, then: { maxLength: 2 }, properties: { a: { then: { type: 'string' } } } },
    data: ['ab', 'abc', 5, { a: 1 }],
  },
  {
    name: 'prefixItems with items for the rest',
    schema: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }], items: { type: 'boolean' } },
    data: [[], ['a'], ['a', 1, true, false], [1, 'a', 'b'], ['a', 1, 2]],
  },
  {
    name: 'prefixItems closed by items: false',
    schema: { prefixItems: [{ const: 'kind' }, { type: 'string' }], items: false },
    data: [['kind', 'x'], ['kind', 'x', 'y'], ['other'], 'not an array'],
  },
  {
    name: 'contains, minContains, maxContains',
    schema: {
      type: 'object',
      properties: {
        some: { contains: { type: 'integer' } },
        atLeastTwo: { contains: { const: 'x' }, minContains: 2 },
        atMostOne: { contains: { type: 'string' }, maxContains: 1 },
        between: { contains: { minimum: 10 }, minContains: 1, maxContains: 2 },
        none: { contains: { type: 'null' }, minContains: 0 },
      },
    },
    data: [
      { some: [1], atLeastTwo: ['x', 'x'], atMostOne: ['a', 1], between: [10], none: [] },
      { some: ['a'], atLeastTwo: ['x'], atMostOne: ['a', 'b'], between: [1, 10, 11, 12], none: [1] },
      { some: [], between: [] },
    ],
  },
  {
    name: 'propertyNames',
    schema: {
      type: 'object',
      propertyNames: { pattern: '^[a-z][a-z0-9-]*$', maxLength: 8 },
      properties: { labels: { type: 'object', propertyNames: { enum: ['app', 'team'] } } },
    },
    data: [{ name: 1, 'ok-1': 2 }, { Name: 1, 'far-too-long': 2 }, { labels: { app: 'a', tier: 'b' } }, {}],
  },
  {
    name: 'dependentRequired',
    schema: { type: 'object', dependentRequired: { configPath: ['configMap'], tag: ['image', 'registry'] } },
    data: [{}, { configPath: 'a', configMap: {} }, { configPath: 'a' }, { tag: 'v1', image: 'x' }, { tag: 'v1' }],
  },
  {
    name: 'string formats',
    schema: {
      type: 'object',
      properties: {
        date: { type: 'string', format: 'date' },
        time: { type: 'string', format: 'time' },
        dateTime: { type: 'string', format: 'date-time' },
        email: { type: 'string', format: 'email' },
        host: { type: 'string', format: 'hostname' },
        v4: { type: 'string', format: 'ipv4' },
        v6: { type: 'string', format: 'ipv6' },
        id: { type: 'string', format: 'uuid' },
        unknown: { type: 'string', format: 'krmfn-unknown' },
      },
    },
    data: [
      {
        date: '2024-02-29',
        time: '23:59:59.5+02:00',
        dateTime: '2024-01-01T10:00:00Z',
        email: 'ops.team+kpt@example.com',
        host: 'registry.example.com',
        v4: '10.0.0.255',
        v6: '2001:db8::1',
        id: '123e4567-e89b-12d3-a456-426614174000',
        unknown: 'anything',
      },
      {
        date: '2023-02-29',
        time: '24:00:00',
        dateTime: '2024-01-01T10:00:00',
        email: 'no-at-sign',
        host: '-bad.example.com',
        v4: '256.1.1.1',
        v6: '2001:db8:::1',
        id: '123e4567e89b12d3a456426614174000',
      },
      {
        date: '2024-13-01',
        time: '10:00:00',
        dateTime: '2024-01-01 10:00:00+01:00',
        email: 'a@b',
        host: 'a'.repeat(64) + '.com',
        v4: '01.2.3.4',
        v6: '::ffff:192.168.0.1',
        id: 'urn:uuid:123e4567-e89b-12d3-a456-426614174000',
      },
      {
        date: '2024-04-31',
        time: '23:59:60Z',
        dateTime: '2024-01-01t10:00:00.123-05:30',
        email: 'a..b@example.com',
        host: 'example.com.',
        v4: '1.2.3',
        v6: '1:2:3:4:5:6:7:8:9',
        id: 'g23e4567-e89b-12d3-a456-426614174000',
      },
      { date: 20240101, v6: '::', host: 'a_b.com', email: 'x@example-.com', time: '12:00:00+24:00' },
      { v4: '001.2.3.4', time: '22:59:60-01:00', dateTime: '2024-01-01 23:59:60', v6: '1:2:3:4:5:6:1.2.3.4' },
      { time: '12:00:60Z', v6: '1::2::3', dateTime: '2024-01-01T12:00:00.', host: 'a.b.c' },
      { time: '12:00:00+0530', v6: 'fe80::1%eth0', v4: '1.2.3.256', id: '123E4567-E89B-12D3-A456-426614174000' },
    ],
  },
  {
    name: 'integer formats',
    schema: { type: 'array', items: { type: 'number', format: 'int32' }, prefixItems: [{ format: 'int64' }] },
    data: [
      [1, 2, 3],
      [1.5, 2 ** 31, -(2 ** 31), 2 ** 31 - 1, -(2 ** 31) - 1],
      [2 ** 60, 1],
    ],
  },
];

const key = (e: { instancePath: string; keyword: string }): string => `${e.instancePath} ${e.keyword}`;

function agreesWith(compiled: ReturnType<Ajv['compile']>, schema: JsonSchema, data: unknown): void {
  const ok = compiled(structuredClone(data));
  const ours = validateSchema(schema, structuredClone(data));
  expect(ours.length === 0).toBe(ok);
  // ajv also reports the failing branches of anyOf/oneOf/not and the failing items of contains;
  // compare the errors both report.
  const theirs = (compiled.errors ?? [])
    .filter((e) => !/\/(anyOf|oneOf|not)\/\d+/.test(e.schemaPath) && !/\/contains\//.test(e.schemaPath))
    .map(key)
    .sort();
  expect([...new Set(ours.map(key))].sort()).toEqual([...new Set(theirs)].sort());
  const messages = new Map((compiled.errors ?? []).map((e) => [key(e), e.message]));
  for (const e of ours) if (messages.has(key(e))) expect(e.message).toBe(messages.get(key(e)));
}

describe('validateSchema agrees with ajv', () => {
  const ajv = new Ajv({ allErrors: true, strict: false });
  for (const c of CASES) {
    const compiled = ajv.compile(c.schema as object);
    c.data.forEach((data, i) => {
      it(`${c.name} #${i}`, () => agreesWith(compiled, c.schema, data));
    });
  }
});

describe('validateSchema agrees with Ajv2020 and ajv-formats on the 2020-12 keywords and formats', () => {
  const ajv = new Ajv2020({ allErrors: true, strict: false, logger: false });
  addFormats(ajv);
  for (const c of CASES_2020) {
    const compiled = ajv.compile(c.schema as object);
    c.data.forEach((data, i) => {
      it(`${c.name} #${i}`, () => agreesWith(compiled, c.schema, data));
    });
  }
});
