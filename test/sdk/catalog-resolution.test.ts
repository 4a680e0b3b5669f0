/**
 * Every released catalog version of every built-in resolves through every spelling kpt accepts
 * on the registries that published it (src/core/registry-tags.ts),
 * digest pins follow the documented policy (builtins/docs/README.md, "Digest pins"), and images
 * that are not built-ins get an explanation naming the nearest version or name.
 */
import { describe, expect, it } from 'vitest';
import { BUILTINS } from '../../builtins/index.ts';
import { builtinVersions, catalogReleases, releaseGeneration } from '../../src/core/catalog-versions.ts';
import { resolveCatalogRef, resolveCatalogVersion } from '../../src/core/image.ts';
import { GCR_REGISTRY, GHCR_REGISTRY, registryTags } from '../../src/core/registry-tags.ts';
import { explainNotBuiltin, findBuiltin } from '../../sdk/registry.ts';

const DIGEST = `sha256:${'ab12'.repeat(16)}`;
const PREFIXES = ['gcr.io/kpt-fn/', 'ghcr.io/kptdev/krm-functions-catalog/', ''];

describe('the catalog version table', () => {
  it('holds the tags of both catalogs, the successor’s newest included', () => {
    expect(builtinVersions('starlark')).toEqual([
      'v0.1.0', 'v0.1.1', 'v0.1.2', 'v0.2.0', 'v0.2.1', 'v0.2.2', 'v0.3.0',
      'v0.4.0', 'v0.4.1', 'v0.4.2', 'v0.4.3', 'v0.5.0', 'v0.5.1',
    ]); // prettier-ignore
    expect(builtinVersions('set-labels')).toContain('v0.2.1');
    expect(builtinVersions('apply-setters')).toContain('v0.2.1');
    expect(builtinVersions('apply-replacements')).toContain('v0.1.2');
    expect(builtinVersions('set-name-prefix')).toEqual(['v0.0.1', 'v0.0.2', 'v0.0.3']);
    expect(builtinVersions('no-such-function')).toEqual([]);
  });

  it('maps releases with identical code to one generation', () => {
    expect(releaseGeneration('set-namespace', 'v0.1.1')).toBe('v0.1.0');
    expect(releaseGeneration('set-namespace', 'v0.1.2')).toBe('v0.1.2');
    expect(releaseGeneration('set-name-prefix', 'v0.0.3')).toBe('v0.0.1');
    expect(releaseGeneration('set-namespace', 'v0.9.0')).toBeUndefined();
  });

  it('lists versions oldest first, each once', () => {
    for (const name of ['set-namespace', 'kubeval', 'starlark']) {
      const v = catalogReleases(name).map((r) => r.version);
      expect(new Set(v).size).toBe(v.length);
    }
  });
});

describe('every released version of every built-in resolves where it was published', () => {
  const rows = BUILTINS.flatMap((d) => builtinVersions(d.name).map((v) => [d.name, v] as const));
  it('covers the built-ins that are catalog functions', () => expect(rows.length).toBeGreaterThan(40));
  it.each(rows)('%s %s, through every registry spelling that served it', (name, version) => {
    for (const prefix of PREFIXES) {
      const served = registryTags(prefix || GCR_REGISTRY, name).versions.includes(version);
      const m = findBuiltin(BUILTINS, `${prefix}${name}:${version}`);
      expect(m?.image.version, `${prefix}${name}:${version}`).toBe(served ? version : undefined);
    }
    expect(registryTags(GHCR_REGISTRY, name).versions).toContain(version);
  });
  it.each(BUILTINS.map((d) => [d.name, d.versions] as const))(
    '%s: vX.Y floats to the registry’s newest patch, latest (ghcr.io only) and unstable to its newest',
    (name, versions) => {
      for (const prefix of PREFIXES) {
        const served = registryTags(prefix || GCR_REGISTRY, name).versions;
        const here = versions.filter((v) => served.includes(v));
        const newest = here.at(-1);
        const onGhcr = prefix === GHCR_REGISTRY;
        expect(findBuiltin(BUILTINS, `${prefix}${name}:unstable`)?.image.version).toBe(newest);
        expect(findBuiltin(BUILTINS, `${prefix}${name}:latest`)?.image.version).toBe(onGhcr ? newest : undefined);
        expect(findBuiltin(BUILTINS, `${prefix}${name}`)?.image.version).toBe(onGhcr ? newest : undefined);
        for (const v of here) {
          const line = v.split('.').slice(0, 2).join('.');
          const top = here.filter((x) => x.startsWith(`${line}.`)).at(-1);
          expect(findBuiltin(BUILTINS, `${prefix}${name}:${line}`)?.image.version, `${prefix}${name}:${line}`).toBe(
            top,
          );
        }
      }
    },
  );
  it('old catalog names resolve their own released tags', () => {
    expect(findBuiltin(BUILTINS, 'gcr.io/kpt-fn/set-annotation:v0.1.0')?.descriptor.name).toBe('set-annotations');
    expect(findBuiltin(BUILTINS, 'set-label:v0.1')?.descriptor.name).toBe('set-labels');
    expect(findBuiltin(BUILTINS, 'set-label:v0.7.0')).toBeUndefined();
  });
});

