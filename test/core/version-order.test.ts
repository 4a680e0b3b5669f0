/**
 * The project's one version order (src/core/image.ts `compareVersions`), as semver precedence
 * orders versions (semver.org 2.0 §11), plus the two conventions of catalog images: a leading `v`
 * is optional and `vX.Y` means `vX.Y.0`; '' is the unreleased newest behaviour. builtins/lib/version.ts
 * must agree with it on every pair.
 */
import { describe, expect, it } from 'vitest';
import { compareVersions, nearestVersion, versionAtLeast } from '../../src/core/image.ts';
import { atLeast, compareVersions as libCompare } from '../../builtins/lib/version.ts';

// Each row is strictly ascending.
const ASCENDING: string[][] = [
  ['v0.1.0', 'v0.1.1', 'v0.1.10', 'v0.2.0', 'v0.10.0', 'v1.0.0'],
  ['v1.0.0-alpha', 'v1.0.0-alpha.1', 'v1.0.0-alpha.beta', 'v1.0.0-beta', 'v1.0.0-beta.2', 'v1.0.0-beta.11'],
  ['v1.0.0-beta.11', 'v1.0.0-rc.1', 'v1.0.0', 'v1.0.1'],
  ['v0.4.1', 'v0.4.5', 'v0.5.0', ''],
];

const EQUAL: [string, string][] = [
  ['v0.4', 'v0.4.0'],
  ['v1', 'v1.0.0'],
  ['0.2.0', 'v0.2.0'],
  ['v1.2.3+build.5', 'v1.2.3'],
  ['not-a-version', 'v0.0.0'],
];

describe('compareVersions', () => {
  it.each(ASCENDING.map((row) => [row.join(' < '), row] as const))('%s', (_, row) => {
    for (let i = 0; i < row.length; i++) {
      for (let j = 0; j < row.length; j++) {
        const want = Math.sign(i - j);
        expect(Math.sign(compareVersions(row[i], row[j])), `${row[i]} vs ${row[j]}`).toBe(want);
        expect(Math.sign(libCompare(row[i], row[j])), `lib: ${row[i]} vs ${row[j]}`).toBe(want);
      }
    }
  });

  it.each(EQUAL)('%s = %s', (a, b) => {
    expect(compareVersions(a, b)).toBe(0);
    expect(compareVersions(b, a)).toBe(0);
  });

  it('sorts a mixed list as semver precedence does', () => {
    const list = ['v0.2.0', 'v0.10.0', 'v0.2.0-rc.1', '', 'v0.9.9'];
    expect(list.sort(compareVersions)).toEqual(['v0.2.0-rc.1', 'v0.2.0', 'v0.9.9', 'v0.10.0', '']);
  });
});

describe('versionAtLeast and atLeast agree', () => {
  it.each([
    ['v0.2.1', '0.2.0', true],
    ['v0.1.9', 'v0.2.0', false],
    ['v0.2.0-rc.1', 'v0.2.0', false],
    ['', 'v0.2.0', true],
    ['v0.4', 'v0.4.0', true],
    ['v0.10.0', 'v0.9.0', true],
  ] as const)('%s >= %s is %s', (v, min, want) => {
    expect(versionAtLeast(v, min)).toBe(want);
    expect(atLeast(v, min)).toBe(want);
  });
});

describe('nearestVersion', () => {
  const versions = ['v0.1.3', 'v0.1.5', 'v0.2.0', 'v0.2.1', 'v1.0.0'];
  it.each([
    ['v0.1.9', 'v0.1.5'],
    ['v0.2.7', 'v0.2.1'],
    ['v0.3.0', 'v0.2.1'],
    ['v2.0.0', 'v1.0.0'],
    ['main', 'v1.0.0'],
  ])('%s → %s', (wanted, near) => expect(nearestVersion(wanted, versions)).toBe(near));
  it('is undefined without versions', () => expect(nearestVersion('v1.0.0', [])).toBeUndefined());
});
