// The pure MD5/SHA-1/SHA-256 behind starlib's `hash.star` agree with Node's crypto on edge lengths
// (block boundaries at 55/56/64 bytes) and on binary input.
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { md5Hex, sha1Hex, sha256Hex } from '../../../src/starlark/lib/starlib/digests.ts';

const INPUTS = [
  '',
  'abc',
  'x'.repeat(55),
  'x'.repeat(56),
  'x'.repeat(63),
  'x'.repeat(64),
  'y'.repeat(1000),
  '\xff\x00\x80\xc3\xa9',
];

describe('starlib hash digests', () => {
  for (const [name, f] of [
    ['md5', md5Hex],
    ['sha1', sha1Hex],
    ['sha256', sha256Hex],
  ] as const) {
    it.each(INPUTS.map((s) => [s.length, s]))(`${name} of %i bytes`, (_n, s) => {
      expect(f(s)).toBe(createHash(name).update(Buffer.from(s, 'latin1')).digest('hex'));
    });
  }
});