describe('digest pins', () => {
  it('name:tag@sha256 runs the tag’s version and records the digest, unverified', () => {
    const m = findBuiltin(BUILTINS, `gcr.io/kpt-fn/set-labels:v0.2.0@${DIGEST}`);
    expect(m?.image).toEqual({
      name: 'set-labels',
      tag: 'v0.2.0',
      version: 'v0.2.0',
      digest: DIGEST,
      digestVerified: false,
    });
  });
  it('strict mode refuses a digest krmfn cannot vouch for, and explains why', () => {
    const image = `set-labels:v0.2.0@${DIGEST}`;
    expect(findBuiltin(BUILTINS, image, { digestPolicy: 'strict' })).toBeUndefined();
    expect(explainNotBuiltin(BUILTINS, image, { digestPolicy: 'strict' })).toMatch(
      /cannot vouch for digest sha256:ab12.* of set-labels:v0\.2\.0/,
    );
  });
  it('a known digest selects its version under both policies, whatever the tag', () => {
    const digests = { [DIGEST]: 'v0.1.0' };
    for (const policy of ['tag', 'strict'] as const) {
      expect(resolveCatalogRef('v0.2.0', DIGEST, ['v0.1.0', 'v0.2.0'], digests, policy)).toEqual({
        version: 'v0.1.0',
        digest: DIGEST,
        digestVerified: true,
      });
    }
    expect(resolveCatalogVersion('', DIGEST, ['v0.1.0'], digests)).toBe('v0.1.0');
  });
  it('a bare unknown digest is not a built-in, with a message saying how to pin', () => {
    expect(findBuiltin(BUILTINS, `set-labels@${DIGEST}`)).toBeUndefined();
    expect(explainNotBuiltin(BUILTINS, `set-labels@${DIGEST}`)).toMatch(
      /set-labels is pinned by digest only .*write set-labels:<version>@sha256:/,
    );
  });
});

describe('explanations for images that are not built-ins', () => {
  it.each([
    [
      'set-labels:v0.3.0',
      /set-labels has no version "v0\.3\.0"; krmfn has v0\.1\.3, .*; nearest: set-labels:v0\.2\.\d/,
    ],
    ['gcr.io/kpt-fn/set-namespace:v0.1.9', /nearest: set-namespace:v0\.1\.4$/],
    ['gcr.io/kpt-fn/set-lables:v0.2.0', /no catalog function is named "set-lables"; did you mean "set-labels"\?/],
    ['ghcr.io/kptdev/krm-functions-catalog/aply-setters:v0.2', /did you mean "apply-setters"\?/],
    ['gatekeeper:v0.2.1', /gatekeeper is a catalog function that krmfn does not build in \(released v0\.1\.1,/],
    ['gcr.io/kpt-fn/zzzzzzzzzzzz:v1', /^no catalog function is named "zzzzzzzzzzzz"$/],
  ])('%s', (image, message) => {
    expect(explainNotBuiltin(BUILTINS, image)).toMatch(message);
  });
  it('says nothing for images outside the catalog or that are built-ins', () => {
    expect(explainNotBuiltin(BUILTINS, 'example.com/fns/set-labels:v0.3.0')).toBeUndefined();
    expect(explainNotBuiltin(BUILTINS, 'set-labels:v0.2.0')).toBeUndefined();
  });
});
