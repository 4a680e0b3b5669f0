// The image reference scanner (src/core/image-reference.ts) against the docker reference grammar
// written as a Go regular expression and run on Go's RE2 semantics (src/core/go-regexp.ts): the two
// agree on hand-picked references and on generated strings built from the grammar's pieces, valid
// and broken, including the tag and digest length bounds.
import { expect, test } from 'vitest';
import { compileGoRegexp } from '../../src/core/go-regexp.ts';
import { matchesImageReference } from '../../src/core/image-reference.ts';

const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const DOMAIN = `${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*(?::[0-9]+)?`;
const PATH_COMPONENT = '[a-z0-9]+(?:(?:[._]|__|[-]*)[a-z0-9]+)*';
const NAME = `(?:${DOMAIN}/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*`;
const TAG = '[\\w][\\w.-]{0,127}';
const DIGEST = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}';
const oracle = compileGoRegexp(`^${NAME}(?::${TAG})?(?:@${DIGEST})?$`);

const HEX32 = '0123456789abcdef0123456789ABCDEF';

test.each([
  ['gcr.io/kpt-fn/set-namespace:v0.4.1', true],
  ['set-labels', true],
  ['localhost:5000/fn', true],
  ['localhost:5000', true],
  ['localhost:/fn', false],
  ['Registry.Example-1.com:443/a/b__c/d--e.f_g:Tag_1.x-', true],
  ['a/b___c', false],
  ['a/b._c', false],
  ['a/-b', false],
  ['-a.com/b', false],
  ['a-.com/b', false],
  ['A/b', true],
  ['a/B', false],
  ['a:b:c', false],
  ['a:', false],
  ['a:.x', false],
  [`a:${'x'.repeat(128)}`, true],
  [`a:${'x'.repeat(129)}`, false],
  [`a@sha256:${HEX32}`, true],
  [`a:v1@sha256:${HEX32}`, true],
  [`a@sha256:${HEX32.slice(1)}`, false],
  [`a@sha256+b.c_d-e:${HEX32}ff`, true],
  [`a@sha256..b:${HEX32}`, false],
  [`a@1sha:${HEX32}`, false],
  [`a@@sha256:${HEX32}`, false],
  ['', false],
  ['a//b', false],
  ['a/', false],
])('%s', (image, valid) => {
  expect(oracle.matchString(image)).toBe(valid);
  expect(matchesImageReference(image)).toBe(valid);
});

/** A small deterministic generator (mulberry32), so a failure names a reproducible input. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test('agrees with the regular expression on generated references', () => {
  const next = random(17);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)];
  const pieces = [
    'a',
    'z',
    '0',
    '9',
    'B',
    '-',
    '--',
    '.',
    '_',
    '__',
    '___',
    '/',
    ':',
    '@',
    '+',
    'gcr.io',
    'kpt-fn',
    'localhost',
    ':5000',
    'v0.4.1',
    'sha256',
    HEX32,
    'ab',
    'x_y',
    'q.r',
    '..',
    'é',
  ];
  const disagreements: string[] = [];
  let valid = 0;
  for (let i = 0; i < 20000; i++) {
    let s = '';
    const n = 1 + Math.floor(next() * 9);
    for (let k = 0; k < n; k++) s += pick(pieces);
    if (next() < 0.2) s += `:${'t'.repeat(120 + Math.floor(next() * 16))}`;
    const expected = oracle.matchString(s);
    if (expected) valid++;
    if (expected !== matchesImageReference(s)) disagreements.push(s);
  }
  expect(disagreements).toEqual([]);
  // Both sides of the grammar are exercised.
  expect(valid).toBeGreaterThan(2000);
  expect(valid).toBeLessThan(18000);
});
